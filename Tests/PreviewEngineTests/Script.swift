import PreviewEngine

/// Drives an engine the way a host does (performs timers, optionally answers should-begin)
/// and records what a client would see, so tests read like scripts:
/// press, expect preview..., lift, expect cancel, expect nothing more.
struct Script {
    /// What a client sees, without the fields a test rarely cares about.
    enum Seen: Equatable, CustomStringConvertible {
        case ask(InteractionID)
        case preview(Double, ended: Bool)
        case commit(Double, ended: Bool)
        case cancel(CancelReason)
        /// An accelerator's stage level.
        case stage(UInt8)

        var description: String {
            switch self {
            case .ask(let id): "ask(\(id))"
            case .preview(let progress, let ended): "preview(\(progress)\(ended ? ", ended" : ""))"
            case .commit(let progress, let ended): "commit(\(progress)\(ended ? ", ended" : ""))"
            case .cancel(let reason): "cancel(\(reason))"
            case .stage(let level): "stage(\(level))"
            }
        }
    }

    /// How the pretend client answers should-begin.
    enum Client { case accepts, declines, silent }

    var engine: InteractionEngine
    var client: Client
    var now = Timestamp(microseconds: 0)
    /// What the last `.scheduleTimer` asked for.
    private(set) var timer: Timestamp?
    /// Every action except timers, in order, since the script began.
    private(set) var all: [Action] = []
    /// Every transition the engine logged.
    private(set) var transitions: [Transition] = []
    private var unread = 0
    private(set) var lastAsked: InteractionID?
    /// Every interaction asked about, in order.
    private(set) var asked: [InteractionID] = []

    init(_ configuration: EngineConfiguration = EngineConfiguration(), client: Client = .accepts) {
        engine = InteractionEngine(configuration: configuration)
        self.client = client
    }

    static func finger(_ number: Int32 = 0, device: UInt32 = 1) -> ContactKey {
        ContactKey(device: DeviceID(device), contact: number)
    }

    // MARK: Inputs (times in milliseconds)

    mutating func press(
        _ force: Double, at ms: Int64, finger: ContactKey = finger(), surface: SurfaceID? = SurfaceID(1),
        at location: Point = .zero, source: InputSource = .touchpad, hasForce: Bool = true,
        behaviour: PressureBehaviour = .deepClick
    ) {
        advance(to: ms)
        let sample = ForceSample(time: now, force: force, location: location, source: source, contact: finger)
        perform(engine.contactBegan(sample, surface: surface, hasForce: hasForce, behaviour: behaviour))
    }

    /// The keyboard's preview key (a contact of device 9, key code 127: KEY_COMPOSE, the Menu key).
    static let menuKey = ContactKey(device: DeviceID(9), contact: 127)

    mutating func keyDown(
        at ms: Int64, key: ContactKey = menuKey, at point: Point = Point(x: 40, y: 30),
        surface: SurfaceID? = SurfaceID(1), behaviour: PressureBehaviour = .deepClick
    ) {
        advance(to: ms)
        perform(engine.keyPressed(key, at: point, surface: surface, behaviour: behaviour, time: now))
    }

    mutating func keyUp(at ms: Int64, key: ContactKey = menuKey) {
        advance(to: ms)
        perform(engine.keyReleased(key, at: now))
    }

    mutating func escape(at ms: Int64, seat: UInt32 = 0) {
        advance(to: ms)
        perform(engine.escapePressed(seat: seat, at: now))
    }

    mutating func force(
        _ force: Double, at ms: Int64, finger: ContactKey = finger(), at location: Point = .zero,
        source: InputSource = .touchpad
    ) {
        advance(to: ms)
        let sample = ForceSample(time: now, force: force, location: location, source: source, contact: finger)
        perform(engine.forceChanged(sample))
    }

    /// Moves a force-less contact (force 0).
    mutating func move(to location: Point, at ms: Int64, finger: ContactKey = finger()) {
        force(0, at: ms, finger: finger, at: location, source: .pointer)
    }

    mutating func lift(at ms: Int64, finger: ContactKey = finger(), reason: CancelReason = .lifted) {
        advance(to: ms)
        perform(engine.contactEnded(finger, at: now, reason: reason))
    }

    mutating func answer(_ id: InteractionID, accept: Bool, at ms: Int64) {
        advance(to: ms)
        perform(engine.clientAnswered(id, accept: accept, at: now))
    }

    mutating func clientCancels(_ id: InteractionID, at ms: Int64) {
        advance(to: ms)
        perform(engine.clientCancelled(id, at: now))
    }

    mutating func destroySurface(_ surface: SurfaceID = SurfaceID(1), at ms: Int64) {
        advance(to: ms)
        perform(engine.surfaceDestroyed(surface, at: now))
    }

    mutating func removeDevice(_ device: DeviceID = DeviceID(1), at ms: Int64) {
        advance(to: ms)
        perform(engine.deviceRemoved(device, at: now))
    }

    /// Lets time pass, firing the engine's timer whenever it falls due (as a host's event loop does).
    mutating func advance(to ms: Int64) {
        advance(to: Timestamp(milliseconds: ms))
    }

    mutating func advance(to time: Timestamp) {
        precondition(time >= now, "scripts run forwards")
        while let due = timer, due <= time {
            timer = nil
            now = max(now, due)
            perform(engine.timerFired(at: now))
        }
        now = time
    }

    // MARK: Reading what happened

    /// What the client saw since the last `seen()`.
    mutating func seen() -> [Seen] {
        defer { unread = all.count }
        return all[unread...].map(Script.seen)
    }

    /// The full updates since the last `seen()`/`updates()`.
    mutating func updates() -> [PhaseUpdate] {
        defer { unread = all.count }
        return all[unread...].map(Script.update)
    }

    static func seen(_ action: Action) -> Seen {
        switch action {
        case .askShouldBegin(let update): .ask(update.interaction)
        case .phase(let event, let update):
            switch event {
            case .previewBegan, .previewProgress, .previewEnded: .preview(update.progress, ended: event.endsPhase)
            case .commitProgress, .completed: .commit(update.progress, ended: event.endsPhase)
            case .cancelled(let reason): .cancel(reason)
            case .stage(let level): .stage(level)
            }
        case .scheduleTimer: preconditionFailure("timers are not recorded")
        }
    }

    static func update(_ action: Action) -> PhaseUpdate {
        switch action {
        case .askShouldBegin(let update), .phase(_, let update): update
        case .scheduleTimer: preconditionFailure("timers are not recorded")
        }
    }

    private mutating func perform(_ actions: Actions) {
        transitions += engine.transitions
        var answers: [InteractionID] = []
        for action in actions {
            switch action {
            case .scheduleTimer(let time): timer = time
            case .askShouldBegin(let update):
                lastAsked = update.interaction
                asked.append(update.interaction)
                answers.append(update.interaction)
                all.append(action)
            case .phase: all.append(action)
            }
        }
        // A host with a client that answers at once (the replay tool answers in-line).
        for id in answers {
            switch client {
            case .accepts: perform(engine.clientAnswered(id, accept: true, at: now))
            case .declines: perform(engine.clientAnswered(id, accept: false, at: now))
            case .silent: break
            }
        }
    }
}

extension Array where Element == Script.Seen {
    /// The kinds of events in order, progress left out (for shape checks).
    var shape: [String] {
        map {
            switch $0 {
            case .ask: "ask"
            case .preview(_, let ended): ended ? "preview-ended" : "preview"
            case .commit(_, let ended): ended ? "completed" : "commit"
            case .cancel(let reason): "cancel(\(reason))"
            case .stage(let level): "stage(\(level))"
            }
        }
    }

    /// Consecutive duplicates removed: ["ask", "preview", "preview", "cancel"] → ["ask", "preview", "cancel"].
    var phases: [String] {
        shape.reduce(into: []) { if $0.last != $1 { $0.append($1) } }
    }
}
