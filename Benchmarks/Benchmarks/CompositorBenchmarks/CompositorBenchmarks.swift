// The compositor's hot paths (docs: BENCHMARKS.md, "PreviewCompositor"):
// - composition of a 1280x800 output with one 1280x800 window: full damage vs a 64x64 rect
//   (pixman, what every client commit costs);
// - one replayed pen event through the InteractionHost path (`Compositor.inject`), with the
//   flush to the client: over nothing, to a pointer-only client (emulated pointer motion and
//   frame) and to a tablet-v2 client (tool motion, pressure, distance, tilt, frame); both
//   clients are Tests/python/tablet_client.py (weston-simple-shm binds no seat). One event per
//   iteration;
// - a PNG screenshot of the output (libpng, written to a temporary file).
import Benchmark
import EvdevDecoder
import Foundation
import InputEvents
import LibinputRecording
import PreviewCompositor
import PreviewEngine

let benchmarks: @Sendable () -> Void = {
    let perFrame = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .throughput], maxDuration: .seconds(3), maxIterations: 10_000)
    // One event per iteration: clients must keep up with what is sent (a unix socket holds a
    // few hundred small writes; a client further behind is disconnected), so every 50 events
    // the loop lets them catch up, outside the measurement.
    // Mallocs are held to the stored thresholds exactly (Thresholds/): our path allocates
    // nothing, and every malloc with a client is libwayland's (two per message it sends).
    let perEvent = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .throughput], maxDuration: .seconds(5), maxIterations: 20_000,
        thresholds: [.mallocCountTotal: .init(absolute: [.p0: 0, .p50: 0, .p100: 0])])

    Benchmark("composite 1280x800, full-window damage", configuration: perFrame) { benchmark in
        let scene = OutputScene.shared
        benchmark.startMeasurement()
        scene.framebuffer.addDamage(scene.framebuffer.bounds)
        blackHole(scene.framebuffer.repaint(scene.placements))
        benchmark.stopMeasurement()
    }

    Benchmark("composite 1280x800, 64x64 damage", configuration: perFrame) { benchmark in
        let scene = OutputScene.shared
        benchmark.startMeasurement()
        scene.framebuffer.addDamage(Rect(x: 600, y: 380, width: 64, height: 64))
        blackHole(scene.framebuffer.repaint(scene.placements))
        benchmark.stopMeasurement()
    }

    Benchmark("PNG screenshot 1280x800", configuration: perFrame) { benchmark in
        let scene = OutputScene.shared
        let path = NSTemporaryDirectory() + "compositor-benchmark.png"
        benchmark.startMeasurement()
        try scene.framebuffer.writePNG(to: path)
        benchmark.stopMeasurement()
    }

    for client in PenClient.allCases {
        var configuration = perEvent
        if client.scaled {
            // The compositor's resident memory per extra surface, measured once in the setup.
            configuration.metrics.append(
                .custom("resident bytes per surface", polarity: .prefersSmaller, useScalingFactor: false))
        }
        Benchmark("pen event through InteractionHost + flush, \(client)", configuration: configuration) { benchmark in
            let fixture = PenFixture.shared(client)
            if client.scaled {
                benchmark.measurement(.custom("resident bytes per surface"), fixture.residentBytesPerSurface)
            }
            benchmark.startMeasurement()
            fixture.next()
            benchmark.stopMeasurement()
            fixture.count += 1
            if fixture.count % 50 == 0 { fixture.drain() }
        }
    }
}

/// A framebuffer with one full-output window whose texture is a pattern (not one colour).
final class OutputScene: @unchecked Sendable {
    static let shared = OutputScene()
    let framebuffer = Framebuffer(width: 1280, height: 800)!
    let placements: [Framebuffer.Placement]

    init() {
        let texture = SurfaceTexture(width: 1280, height: 800, format: .argb8888)!
        var pixels = [UInt32](repeating: 0, count: 1280 * 800)
        for y in 0..<800 {
            for x in 0..<1280 {
                pixels[y * 1280 + x] =
                    0xff00_0000 | UInt32(x & 0xff) << 16 | UInt32(y & 0xff) << 8 | UInt32((x ^ y) & 0xff)
            }
        }
        pixels.withUnsafeBytes {
            texture.upload(from: $0.baseAddress!, stride: 1280 * 4, rect: Rect(x: 0, y: 0, width: 1280, height: 800))
        }
        placements = [Framebuffer.Placement(texture: texture, x: 0, y: 0)]
        framebuffer.addDamage(framebuffer.bounds)
        _ = framebuffer.repaint(placements)
    }
}

enum PenClient: String, CaseIterable, CustomStringConvertible {
    /// No window: our path only, nothing is sent.
    case none = "no client under the pen"
    case pointer = "pointer-only client (pywayland)"
    case tablet = "tablet-v2 client (pywayland)"
    /// Scale: the same client with 10,000 mapped 8x8 subsurfaces on its window (under and
    /// around the pen), and with 10,000 more surfaces that each have an interaction object.
    case tabletSubsurfaces = "tablet-v2 client with 10,000 mapped subsurfaces"
    case tabletObjects = "tablet-v2 client with 10,000 interaction objects"
    var description: String { rawValue }

    static let scale = 10_000
    var scaled: Bool { self == .tabletSubsurfaces || self == .tabletObjects }

    var command: String? {
        let client = "exec python3 \(repositoryRoot)/Tests/python/tablet_client.py"
        switch self {
        case .none: return nil
        case .pointer: return "\(client) --pointer /dev/null"
        case .tablet: return "\(client) --tablet /dev/null"
        case .tabletSubsurfaces: return "\(client) --tablet --subsurfaces \(Self.scale) /dev/null"
        case .tabletObjects: return "\(client) --tablet --preview --objects \(Self.scale) /dev/null"
        }
    }
}

/// This process's resident set (bytes), from /proc/self/statm.
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
}

let repositoryRoot: String = {
    var root = #filePath
    for _ in 0..<4 { root = String(root[..<root.lastIndex(of: "/")!]) }
    return root
}()

/// An in-process compositor (no socket: the client gets WAYLAND_SOCKET), its client's window
/// mapped, a pen contact down on it, and the Cintiq recording's pen samples to cycle through.
final class PenFixture: @unchecked Sendable {
    nonisolated(unsafe) private static var fixtures: [PenClient: PenFixture] = [:]
    static func shared(_ client: PenClient) -> PenFixture {
        if let fixture = fixtures[client] { return fixture }
        let fixture = PenFixture(client)
        fixtures[client] = fixture
        return fixture
    }

    let compositor: Compositor
    let client: PenClient
    private var samples: [DeviceEvent] = []
    private var index = 0
    var count = 0
    private var time: Int64
    /// How much the compositor grew per extra surface (scaled clients; RSS, so approximate).
    private(set) var residentBytesPerSurface = 0

    init(_ client: PenClient) {
        self.client = client
        var configuration = CompositorConfiguration()
        configuration.listen = false
        configuration.handleSignals = false
        configuration.runCommand = client.command
        compositor = try! Compositor(configuration: configuration)
        let before = residentBytes()
        compositor.start()
        let deadline = Date().addingTimeInterval(60)
        while client != .none && compositor.windows.isEmpty && Date() < deadline {
            compositor.dispatch(timeoutMilliseconds: 50)
        }
        precondition(client == .none || !compositor.windows.isEmpty, "\(client) mapped no window")
        for _ in 0..<20 { compositor.dispatch(timeoutMilliseconds: 5) }
        residentBytesPerSurface = client.scaled ? max(0, residentBytes() - before) / PenClient.scale : 0
        // The recording's pen samples, decoded once.
        let recording = try! Recording.open(
            repositoryRoot + "/Sources/BundledRecordings/recordings/wacom-cintiq13hd-pen.yml")
        var decoders = recording.devices.map {
            EvdevDecoder(description: $0.description, device: DeviceID(UInt32($0.index)))
        }
        let frames = try! recording.frames()
        var events: [DeviceEvent] = []
        var began: DeviceContact?
        while let frame = try! frames.nextFrame() {
            events.removeAll(keepingCapacity: true)
            decoders[frame.device].decode(frame, into: &events)
            for event in events {
                switch event {
                case .contactBegan(var contact):
                    contact.position = Self.inWindow(contact.position)
                    began = began ?? contact
                case .contactChanged(var contact):
                    contact.position = Self.inWindow(contact.position)
                    samples.append(.contactChanged(contact))
                case .contactEnded, .toolProximity, .toolMotion, .pointerMotion, .scroll, .button, .key, .frame: break
                }
            }
        }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        time = Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
        var contact = began!
        contact.time = Timestamp(microseconds: time)
        compositor.inject(.contactBegan(contact))
        drain()
    }

    /// The recording's positions squeezed into the output's centre tenth (inside the window).
    static func inWindow(_ point: NormalisedPoint) -> NormalisedPoint {
        NormalisedPoint(x: 0.45 + point.x / 10, y: 0.45 + point.y / 10)
    }

    /// One pen sample (re-timed 1 ms after the previous), handled and flushed to the client.
    @inline(__always) func next() {
        guard case .contactChanged(var contact) = samples[index] else { preconditionFailure() }
        index = index + 1 == samples.count ? 0 : index + 1
        time += 1000
        contact.time = Timestamp(microseconds: time)
        compositor.inject(.contactChanged(contact))
        // What --fast asks on every replayed event.
        blackHole(compositor.replayFacts)
        compositor.flushClients()
    }

    /// Lets the client catch up (outside the measured region), and checks it is still there:
    /// a client that fell behind by more than its socket buffer is disconnected, and events to
    /// nobody would measure nothing.
    func drain() {
        for _ in 0..<5 { compositor.dispatch(timeoutMilliseconds: 4) }
        precondition(client == .none || compositor.windows.count == 1, "\(client) fell behind and was disconnected")
    }
}
