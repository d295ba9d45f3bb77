import InputEvents
import LibinputRecording
import Logging
import PreviewEngine
import PreviewProtocolServer
import SystemLayer
import WaylandServer

/// `--replay FILE...`: what the replay input is given.
public struct ReplayOptions: Sendable {
    public var paths: [String]
    /// `--fast`: skip the idle gaps (below).
    public var fast: Bool
    /// `--await-clients`: keep the recorded gaps, and lengthen one until the clients caught up.
    public var awaitsClients = false
    /// `--map-timeout`: input starts when a client maps a window, or after this long without one.
    public var mapTimeoutMilliseconds: Int32 = 10_000
    /// The longest wait between two events (a recording may hold any gap).
    public var longestGapMilliseconds: Int32 = 10_000

    public init(paths: [String], fast: Bool = false) {
        self.paths = paths
        self.fast = fast
    }
}

extension CompositorConfiguration.InputSelection {
    public static func replay(_ options: ReplayOptions) -> Self {
        Self(name: "replay") { context throws(CompositorError) in try ReplayDriver(options: options, context: context) }
    }

    public static func replay(_ paths: [String], fast: Bool = false) -> Self {
        .replay(ReplayOptions(paths: paths, fast: fast))
    }
}

extension ReplayDriver {
    static let descriptor = InputBackendDescriptor(
        name: "replay", help: "libinput-record files as the seat's input, on the compositor's clock.",
        options: [
            BackendOption(
                "replay", value: .many("file"),
                help: "Replay these files (paused while a should-begin answer is awaited)."),
            BackendOption(
                "fast",
                help: """
                    Skip the recordings' idle time: when no contact is down, no engine timer is pending and \
                    every client has caught up, the next event comes at once. Gestures keep their recorded \
                    timing.
                    """),
            BackendOption(
                "await-clients",
                help: """
                    Keep the recordings' timing, but hold the next stroke after an idle gap (up to 5 s) until \
                    every client has caught up and the one the last stroke ended on has committed since: what \
                    that stroke changed (a scroll, a new input region) is what the next press meets.
                    """),
            BackendOption(
                "map-timeout", value: .one("ms"),
                help: "Start when a client maps a window, or after this long without one (1...600000)."),
        ]
    ) { arguments throws(BackendUsageError) in
        var options = ReplayOptions(paths: arguments.values("replay"), fast: arguments.flag("fast"))
        options.awaitsClients = arguments.flag("await-clients")
        options.mapTimeoutMilliseconds = Int32(
            try arguments.integer("map-timeout", in: 1...600_000, fallback: Int(options.mapTimeoutMilliseconds)))
        return .replay(options)
    }
}

/// Plays `--replay` recordings, one file after the other, through the decoder into the
/// compositor's `InputSink` on the event loop's timer, paced by the host core (`ReplayPacer`:
/// every host that replays a recording paces it the same way; its rules are there).
///
/// Timing: each event is re-timed onto CLOCK_MONOTONIC (recording time + offset) and fed when
/// the host core says it is due, so engine timers and client answers share one clock. The
/// recording pauses while a should-begin question (a client's or Look Up's) is open; `--fast`
/// skips idle gaps once the clients caught up; `--await-clients` holds the next stroke until the
/// last one's end is shown. The host core wakes the driver when a wait may end
/// (`replayMayGoOn`).
///
/// Several files: each file's devices get their own numbers (recordings number theirs from 0,
/// so a second file's pen would otherwise be the first file's pen), and the next file starts
/// the pacer's gap after the previous one's last event, also with `--fast`: its gestures never
/// run into the previous file's (contacts the file left down were ended at its end; engine
/// timers and simulated force see an idle gap, as between two real gestures).
///
/// Start rule: input starts when the first toplevel is mapped (so the first contact has a
/// surface to hit), or after `mapTimeout` if no client maps one.
final class ReplayDriver: InputBackend, FiniteInput, ClientPacedInput, TimedInput, WindowMapObserver {
    /// The compositor's input path (set by `attach`, before `start`).
    private weak var sink: InputSink?
    private let options: ReplayOptions
    private let logger: Logger
    /// The recordings, their headers read before the socket opened; their events are read here.
    private var recordings: [Recording]
    private var input: RecordingInput?
    private var batch: [DeviceEvent] = []
    private var index = 0
    private var timer: EventSource?
    private var startTimer: EventSource?
    private(set) var started = false
    private(set) var playedAll = false
    /// Added to the current file's device numbers; the next file starts after them.
    private var deviceBase: UInt32 = 0
    private var nextDeviceBase: UInt32 = 0
    /// The next event is the first of a file after another.
    private var fileStarts = false

    /// What --await-clients holds in an idle gap: the next stroke's start. The gap's other
    /// events (a pen's hover, the moves after the last stroke) keep their recorded timing.
    private static func beginsAStroke(_ event: DeviceEvent) -> Bool {
        switch event {
        case .contactBegan: true
        case .button(let key), .key(let key): key.pressed
        default: false
        }
    }

    /// Fails when a file cannot be opened or is not a recording, before the compositor opens its socket.
    init(options: ReplayOptions, context: BackendContext) throws(CompositorError) {
        do { recordings = try ReplayPreflight.recordings(options.paths) } catch { throw .backend(error) }
        self.options = options
        logger = context.logger
    }

    func attach(to sink: InputSink, loop: EventLoop) {
        self.sink = sink
        let mapTimeoutMilliseconds = options.mapTimeoutMilliseconds
        timer = loop.addTimer { [unowned self] in pump() }
        startTimer = loop.addTimer { [unowned self] in
            guard !started else { return }
            logger.warning("no client mapped a window within \(mapTimeoutMilliseconds) ms: replaying anyway")
            begin()
        }
    }

    var finished: Bool { playedAll }

    /// Arms the fallback start; `windowMapped()` starts earlier (at once if a window is up).
    func start() {
        startTimer?.arm(milliseconds: options.mapTimeoutMilliseconds)
        if sink?.windowMapped == true { windowMapped() }
    }

    func windowMapped() {
        guard !started else { return }
        logger.info("a window is mapped: starting the replay")
        begin()
    }

    func stop() {
        timer?.remove()
        startTimer?.remove()
    }

    /// The host core says a wait may end: deferred to the timer, not run inside its callback.
    func replayMayGoOn() {
        guard started, !playedAll else { return }
        timer?.arm(milliseconds: 1)
    }

    /// The engine's timer is about to run: what is due goes in first, as this timer would have
    /// delivered it had the loop run it on time.
    func deliverDue(by time: Timestamp) {
        guard started, !playedAll, !pumping else { return }
        pump()
    }

    private func begin() {
        started = true
        startTimer?.remove()
        sink?.startReplay(
            ReplayPacer.Options(
                fast: options.fast, awaitsClients: options.awaitsClients,
                longestGap: Int64(options.longestGapMilliseconds) * 1000))
        timer?.arm(milliseconds: 1)
    }

    private func nextEvent() -> DeviceEvent? {
        while true {
            if index < batch.count {
                defer { index += 1 }
                return batch[index]
            }
            batch.removeAll(keepingCapacity: true)
            index = 0
            if input == nil {
                guard !recordings.isEmpty else { return nil }
                let recording = recordings.removeFirst()
                let path = recording.path
                do {
                    let opened = try RecordingInput(recording: recording)
                    input = opened
                    fileStarts = true
                    deviceBase = nextDeviceBase
                    for device in opened.devices {
                        let id = DeviceID(deviceBase &+ device.id.rawValue)
                        nextDeviceBase = max(nextDeviceBase, id.rawValue &+ 1)
                        sink?.deviceAdded(id, name: device.name)
                        logger.info("\(path): \(id) is \(device.name)")
                    }
                    logger.info("replaying \(path)")
                } catch {
                    logger.error("\(path): \(error)")
                    continue
                }
            }
            do {
                if try input?.next(into: &batch) == false {
                    input?.finish(at: lastTime, into: &batch)
                    input = nil
                    if batch.isEmpty { continue }
                }
            } catch {
                logger.error("recording: \(error)")
                input?.finish(at: lastTime, into: &batch)
                input = nil
            }
        }
    }

    /// The recorded time of the last event delivered (a file's remaining contacts end there).
    private var lastTime: Timestamp { Timestamp(microseconds: lastRecorded) }
    private var lastRecorded: Int64 = 0
    private var held: (event: DeviceEvent, startsFile: Bool)?
    private var pumping = false

    private func pump() {
        guard let sink else { return }
        pumping = true
        defer { pumping = false }
        while true {
            let next: (event: DeviceEvent, startsFile: Bool)
            if let held {
                next = held
            } else {
                guard let event = nextEvent() else {
                    finish()
                    return
                }
                next = (event, fileStarts)
                fileStarts = false
            }
            held = nil
            let event = next.event
            let decision = sink.pace(
                ReplayPacer.Event(
                    recorded: event.time.microseconds, beginsStroke: Self.beginsAStroke(event),
                    startsFile: next.startsFile))
            log(sink.paceNote)
            switch decision {
            case .wait(let microseconds):
                held = next
                // Rounded up like every timer: one wakeup at most 1 ms late, rather than one
                // up to 1 ms early and, past the pacer's slack, a second.
                timer?.arm(milliseconds: TimerRounding.milliseconds(afterMicroseconds: microseconds))
                return
            case .deliver(let offset):
                lastRecorded = event.time.microseconds
                sink.handle(event.shifted(by: offset, deviceBase: deviceBase))
            }
        }
    }

    private func log(_ note: ReplayPacer.Note?) {
        switch note {
        case .gapShortened(let recorded, let replayed)?:
            logger.warning("the recording pauses \(Double(recorded) / 1e6) s: replayed as \(Double(replayed) / 1e6) s")
        case .clientsBehind(let caughtUp, let strokeEndShown)?:
            logger.warning(
                """
                a client did not catch up within \(ReplayPacer.catchUpLimit / 1000) ms (frames acknowledged: \
                \(caughtUp), the last stroke's end committed: \(strokeEndShown)): replaying on
                """)
        case nil:
            break
        }
    }

    private func finish() {
        guard !playedAll else { return }
        playedAll = true
        logger.info("replay finished")
        sink?.inputFinished()
    }
}
