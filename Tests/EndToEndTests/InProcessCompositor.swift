import DemoReport
import Foundation
import InputEvents
import LibinputRecording
import PreviewEngine
import PreviewTrace
import ReplayTool
import SystemLayer
import WaylandServer
import _FixtureTestSupport

@testable import PreviewCompositor

/// The real compositor in-process (`CompositorThread`) with real peek-client processes, for the
/// runs the command line cannot set up: two windows mapped before any input (the CLI's replay
/// starts at the first map), and input that did not come from the decoder (the real libinput).
/// Input is fed the way `ReplayDriver` feeds `--replay --fast`: on the compositor's own event
/// loop, each event re-timed onto the monotonic clock, idle gaps skipped, gestures at their
/// recorded pace, into the same `InteractionHost.handle(_:)`.
final class InProcessCompositor {
    let thread: CompositorThread
    let folder: String
    let tracePath: String
    private var clients: [PeekClientProcess] = []

    init(output: (width: Int32, height: Int32) = (1280, 800), screenshots: Bool = false) throws {
        _ = TestRuntimeDirectory.path
        folder = scratchDirectory("in-process")
        tracePath = folder + "/trace.jsonl"
        var configuration = CompositorConfiguration()
        configuration.outputWidth = output.width
        configuration.outputHeight = output.height
        configuration.tracePath = tracePath
        configuration.engine.shouldBeginTimeout = .milliseconds(Int64(slowClientShouldBeginTimeout))
        if screenshots {
            let directory = folder + "/shots"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            configuration.screenshotDirectory = directory
        }
        thread = try CompositorThread(configuration: configuration)
    }

    deinit {
        thread.stop()
        for client in clients { _ = client.process.wait(timeout: 10) }
    }

    /// Starts a peek-client with `--log`; its window maps when it has drawn its first frame.
    func launchClient(_ name: String) throws -> PeekClientProcess {
        let client = try PeekClientProcess(
            socket: thread.socketName, log: folder + "/\(name).log", diagnostics: folder + "/\(name).stderr")
        clients.append(client)
        return client
    }

    /// Waits (without polling) until `condition` holds on the compositor's thread.
    func wait(timeout: Double, until condition: @escaping @Sendable (Compositor) -> Bool) -> Bool {
        thread.wait(timeout: timeout, until: condition)
    }

    /// Waits until `count` toplevels are mapped and laid out side by side.
    func waitForWindows(_ count: Int, timeout: Double = 30) -> Bool {
        wait(timeout: timeout) { compositor in
            let windows = compositor.windows
            return windows.count == count
                && zip(windows, windows.dropFirst()).allSatisfy { $0.rect.x + $0.rect.width <= $1.rect.x }
        }
    }

    /// Mapped toplevels, bottom to top: surface, client and output rectangle.
    var windows: [(surface: SurfaceID, client: String, x: Int32, y: Int32, width: Int32, height: Int32)] {
        thread.sync { compositor in
            compositor.windows.map { ($0.surface, "\($0.client)", $0.rect.x, $0.rect.y, $0.rect.width, $0.rect.height) }
        }
    }

    /// Feeds `events` and returns once the last one was handled.
    func play(_ events: [DeviceEvent], devices: [ReplayDevice], timeout: Double = 60) -> Bool {
        let done = DispatchSemaphore(value: 0)
        thread.sync { compositor in
            for device in devices { compositor.interaction.name(device.id, device.name) }
            EventFeeder(compositor: compositor, events: events) { done.signal() }.start()
        }
        return done.wait(timeout: .now() + timeout) == .success
    }

    /// Waits until no contact is down, no engine timer (long press, should-begin wait) is due and
    /// every client acknowledged every frame (it read all its events).
    func settle(timeout: Double = 10) -> Bool {
        wait(timeout: timeout) {
            !$0.interaction.timerPending && $0.interaction.contactsDown == 0
                && !$0.interaction.awaitsAcknowledgement
        }
    }

    /// Stops the compositor (clients lose their connection and exit) and reads the trace.
    func finish() throws -> [TraceRecord] {
        thread.stop()
        for client in clients { _ = client.process.wait(timeout: 10) }
        return try TraceReader.read(path: tracePath)
    }

    func removeFiles() { try? FileManager.default.removeItem(atPath: folder) }
}

/// A peek-client process with `--log` on stdout into a file.
final class PeekClientProcess {
    let process: ChildProcess
    let logPath: String

    init(socket: String, log: String, diagnostics: String) throws {
        logPath = log
        let command = "exec \(shellQuote(tools.client)) --log > \(shellQuote(log)) 2> \(shellQuote(diagnostics))"
        process = try ChildProcess(
            ["/bin/sh", "-c", command],
            environment: ["WAYLAND_DISPLAY": socket, "XDG_RUNTIME_DIR": TestRuntimeDirectory.path])
    }

    var log: ClientLog { ClientLog(path: logPath) }
}

/// Decodes a whole input up front (the decoder, or the real libinput's buffered output), ending
/// contacts still down at the end as the replay does.
func allEvents(of input: inout some ReplayInput) throws -> [DeviceEvent] {
    var events: [DeviceEvent] = []
    var batch: [DeviceEvent] = []
    var last = Timestamp(microseconds: 0)
    while try input.next(into: &batch) {
        for event in batch { last = max(last, event.time) }
        events += batch
        batch.removeAll(keepingCapacity: true)
    }
    input.finish(at: last, into: &batch)
    return events + batch
}

/// `ReplayDriver`'s pacing for pre-decoded events, on the compositor's thread.
private final class EventFeeder {
    unowned let compositor: Compositor
    private let events: [DeviceEvent]
    private var index = 0
    private var offset: Int64?
    /// When a should-begin question paused the feed (as the compositor's replay pauses).
    private var pausedAt: Int64?
    private var timer: EventSource?
    private let done: () -> Void

    init(compositor: Compositor, events: [DeviceEvent], done: @escaping () -> Void) {
        self.compositor = compositor
        self.events = events
        self.done = done
    }

    func start() {
        timer = compositor.display.eventLoop.addTimer { [self] in pump() }  // the timer keeps self
        timer?.arm(milliseconds: 1)
    }

    private func pump() {
        let host = compositor.interaction
        while index < events.count {
            let event = events[index]
            let now = compositor.clock.microseconds()
            let recorded = event.time.microseconds
            if offset == nil { offset = now - recorded }
            // A client is asked should-begin: hold still until it answers, as the compositor's
            // replay does, so a client slow under load gets the recorded gesture.
            if host.awaitsAnswer {
                if pausedAt == nil { pausedAt = now }
                timer?.arm(milliseconds: 1)
                return
            }
            if let pausedAt {
                offset! += now - pausedAt
                self.pausedAt = nil
            }
            // --fast: with nothing down and nothing pending, the next event is due at once.
            if host.contactsDown == 0 && !host.timerPending { offset = min(offset!, now - recorded) }
            let due = recorded + offset!
            if due > now + 500 {
                timer?.arm(milliseconds: TimerRounding.milliseconds(afterMicroseconds: due - now))
                return
            }
            host.handle(event.shifted(by: offset!))
            index += 1
        }
        timer?.remove()
        timer = nil
        done()
    }
}

extension DeviceEvent {
    /// The same event `offset` µs later (recording time → monotonic time).
    func shifted(by offset: Int64) -> DeviceEvent {
        func shift(_ t: Timestamp) -> Timestamp { Timestamp(microseconds: t.microseconds + offset) }
        switch self {
        case .contactBegan(var c):
            c.time = shift(c.time)
            return .contactBegan(c)
        case .contactChanged(var c):
            c.time = shift(c.time)
            return .contactChanged(c)
        case .contactEnded(let key, let time, let reason): return .contactEnded(key, time: shift(time), reason: reason)
        case .toolProximity(var s, let inProximity):
            s.time = shift(s.time)
            return .toolProximity(s, inProximity: inProximity)
        case .toolMotion(var s):
            s.time = shift(s.time)
            return .toolMotion(s)
        case .pointerMotion(var m):
            m.time = shift(m.time)
            return .pointerMotion(m)
        case .scroll(var s):
            s.time = shift(s.time)
            return .scroll(s)
        case .button(var k):
            k.time = shift(k.time)
            return .button(k)
        case .key(var k):
            k.time = shift(k.time)
            return .key(k)
        case .frame(let t): return .frame(shift(t))
        }
    }
}
