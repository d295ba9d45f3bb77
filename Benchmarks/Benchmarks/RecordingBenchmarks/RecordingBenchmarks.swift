// Parse + decode throughput of `libinput record` files: the reader (LibinputRecording) and the
// evdev decoder, without the engine. The setup writes a large synthetic recording by repeating a
// real fixture's events with shifted times (outside the measured region); each iteration reads
// and decodes the whole file. Throughput is per iteration: divide into event lines with the
// line count printed by the setup (BENCHMARKS.md has the figures).
import Benchmark
import BenchmarkSupport
import EvdevDecoder
import Foundation
import InputEvents
import LibinputRecording
import PreviewEngine

/// Writes `repetitions` copies of `fixture`'s events, each shifted by the fixture's length,
/// after its header. Returns the path and the number of event lines.
func syntheticRecording(fixture: String, repetitions: Int) -> (path: String, eventLines: Int) {
    var root = #filePath
    for _ in 0..<4 { root = String(root[..<root.lastIndex(of: "/")!]) }
    let source = try! String(
        contentsOfFile: root + "/Sources/BundledRecordings/recordings/" + fixture, encoding: .utf8)
    let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
    let eventsIndex = lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "events:" }!
    var out = lines[...eventsIndex].joined(separator: "\n") + "\n"
    var events: [(prefix: String, seconds: Int, rest: String)] = []
    var lastSecond = 0
    var others: [Int: String] = [:]
    for line in lines[(eventsIndex + 1)...] {
        if let open = line.range(of: "- ["), let comma = line[open.upperBound...].firstIndex(of: ",") {
            let seconds = Int(line[open.upperBound..<comma].trimmingCharacters(in: .whitespaces))!
            lastSecond = max(lastSecond, seconds)
            events.append((String(line[..<open.upperBound]), seconds, String(line[comma...])))
        } else if !line.isEmpty {
            others[events.count] = String(line)
        }
    }
    var count = 0
    for repetition in 0..<repetitions {
        let shift = repetition * (lastSecond + 1)
        for (index, event) in events.enumerated() {
            if let other = others[index] { out += other + "\n" }
            let seconds = String(event.seconds + shift)
            out += event.prefix + String(repeating: " ", count: max(0, 3 - seconds.count)) + seconds + event.rest + "\n"
            count += 1
        }
    }
    let path = NSTemporaryDirectory() + "recording-benchmark-\(repetitions)-\(fixture)"
    try! out.write(toFile: path, atomically: true, encoding: .utf8)
    return (path, count)
}

/// A YAML alias bomb ("billion laughs"): 29 levels, each alias three times the one before
/// (3^29 lists if expanded), in a recording's layout. Returns its path.
func aliasBomb() -> String {
    var text = "a0: &a0 [0, 0, 0, 0, 0]\n"
    for level in 1..<30 { text += "a\(level): &a\(level) [*a\(level - 1), *a\(level - 1), *a\(level - 1)]\n" }
    text += "version: 1\ndevices: [{evdev: {name: x}, events: [{evdev: *a29}]}]\n"
    let path = NSTemporaryDirectory() + "recording-benchmark-alias-bomb.yml"
    try! text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

/// Whether reading `path` to its end fails (as a hostile file must).
func refused(_ path: String) -> Bool {
    do {
        let frames = try Recording.open(path).frames()
        while try frames.nextFrame() != nil {}
        return false
    } catch {
        return true
    }
}

/// Reads and decodes every frame; returns the number of decoded events (kept alive by blackHole).
func parseAndDecode(_ path: String, decode: Bool) -> Int {
    let recording = try! Recording.open(path)
    var decoders = recording.devices.map {
        EvdevDecoder(description: $0.description, device: DeviceID(UInt32($0.index)))
    }
    let frames = try! recording.frames()
    var output: [DeviceEvent] = []
    output.reserveCapacity(64)
    var decoded = 0
    while let frame = try! frames.nextFrame() {
        if decode {
            decoders[frame.device].decode(frame, into: &output)
            decoded += output.count
            output.removeAll(keepingCapacity: true)
        } else {
            decoded += frame.events.count
        }
    }
    return decoded
}

let benchmarks: @Sendable () -> Void = {
    let wholeFile = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
        maxDuration: .seconds(5),
        maxIterations: 30)

    // 5292 event lines × 40 ≈ 212k lines, 18 MB (pen: ABS_X/Y/PRESSURE/DISTANCE, MSC_SERIAL).
    let pen = syntheticRecording(fixture: "wacom-dth2242-pen.yml", repetitions: 40)
    // 1557 event lines × 136 ≈ 212k lines (touchpad: MT protocol B slots, single-touch emulation).
    let pad = syntheticRecording(fixture: "elantech-touchpad.yml", repetitions: 136)
    print("RecordingBenchmarks: pen file \(pen.eventLines) event lines, touchpad file \(pad.eventLines) event lines")

    Benchmark("Parse + decode, pen recording, \(pen.eventLines) event lines", configuration: wholeFile) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(parseAndDecode(pen.path, decode: true)) }
    }
    Benchmark("Parse + decode, MT touchpad recording, \(pad.eventLines) event lines", configuration: wholeFile) {
        benchmark in
        for _ in benchmark.scaledIterations { blackHole(parseAndDecode(pad.path, decode: true)) }
    }
    // The fixture once: the same malloc count as 40 times its events shows the per-event path
    // allocates nothing (what is left is opening the file and reading the header).
    let once = syntheticRecording(fixture: "wacom-dth2242-pen.yml", repetitions: 1)
    Benchmark("Parse + decode, pen recording once, \(once.eventLines) event lines", configuration: wholeFile) {
        benchmark in
        for _ in benchmark.scaledIterations { blackHole(parseAndDecode(once.path, decode: true)) }
    }
    Benchmark("Parse only, pen recording, \(pen.eventLines) event lines", configuration: wholeFile) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(parseAndDecode(pen.path, decode: false)) }
    }

    // A hostile file: the time to refuse an alias bomb (RecordingTests checks that it is refused).
    let bomb = aliasBomb()
    let refusal = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(3), maxIterations: 1000)
    Benchmark("Alias bomb refused, 29 levels of three aliases each", configuration: refusal) { benchmark in
        for _ in benchmark.scaledIterations { precondition(refused(bomb)) }
    }

    // The replay's per-frame path in steady state: read the next frame, find its decoder
    // (DeviceDecoders), decode, feed the engine. Allocating here fails the stored thresholds.
    let perFrame = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(3), maxIterations: 100_000,
        thresholds: [.mallocCountTotal: .init(absolute: [.p0: 0, .p50: 0, .p100: 0])])
    for (name, path) in [("pen", pen.path), ("MT touchpad", pad.path)] {
        Benchmark("Replay input, one frame: read + decoder lookup + decode + engine, \(name)", configuration: perFrame)
        {
            benchmark in
            let replay = FrameReplay.shared(path)
            benchmark.startMeasurement()
            blackHole(replay.step())
            benchmark.stopMeasurement()
            replay.reopenAtEnd()
        }
    }
}

/// A recording read frame by frame through a `FrameStep`, reopened when it ends.
final class FrameReplay: @unchecked Sendable {
    nonisolated(unsafe) private static var open: [String: FrameReplay] = [:]
    static func shared(_ path: String) -> FrameReplay {
        if let replay = open[path] { return replay }
        let replay = FrameReplay(path)
        open[path] = replay
        return replay
    }

    let path: String
    private var frames: RecordingFrames
    private var frameStep: FrameStep
    private var ended = false

    init(_ path: String) {
        self.path = path
        let recording = try! Recording.open(path)
        frames = try! recording.frames()
        frameStep = FrameStep(devices: recording.devices)
    }

    /// One frame; returns the number of actions.
    @inline(__always) func step() -> Int {
        guard let frame = try! frames.nextFrame() else {
            ended = true
            return 0
        }
        return frameStep(frame)
    }

    /// At the end of the file, start again with fresh decoders and engine (outside the
    /// measured region).
    func reopenAtEnd() {
        guard ended else { return }
        ended = false
        let recording = try! Recording.open(path)
        frames = try! recording.frames()
        frameStep = FrameStep(devices: recording.devices)
    }
}
