import Logging
import PreviewEngine
import SystemLayer
import WaylandServer

/// What a host does for Look Up: it draws the highlight and places the panel (a surface of
/// preview-lookup's own Wayland client) above the app, and says where a window's client is.
/// Every call comes on the display's thread.
public protocol LookupHost: AnyObject {
    /// The process id of the window's client and the offset of its window geometry in the
    /// surface (GTK 4 counts from there); nil: nothing is looked up there.
    func lookupTarget(_ surface: SurfaceID) -> LookupTargetInfo?

    /// Draw the highlight over `extents` (local to `surface`), `progress` 0…1 (it grows and
    /// deepens); again with new progress, or for a new word.
    func showHighlight(_ extents: LookupRect, on surface: SurfaceID, progress: Double)

    /// The commit began: place preview-lookup's panel surface beside `extents` (local to
    /// `surface`; nil: no extents), above every window, showing a third of it.
    func showPanel(beside extents: LookupRect?, on surface: SurfaceID)

    /// The panel shows a third of its height plus `progress` of the rest (1: all of it).
    func growPanel(progress: Double)

    /// Everything Look Up shows goes (highlight and panel).
    func hideLookup()

    /// preview-lookup answered (for a trace or a log).
    func lookupAnswered(
        _ answer: LookupChannel.Answer, outcome: LookupSession.Outcome, surface: SurfaceID,
        waited: Timestamp.Duration)

    /// The lookup completed: the panel stays until dismissed.
    func lookupCompleted(_ id: UInt32)

    /// preview-lookup started as `client` of the display (its surfaces are the panel), or went.
    func lookupProcessChanged(_ client: Client?)

    /// Runs an input the driver starts itself (its timer, preview-lookup's answer or exit), so
    /// a host can hold back its own teardown until the input is done (a host destroyed from
    /// one of its callbacks).
    func run(_ input: () -> Void)
}

extension LookupHost {
    public func lookupAnswered(
        _ answer: LookupChannel.Answer, outcome: LookupSession.Outcome, surface: SurfaceID,
        waited: Timestamp.Duration
    ) {}
    public func lookupCompleted(_ id: UInt32) {}
    public func lookupProcessChanged(_ client: Client?) {}
    public func run(_ input: () -> Void) { input() }
}

/// Where a lookup's question goes: the window's client process and its geometry's offset.
public struct LookupTargetInfo: Hashable, Sendable {
    public var pid: Int32
    public var geometryX: Int32
    public var geometryY: Int32

    public init(pid: Int32, geometryX: Int32 = 0, geometryY: Int32 = 0) {
        self.pid = pid
        self.geometryX = geometryX
        self.geometryY = geometryY
    }
}

/// Look Up on one host's display, shared by every host: the pure `LookupSession`, its timer,
/// and preview-lookup (started as a private client of the display, restarted with back-off,
/// spoken to over a private channel). Hosts feed it a copy of their input (nothing is
/// withheld from the app) and draw what it says through `LookupHost`.
public final class LookupDriver {
    private var session: LookupSession
    private let process: LookupProcess
    private var timer: EventSource?
    /// When the timer is set to fire (nil: not set) and when the session wants it: a later
    /// request (the force filter's settling moves on with every sample) keeps the earlier
    /// timer, which re-arms itself when it fires, so the per-event path makes no system call.
    private var armedDue: Timestamp?
    private var wantedDue: Timestamp?
    /// Reused for every input: the per-event path allocates nothing.
    private var effects: [LookupSession.Effect] = []
    private unowned let host: LookupHost
    private let clock: MonotonicClock
    private let logger: Logger
    /// Look Up is on (the process runs, or is being restarted).
    public private(set) var enabled: Bool

    /// `executable`: preview-lookup; `deadline`: how long a lookup may take before the press is
    /// just the app's; `longPress`: presses without measured force look up too.
    public init(
        display: Display, executable: String, configuration: EngineConfiguration, deadline: Timestamp.Duration,
        longPress: Bool, enabled: Bool, host: LookupHost, logger: Logger
    ) {
        session = LookupSession(configuration: configuration, deadline: deadline, longPress: longPress)
        process = LookupProcess(display: display, executable: executable, logger: logger)
        self.host = host
        self.enabled = enabled
        self.logger = logger
        clock = display.clock
        effects.reserveCapacity(8)
        process.onMessage = { [unowned self] message in self.host.run { received(message) } }
        process.onStart = { [unowned self] in self.host.lookupProcessChanged($0) }
        process.onExit = { [unowned self] in
            self.host.run {
                self.host.lookupProcessChanged(nil)
                session.processGone(into: &effects)
                perform()
            }
        }
        timer = display.eventLoop.addTimer { [unowned self] in
            armedDue = nil
            guard let wanted = wantedDue else { return }
            guard wanted <= now() else { return arm(wanted) }
            self.host.run {
                session.timerFired(at: now(), into: &effects)
                perform()
            }
        }
    }

    /// Starts preview-lookup if Look Up is on.
    public func start() { if enabled { process.start() } }

    /// Ends preview-lookup and everything shown (the host is going away).
    public func stop() {
        session.endAll(at: now(), into: &effects)
        perform()
        timer?.remove()
        timer = nil
        process.stop()
    }

    /// Turns Look Up on (starting preview-lookup) or off (ending it and what is shown).
    public func setEnabled(_ enabled: Bool) {
        guard enabled != self.enabled else { return }
        self.enabled = enabled
        if enabled {
            process.start()
        } else {
            session.endAll(at: now(), into: &effects)
            perform()
            process.stop()
        }
    }

    /// The user's settings changed: new presses use them.
    public func configure(_ configuration: EngineConfiguration, longPress: Bool) {
        session.configure(configuration, longPress: longPress)
    }

    public var longPress: Bool { session.longPress }
    /// preview-lookup's Wayland client while it runs (its surfaces are the panel, never looked up).
    public var processClient: Client? { process.client }
    public var processID: Int32? { process.pid }
    public var isRunning: Bool { process.isRunning }
    /// The lookup on screen (highlight or panel), if any.
    public var shownLookup: UInt32? { session.shownLookup }
    /// Questions asked of preview-lookup and not answered yet.
    public var awaitingAnswerCount: Int { session.awaitingAnswerCount }

    public func now() -> Timestamp { Timestamp(microseconds: clock.microseconds()) }

    // MARK: input (a copy of what the app gets)

    /// A contact went down on `target`; `sample.location` is ignored (the target's point counts).
    public func contactBegan(_ sample: ForceSample, hasForce: Bool, on target: LookupPressTarget) {
        session.contactBegan(
            sample, hasForce: hasForce, on: target, available: enabled && process.isRunning, into: &effects)
        perform()
    }

    /// `sample.location` local to the window the contact began on.
    public func contactMoved(_ sample: ForceSample) {
        guard session.follows(sample.contact) else { return }
        session.contactMoved(sample, into: &effects)
        perform()
    }

    public func contactEnded(_ key: ContactKey, at time: Timestamp, reason: CancelReason) {
        guard session.follows(key) else { return }
        session.contactEnded(key, at: time, reason: reason, into: &effects)
        perform()
    }

    /// The user's preview key went down with keyboard focus on `target` (see
    /// `LookupSession.keyPressed`); `key` names the seat, the keyboard and the key.
    public func keyPressed(_ key: ContactKey, on target: LookupPressTarget, at time: Timestamp) {
        session.keyPressed(key, on: target, available: enabled && process.isRunning, at: time, into: &effects)
        perform()
    }

    public func keyReleased(_ key: ContactKey, at time: Timestamp) {
        guard session.follows(key) else { return }
        session.keyReleased(key, at: time, into: &effects)
        perform()
    }

    /// Whether a lookup follows `contact` (a host converts its positions only then).
    public func follows(_ contact: ContactKey) -> Bool { session.follows(contact) }

    /// Escape on `seat` (the app still gets it).
    public func escapePressed(seat: UInt32, at time: Timestamp) {
        session.escapePressed(seat: seat, at: time, into: &effects)
        perform()
    }

    /// What is shown goes (the host lost the panel's surface).
    public func dismiss() {
        session.dismiss(into: &effects)
        perform()
    }

    public func surfaceDestroyed(_ surface: SurfaceID, at time: Timestamp) {
        session.surfaceDestroyed(surface, at: time, into: &effects)
        perform()
    }

    // MARK: effects

    private func received(_ message: LookupChannel.Message) {
        switch message {
        case .answer(let answer): session.answered(answer, at: now(), into: &effects)
        case .dismiss(let id): session.processDismissed(id, into: &effects)
        }
        perform()
    }

    /// Performs the effects of the last input. A host callback that calls in again starts a
    /// batch of its own; this one goes on over its own copy.
    private func perform() {
        var unsent: [UInt32] = []
        for effect in effects {
            if let id = perform(effect) { unsent.append(id) }
        }
        for id in unsent {
            session.askFailed(id, at: now(), into: &effects)
            perform()
        }
    }

    private func arm(_ due: Timestamp) {
        armedDue = due
        timer?.arm(milliseconds: TimerRounding.milliseconds(afterMicroseconds: max(0, (due - now()).microseconds)))
    }

    /// A coordinate as the channel carries it: whole pixels, any finite host value clamped
    /// (never a trap in the host's process).
    static func pixel(_ value: Double) -> Int32 {
        guard value.isFinite else { return 0 }
        return Int32(max(-1_048_576, min(1_048_576, value)).rounded(.down))
    }

    /// Returns the id of a question that could not be sent.
    private func perform(_ effect: LookupSession.Effect) -> UInt32? {
        switch effect {
        case .scheduleTimer(let due):
            // nil: no timer needed (one still set fires once and finds nothing due).
            wantedDue = due
            if let due, armedDue.map({ due < $0 }) ?? true { arm(due) }
        case .ask(let id, let surface, let point, let caret):
            logger.debug("look up #\(id): asked at \(point.x), \(point.y)\(caret ? " or the caret" : "")")
            guard let target = host.lookupTarget(surface) else { return id }
            let x = Self.pixel(point.x)
            let y = Self.pixel(point.y)
            let request: LookupChannel.Request =
                caret
                ? .lookUpCaret(
                    id: id, pid: target.pid, x: x, y: y, geometryX: target.geometryX, geometryY: target.geometryY)
                : .lookUp(id: id, pid: target.pid, x: x, y: y, geometryX: target.geometryX, geometryY: target.geometryY)
            guard process.send(request) else { return id }
        case .answered(let answer, let outcome, let surface, let waited):
            logger.info(
                "look up #\(answer.id): \(outcome.rawValue) \(answer.word.isEmpty ? "-" : answer.word) \(answer.link) [\(answer.toolkit)] \(answer.definition) (\(waited.microseconds / 1000) ms)"
            )
            host.lookupAnswered(answer, outcome: outcome, surface: surface, waited: waited)
        case .highlight(let extents, let surface, let progress):
            host.showHighlight(extents, on: surface, progress: progress)
        case .showPanel(let extents, let surface):
            host.showPanel(beside: extents, on: surface)
        case .growPanel(let progress):
            host.growPanel(progress: progress)
        case .completed(let id):
            host.lookupCompleted(id)
        case .dismiss(let id):
            host.hideLookup()
            process.send(.hide(id: id))
        }
        return nil
    }
}
