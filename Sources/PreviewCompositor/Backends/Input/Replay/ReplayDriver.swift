import InputEvents
import LibinputRecording
import Logging
import PreviewEngine
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
/// compositor's `InputSink` on the event loop's timer.
///
/// Timing: each event is re-timed onto CLOCK_MONOTONIC (recording time + offset) and fed when
/// that time comes, so engine timers and client answers share one clock. `--fast` skips the
/// idle gaps: whenever no contact is down, no engine timer is pending and the clients have
/// caught up (every frame acknowledged, no phase screenshot waiting for a client's picture),
/// the next event is due at once; inside a gesture the recording's own timing is kept, so long
/// presses and force ramps behave exactly as recorded. In both modes the recording pauses while
/// a should-begin answer is awaited (`pausedForAnswer`). A client still busy with the previous
/// gesture therefore gets the next press when it can answer it, as a user's next press would
/// find it; the compositor wakes the driver when clients catch up (`clientsMayHaveCaughtUp`),
/// and after `catchUpLimit` a client that never does is not waited for any more.
///
/// Several files: each file's devices get their own numbers (recordings number theirs from 0,
/// so a second file's pen would otherwise be the first file's pen), and the next file starts
/// `gapBetweenFiles` after the previous one's last event, also with `--fast`: its gestures never
/// run into the previous file's (contacts the file left down were ended at its end; engine
/// timers and simulated force see an idle gap, as between two real gestures).
///
/// Start rule: input starts when the first toplevel is mapped (so the first contact has a
/// surface to hit), or after `mapTimeout` if no client maps one.
final class ReplayDriver: InputBackend, FiniteInput, ClientPacedInput, TimedInput, WindowMapObserver {
    private unowned var sink: InputSink!
    private var loop: EventLoop!
    private let options: ReplayOptions
    private let logger: Logger
    private let clock: MonotonicClock
    /// The recordings, their headers read before the socket opened; their events are read here.
    private var recordings: [Recording]
    private var input: RecordingInput?
    private var batch: [DeviceEvent] = []
    private var index = 0
    private var offset: Int64?
    private var timer: EventSource?
    private var startTimer: EventSource?
    private(set) var started = false
    private(set) var playedAll = false
    /// Recording time between two files (microseconds).
    static let gapBetweenFiles: Int64 = 500_000
    /// Added to the current file's device numbers; the next file starts after them.
    private var deviceBase: UInt32 = 0
    private var nextDeviceBase: UInt32 = 0
    /// When the last event handled was due (monotonic µs), and the earliest the next file may start.
    private var lastDue: Int64?
    private var nextFileNotBefore: Int64?
    /// --fast: since when (monotonic µs) an idle gap waits for clients to catch up.
    private var waitingForClientsSince: Int64?
    /// The longest --fast waits for clients in one idle gap (µs): a client that stopped reading
    /// must not hold the replay longer than this.
    static let catchUpLimit: Int64 = 5_000_000
    /// --await-clients: this idle gap has waited for the clients already (once per gap).
    private var gapAwaited = false

    /// What --await-clients holds in an idle gap: the next stroke's start. The gap's other
    /// events (a pen's hover, the moves after the last stroke) keep their recorded timing.
    private static func beginsAStroke(_ event: DeviceEvent) -> Bool {
        switch event {
        case .contactBegan: true
        case .button(let key), .key(let key): key.pressed
        default: false
        }
    }
    /// Since when (monotonic µs) the replay has paused for a should-begin answer, and whether
    /// it gave up on the current one after `clientPatience`.
    private var answerWaitSince: Int64?
    private var gaveUpOnAnswer = false

    /// Fails when a file cannot be opened or is not a recording, before the compositor opens its socket.
    init(options: ReplayOptions, context: BackendContext) throws(CompositorError) {
        do { recordings = try ReplayPreflight.recordings(options.paths) } catch { throw .backend(error) }
        self.options = options
        logger = context.logger
        clock = context.clock
    }

    func attach(to sink: InputSink, loop: EventLoop) {
        self.sink = sink
        self.loop = loop
    }

    var finished: Bool { playedAll }

    /// Arms the fallback start; `windowMapped()` starts earlier (at once if a window is up).
    func start() {
        let mapTimeoutMilliseconds = options.mapTimeoutMilliseconds
        timer = loop.addTimer { [unowned self] in pump() }
        startTimer = loop.addTimer { [unowned self] in
            guard !started else { return }
            logger.warning("no client mapped a window within \(mapTimeoutMilliseconds) ms: replaying anyway")
            begin()
        }
        startTimer?.arm(milliseconds: mapTimeoutMilliseconds)
        if sink.pacing.windowMapped { windowMapped() }
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

    /// Clients acknowledged frames, a phase screenshot was taken or a should-begin question was
    /// settled: an idle gap or a pause that waits for them may end now. Deferred to the timer, not run inside the caller's callback.
    func clientsMayHaveCaughtUp() {
        let pacing = sink.pacing
        let gapMayEnd =
            waitingForClientsSince != nil && pacing.clientsCaughtUp
            && (!options.awaitsClients || pacing.strokeEndShown)
        let answered = answerWaitSince != nil && !pacing.awaitsAnswer
        guard gapMayEnd || answered else { return }
        // The recording's clock resumes at the answer, not at the timer's turn below.
        if answered { _ = pausedForAnswer(now: clock.microseconds(), pacing: pacing) }
        timer?.arm(milliseconds: 1)
    }

    /// The pause for an answer runs from the question, not from when this driver next runs:
    /// a question asked by an engine timer (a held key) or answered between two of the
    /// recording's events would otherwise not stop its clock, and a slow client's answer would
    /// shorten the rest of the gesture.
    func questionAsked(at time: Timestamp) {
        guard started, !gaveUpOnAnswer, offset != nil else { return }
        answerWaitSince = min(answerWaitSince ?? time.microseconds, time.microseconds)
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
                    input = try RecordingInput(recording: recording)
                    offset = nil
                    nextFileNotBefore = lastDue.map { $0 + Self.gapBetweenFiles }
                    deviceBase = nextDeviceBase
                    for device in input!.devices {
                        let id = DeviceID(deviceBase &+ device.id.rawValue)
                        nextDeviceBase = max(nextDeviceBase, id.rawValue &+ 1)
                        sink.deviceAdded(id, name: device.name)
                        logger.info("\(path): \(id) is \(device.name)")
                    }
                    logger.info("replaying \(path)")
                } catch {
                    logger.error("\(path): \(error)")
                    continue
                }
            }
            do {
                if try input!.next(into: &batch) == false {
                    input!.finish(at: lastTime, into: &batch)
                    input = nil
                    if batch.isEmpty { continue }
                }
            } catch {
                logger.error("recording: \(error)")
                input!.finish(at: lastTime, into: &batch)
                input = nil
            }
        }
    }

    /// While a should-begin question is open, the recording waits, as a user who holds
    /// still until the app answers; afterwards its clock resumes where it stopped, so the rest
    /// of the gesture keeps its recorded timing. What the client receives is then the
    /// recording's doing, not the machine's load. A client that never answers is cancelled by
    /// the engine's timeout, which ends the pause; `clientPatience` bounds it in any case (as
    /// long as the engine waits, so a machine that stalls a slow client does not turn its
    /// answer into a different gesture).
    private func pausedForAnswer(now: Int64, pacing: InputPacing) -> Bool {
        let awaits = pacing.awaitsAnswer
        if !awaits { gaveUpOnAnswer = false }
        if awaits && !gaveUpOnAnswer {
            let since = answerWaitSince ?? now
            let limit = pacing.clientPatience
            if now - since < limit {
                answerWaitSince = since
                timer?.arm(milliseconds: TimerRounding.milliseconds(afterMicroseconds: since + limit - now))
                return true
            }
            gaveUpOnAnswer = true
        }
        if let since = answerWaitSince {
            offset = offset.map { $0 + (now - since) }
            answerWaitSince = nil
        }
        return false
    }

    private var lastTime = Timestamp(microseconds: 0)
    private var held: DeviceEvent?

    private var pumping = false

    private func pump() {
        pumping = true
        defer { pumping = false }
        while true {
            let fresh = held == nil
            guard let event = held ?? nextEvent() else {
                finish()
                return
            }
            held = nil
            let now = clock.microseconds()
            let pacing = sink.pacing
            let recorded = event.time.microseconds
            if offset == nil {
                offset = now - recorded
            } else if fresh {
                shortenLongGap(before: recorded)
            }
            if pausedForAnswer(now: now, pacing: pacing) {
                held = event
                return
            }
            if options.fast && pacing.idle {
                let since = waitingForClientsSince ?? now
                let recordedDue = recorded + offset!
                if pacing.clientsCaughtUp || now - since >= Self.catchUpLimit {
                    // Skip idle time: this event is due now.
                    offset = min(offset!, now - recorded)
                    waitingForClientsSince = nil
                } else if recordedDue > now + 500 {
                    // Idle, but a client is behind: wait for it (woken by clientsMayHaveCaughtUp),
                    // never longer than the recording's own gap (--fast is never slower than
                    // real time) or the limit.
                    waitingForClientsSince = since
                    held = event
                    let wait = min(recordedDue - now, since + Self.catchUpLimit - now)
                    timer?.arm(milliseconds: TimerRounding.milliseconds(afterMicroseconds: wait))
                    return
                } else {
                    waitingForClientsSince = nil
                }
            } else if options.awaitsClients && pacing.idle && !gapAwaited && Self.beginsAStroke(event)
                && recorded + offset! <= now + 500
            {
                let since = waitingForClientsSince ?? now
                if !(pacing.clientsCaughtUp && pacing.strokeEndShown) && now - since < Self.catchUpLimit {
                    // Due, but a client has not shown the last stroke's end yet: the gap lasts
                    // until it has (woken by clientsMayHaveCaughtUp), and the recording's clock
                    // moves on from then.
                    waitingForClientsSince = since
                    held = event
                    timer?.arm(
                        milliseconds: TimerRounding.milliseconds(afterMicroseconds: since + Self.catchUpLimit - now))
                    return
                }
                if now - since >= Self.catchUpLimit {
                    logger.warning(
                        """
                        a client did not catch up within \(Self.catchUpLimit / 1000) ms (frames acknowledged: \
                        \(pacing.clientsCaughtUp), the last stroke's end committed: \(pacing.strokeEndShown)): replaying on
                        """)
                }
                offset = max(offset!, now - recorded)
                waitingForClientsSince = nil
                gapAwaited = true
            } else {
                waitingForClientsSince = nil
                if !pacing.idle { gapAwaited = false }
            }
            if let floor = nextFileNotBefore {
                // A new file: not before the gap after the previous file has passed.
                offset = max(offset!, floor - recorded)
            }
            let due = recorded + offset!
            if due > now + 500 {
                held = event
                // Rounded up like every timer: one wakeup at most 1 ms late, rather than one
                // up to 1 ms early and, past the 0.5 ms slack, a second.
                timer?.arm(milliseconds: TimerRounding.milliseconds(afterMicroseconds: due - now))
                return
            }
            lastTime = event.time
            lastDue = due
            nextFileNotBefore = nil
            sink.handle(adjusted(event, by: offset!))
        }
    }

    /// A recording may pause for any time (a 10^6 s gap would hold --exit-when-done for ever):
    /// a gap longer than the configured longest is shortened to it, and said so.
    private func shortenLongGap(before recorded: Int64) {
        let longest = Int64(options.longestGapMilliseconds) * 1000
        let gap = recorded - lastTime.microseconds
        guard gap > longest, lastDue != nil, nextFileNotBefore == nil, let current = offset else { return }
        logger.warning(
            "the recording pauses \(Double(gap) / 1e6) s: replayed as \(Double(longest) / 1e6) s")
        offset = current - (gap - longest)
    }

    private func finish() {
        guard !playedAll else { return }
        playedAll = true
        logger.info("replay finished")
        sink.inputFinished()
    }

    /// The event on the monotonic clock, with the file's devices renumbered.
    private func adjusted(_ event: DeviceEvent, by offset: Int64) -> DeviceEvent {
        event.shifted(by: offset, deviceBase: deviceBase)
    }
}
