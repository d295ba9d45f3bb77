// perf-probe: the measured regions of scripts/perf-compare, each in one @inline(never) function
// that callgrind collects alone (--toggle-collect), so instruction counts cover exactly our
// per-event work and nothing of the setup (reading the file, building the decoders).
//
//   perf-probe decode-engine FILE   one frame: decoder lookup + decode + engine (+ its timers)
import BenchmarkSupport
import EvdevDecoder
import LibinputRecording
import PreviewEngine

#if canImport(Glibc)
    import Glibc
#endif

/// The collected region: one frame through decoder lookup, decoder and engine (FrameStep, the
/// same code the per-frame benchmark measures).
@inline(never)
func collectedFrameStep(_ frame: EvdevFrame, _ step: inout FrameStep) -> Int { step(frame) }

func decodeEngine(_ path: String) throws {
    let recording = try Recording.open(path)
    let reader = try recording.frames()
    var frames: [EvdevFrame] = []
    while let frame = try reader.nextFrame() { frames.append(frame) }
    var step = FrameStep(devices: recording.devices)
    var actions = 0
    for frame in frames { actions += collectedFrameStep(frame, &step) }
    print("event-lines \(reader.eventLines) frames \(frames.count) actions \(actions)")
}

let arguments = CommandLine.arguments.dropFirst()
switch (arguments.first, arguments.count) {
case ("decode-engine", 2):
    do { try decodeEngine(arguments.last!) } catch {
        print("perf-probe: \(error)")
        exit(1)
    }
default:
    print("usage: perf-probe decode-engine FILE")
    exit(2)
}
