import CWaylandServer
import PreviewEngine
import PreviewLog
import SystemLayer
import WaylandServer

/// What a host does for Look Up: it says which window a surface belongs to, draws the
/// highlight and places the panel (a surface of preview-lookup's own Wayland client) above the
/// app. Which press looks up, its phases and when what is shown goes are the host core's (the
/// host feeds `InteractionDriver` its input as usual). Every call comes on the display's thread.
public protocol LookupHost: AnyObject {
    /// The window `surface` is part of (a toplevel, or the surface itself for a host that does
    /// not know its roles), with where `surface` is in it; nil: nothing is looked up there (a
    /// popup, a surface of no window).
    func lookupWindow(of surface: SurfaceID) -> LookupWindow?

    /// Draw the highlight over `extents` (local to `window`), `progress` 0…1 (it grows and
    /// deepens); again with new progress, or for a new word.
    func showHighlight(_ extents: LookupRect, on window: SurfaceID, progress: Double)

    /// The commit began: place the panel (preview-lookup's wl_surface resource; nil: it has
    /// made none yet) beside `extents` (local to `window`; nil: no extents), above every
    /// window, showing a third of it.
    func showPanel(_ panel: OpaquePointer?, beside extents: LookupRect?, on window: SurfaceID)

    /// The panel shows a third of its height plus `progress` of the rest (1: all of it).
    func growPanel(_ panel: OpaquePointer?, progress: Double)

    /// Everything Look Up shows goes (highlight and panel).
    func hideLookup()

    /// What happened to a lookup, for a trace or a log (the host core logs it too).
    func lookupEvent(_ event: LookupEvent)

    /// preview-lookup started as `client` of the display (its surfaces are the panel), or went.
    func lookupProcessChanged(_ client: Client?)

    /// Runs an input the driver starts itself (its timer, preview-lookup's answer or exit), so
    /// a host can hold back its own teardown until the input is done (a host destroyed from
    /// one of its callbacks).
    func run(_ input: () -> Void)
}

extension LookupHost {
    public func lookupEvent(_ event: LookupEvent) {}
    public func lookupProcessChanged(_ client: Client?) {}
    public func run(_ input: () -> Void) { input() }
}

/// A window a lookup may happen on, as the host places it.
public struct LookupWindow: Hashable, Sendable {
    /// The window's surface (a lookup's points are local to it).
    public var window: SurfaceID
    /// Where the surface asked about is in the window (zero for the window itself).
    public var origin: Point
    /// The window's client (preview-lookup's own surfaces are never looked up).
    public var client: Client
    /// The offset of the window geometry in its surface (GTK 4 counts from there).
    public var geometryX: Int32
    public var geometryY: Int32

    public init(
        window: SurfaceID, origin: Point = Point(x: 0, y: 0), client: Client, geometryX: Int32 = 0, geometryY: Int32 = 0
    ) {
        self.window = window
        self.origin = origin
        self.client = client
        self.geometryX = geometryX
        self.geometryY = geometryY
    }
}

/// What happened to a lookup (one press or preview key that looked up).
public enum LookupEvent: Equatable, Sendable {
    /// preview-lookup answered lookup `answer.id` `waited` after the question.
    case answered(LookupChannel.Answer, LookupSession.Outcome, window: SurfaceID, waited: Timestamp.Duration)
    /// The lookup completed: the panel stays until dismissed.
    case completed(id: UInt32)
    /// The lookup shown was cancelled before it completed (lifted, moved, Escape…).
    case cancelled(id: UInt32, reason: CancelReason)
    /// What the lookup showed went (Escape, a press elsewhere or anew, its window gone).
    case dismissed(id: UInt32)
}

/// The user's Look Up settings a host passes on (its command line, its settings file).
public struct LookupConfiguration: Hashable, Sendable {
    /// preview-lookup's path.
    public var executable: String
    /// Look Up is on: preview-lookup runs (or is being restarted).
    public var enabled: Bool
    /// Presses without measured force (a long press) look up too.
    public var longPress: Bool
    /// How long a lookup may take before the press is just the app's.
    public var deadline: Timestamp.Duration

    public static let defaultDeadline = Timestamp.Duration.milliseconds(500)
    /// The deadlines a user may choose (ms): below 100 ms most lookups would miss it (a GTK 4
    /// lookup takes 160–190 ms); above 5 s a panel could show long after the press.
    public static let deadlineMilliseconds: ClosedRange<Int64> = 100...5000

    public init(
        executable: String, enabled: Bool = true, longPress: Bool = false,
        deadline: Timestamp.Duration = defaultDeadline
    ) {
        self.executable = executable
        self.enabled = enabled
        self.longPress = longPress
        self.deadline = deadline
    }
}

/// Look Up on one host's display, owned by the host core (`InteractionDriver`), shared by every
/// host: the pure `LookupSession`, its timer, preview-lookup (started as a private client of
/// the display, restarted with back-off, spoken to over a private channel) and its panel
/// surface. The driver feeds it a copy of the host's input (nothing is withheld from the app);
/// the host draws what it says through `LookupHost`.
final class LookupDriver {
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
    /// Nil once stopped (explicit invalidation: the host outlives nothing of ours).
    private var host: LookupHost?
    private let clock: MonotonicClock
    private let logger: Log
    private(set) var settings: LookupConfiguration
    /// Each followed contact's surface origin in its window (its positions go in local to it).
    private var origins: [ContactKey: Point] = [:]
    /// Every resource preview-lookup's client creates: its newest wl_surface is the panel.
    private var created: Listener?
    private(set) var panel: OpaquePointer?
    private var panelGone: Listener?
    /// A question went to preview-lookup at this time (a replay stops its clock).
    var onAsked: ((Timestamp) -> Void)?
    /// An input of its own (an answer, the deadline, the process gone) was applied.
    var onSettled: (() -> Void)?

    init(
        display: Display, settings: LookupConfiguration, configuration: EngineConfiguration, host: LookupHost,
        logger: Log
    ) {
        session = LookupSession(
            configuration: configuration, deadline: settings.deadline, longPress: settings.longPress)
        process = LookupProcess(display: display, executable: settings.executable, logger: logger)
        self.host = host
        self.settings = settings
        self.logger = logger
        clock = display.clock
        effects.reserveCapacity(8)
        origins.reserveCapacity(InteractionEngine.maximumContacts)
        process.onMessage = { message in self.entered { self.received(message) } }
        process.onStart = { client in self.processStarted(client) }
        process.onExit = {
            self.entered {
                self.processStarted(nil)
                self.session.processGone(into: &self.effects)
                self.perform()
            }
        }
        timer = display.eventLoop.addTimer {
            self.armedDue = nil
            guard let wanted = self.wantedDue else { return }
            guard wanted <= self.now() else { return self.arm(wanted) }
            self.entered {
                self.session.timerFired(at: self.now(), into: &self.effects)
                self.perform()
            }
        }
    }

    /// Starts preview-lookup if Look Up is on.
    func start() { if settings.enabled { process.start() } }

    /// Ends preview-lookup and everything shown; nothing of the host is called afterwards.
    func stop() {
        session.endAll(at: now(), into: &effects)
        perform()
        timer?.remove()
        timer = nil
        process.onMessage = nil
        process.onStart = nil
        process.onExit = nil
        process.stop()
        forgetPanel()
        created?.remove()
        created = nil
        host = nil
        onAsked = nil
        onSettled = nil
    }

    /// The user's settings changed: Look Up on (starting preview-lookup) or off (ending it and
    /// what is shown); new presses use the rest. The executable is fixed for this driver.
    func configure(_ settings: LookupConfiguration, engine configuration: EngineConfiguration) {
        session.configure(configuration, longPress: settings.longPress, deadline: settings.deadline)
        let wasEnabled = self.settings.enabled
        self.settings.enabled = settings.enabled
        self.settings.longPress = settings.longPress
        self.settings.deadline = settings.deadline
        guard settings.enabled != wasEnabled else { return }
        if settings.enabled {
            process.start()
        } else {
            session.endAll(at: now(), into: &effects)
            perform()
            process.stop()
        }
    }

    /// The engine's settings changed (force, long press): new presses use them.
    func configure(engine configuration: EngineConfiguration) {
        session.configure(configuration, longPress: settings.longPress, deadline: settings.deadline)
    }

    /// preview-lookup's Wayland client while it runs (its surfaces are the panel, never looked up).
    var processClient: Client? { process.client }
    var processID: Int32? { process.pid }
    var isRunning: Bool { process.isRunning }
    var available: Bool { settings.enabled && process.isRunning }
    /// The lookup on screen (highlight or panel), if any.
    var shownLookup: UInt32? { session.shownLookup }
    /// Lookups whose question to preview-lookup is open.
    var askingCount: Int { session.askingCount }
    /// Nothing followed and no timer wanted: no press of Look Up's in progress.
    var idle: Bool { session.trackedContactCount == 0 && wantedDue == nil }

    func now() -> Timestamp { Timestamp(microseconds: clock.microseconds()) }

    /// The window of `surface`, as the host places it.
    func window(of surface: SurfaceID) -> LookupWindow? { host?.lookupWindow(of: surface) }

    /// Runs one of its own inputs as the host's, then says it was applied.
    private func entered(_ input: () -> Void) {
        guard let host else { return }
        host.run(input)
        onSettled?()
    }

    // MARK: input (a copy of what the app gets)

    /// A contact went down on `target`; `origin`: where the surface it went down on is in the
    /// window (its later positions are local to that surface).
    func contactBegan(_ sample: ForceSample, hasForce: Bool, on target: LookupPressTarget, origin: Point) {
        session.contactBegan(sample, hasForce: hasForce, on: target, available: available, into: &effects)
        if session.follows(sample.contact) { origins[sample.contact] = origin }
        perform()
    }

    /// `sample.location` local to the surface the contact went down on.
    func contactMoved(_ sample: ForceSample) {
        guard let origin = origins[sample.contact] else { return }
        // A contact that can no longer look up: the rest of its stroke costs one miss.
        guard session.follows(sample.contact) else {
            origins[sample.contact] = nil
            return
        }
        var local = sample
        local.location = Point(x: sample.location.x + origin.x, y: sample.location.y + origin.y)
        session.contactMoved(local, into: &effects)
        perform()
    }

    func contactEnded(_ key: ContactKey, at time: Timestamp, reason: CancelReason) {
        guard origins.removeValue(forKey: key) != nil, session.follows(key) else { return }
        session.contactEnded(key, at: time, reason: reason, into: &effects)
        perform()
    }

    /// The contacts of a device that went away.
    func deviceRemoved(_ device: DeviceID, at time: Timestamp) {
        for key in origins.keys where key.device == device { contactEnded(key, at: time, reason: .deviceRemoved) }
    }

    /// The user's preview key went down with keyboard focus on `target` (see
    /// `LookupSession.keyPressed`); `key` names the seat, the keyboard and the key.
    func keyPressed(_ key: ContactKey, on target: LookupPressTarget, at time: Timestamp) {
        session.keyPressed(key, on: target, available: available, at: time, into: &effects)
        perform()
    }

    func keyReleased(_ key: ContactKey, at time: Timestamp) {
        guard session.follows(key) else { return }
        session.keyReleased(key, at: time, into: &effects)
        perform()
    }

    /// Escape on `seat` (the app still gets it).
    func escapePressed(seat: UInt32, at time: Timestamp) {
        session.escapePressed(seat: seat, at: time, into: &effects)
        perform()
    }

    func surfaceDestroyed(_ surface: SurfaceID, at time: Timestamp) {
        session.surfaceDestroyed(surface, at: time, into: &effects)
        perform()
    }

    // MARK: preview-lookup and its panel

    private func processStarted(_ client: Client?) {
        forgetPanel()
        created?.remove()
        created = nil
        host?.lookupProcessChanged(client)
        guard let client else { return }
        // preview-lookup makes one wl_surface: its panel (the newest, should it make another).
        let listener = Listener { data in
            guard let data else { return }
            let resource = OpaquePointer(data)
            guard String(cString: wl_resource_get_class(resource)) == "wl_surface" else { return }
            self.forgetPanel()
            self.panel = resource
            let gone = Listener { _ in
                self.forgetPanel()
                // The host lost the panel: what is shown goes.
                guard self.session.shownLookup != nil else { return }
                self.entered {
                    self.session.dismiss(into: &self.effects)
                    self.perform()
                }
            }
            gone.listen(toDestroyOfResource: resource)
            self.panelGone = gone
        }
        listener.listen(toResourcesCreatedBy: client)
        created = listener
    }

    private func forgetPanel() {
        panelGone?.remove()
        panelGone = nil
        panel = nil
    }

    private func received(_ message: LookupChannel.Message) {
        switch message {
        case .answer(let answer): session.answered(answer, at: now(), into: &effects)
        case .dismiss(let id): session.processDismissed(id, into: &effects)
        }
        perform()
    }

    // MARK: effects

    /// Performs the effects of the last input. A host callback that calls in again starts a
    /// batch of its own; this one goes on over its own copy.
    private func perform() {
        if let fault = session.takeFault() { logger.error("look up: \(fault)") }
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
        guard let host else { return nil }
        switch effect {
        case .scheduleTimer(let due):
            // nil: no timer needed (one still set fires once and finds nothing due).
            wantedDue = due
            if let due, armedDue.map({ due < $0 }) ?? true { arm(due) }
        case .ask(let id, let surface, let point, let caret):
            logger.debug("look up #\(id): asked at \(point.x), \(point.y)\(caret ? " or the caret" : "")")
            guard let window = host.lookupWindow(of: surface) else { return id }
            let pid = window.client.pid
            guard pid > 0 else { return id }
            let x = Self.pixel(point.x)
            let y = Self.pixel(point.y)
            // The session's deadline (the user's, within the settings' range) in whole ms.
            let deadline = UInt32(clamping: session.deadline.microseconds / 1000)
            let (gx, gy) = (window.geometryX, window.geometryY)
            let request: LookupChannel.Request =
                caret
                ? .lookUpCaret(id: id, pid: pid, x: x, y: y, geometryX: gx, geometryY: gy, deadline: deadline)
                : .lookUp(id: id, pid: pid, x: x, y: y, geometryX: gx, geometryY: gy, deadline: deadline)
            guard process.send(request) else { return id }
            onAsked?(now())
        case .answered(let answer, let outcome, let surface, let waited):
            logger.info(
                "look up #\(answer.id): \(outcome.rawValue) \(answer.word.isEmpty ? "-" : answer.word) \(answer.link) [\(answer.toolkit)] \(answer.definition) (\(waited.microseconds / 1000) ms)"
            )
            host.lookupEvent(.answered(answer, outcome, window: surface, waited: waited))
        case .highlight(let extents, let surface, let progress):
            host.showHighlight(extents, on: surface, progress: progress)
        case .showPanel(let extents, let surface):
            host.showPanel(panel, beside: extents, on: surface)
        case .growPanel(let progress):
            host.growPanel(panel, progress: progress)
        case .completed(let id):
            host.lookupEvent(.completed(id: id))
        case .cancelled(let id, let reason):
            host.lookupEvent(.cancelled(id: id, reason: reason))
        case .dismiss(let id):
            host.hideLookup()
            host.lookupEvent(.dismissed(id: id))
            process.send(.hide(id: id))
        }
        return nil
    }
}
