import PreviewEngine

/// Where a press went down, as the host sees it.
public enum LookupPressTarget: Equatable, Sendable {
    /// On the Look Up panel: the panel's own (its buttons); nothing changes.
    case panel
    /// Where no lookup begins (no window, a popup, the lookup process's own surface): whatever
    /// Look Up shows goes.
    case elsewhere
    /// On a window at a point local to it; `declaresPreview`: its client declared a preview
    /// area there for the press's source (the press is the client's interaction, not a lookup).
    case window(SurfaceID, Point, declaresPreview: Bool)
}

/// Look Up's host-independent part, pure: which press is a lookup press (a window where no
/// client declared a preview area; a force press, or a long press when the user turned that
/// on), its phases (an `InteractionEngine` of its own, so the app's input is never taken
/// away), the questions asked of preview-lookup and their answers, and when what is shown
/// goes (Escape, a press elsewhere, a new press, the window or the process gone, cancelled).
/// Each input writes what the host does into `effects` (cleared first); time is passed in.
public struct LookupSession: Sendable {
    public enum Outcome: String, Sendable {
        /// A word or link: the lookup goes on (preview, then the panel).
        case found
        /// Nothing there: the press is just the app's.
        case nothing
        /// After the deadline: the press was declined already.
        case late
    }

    public enum Effect: Equatable, Sendable {
        /// Call `timerFired` at `due` (nil: no timer needed), replacing any earlier request.
        case scheduleTimer(Timestamp?)
        /// Ask preview-lookup what is at `point` (local to `surface`); `caret`: at the text
        /// caret of the window's focused text if it has one (the preview key), else at the
        /// point. `answered` or the deadline follows. A request that cannot be sent is `askFailed`.
        case ask(id: UInt32, surface: SurfaceID, at: Point, caret: Bool)
        /// An answer came `waited` after the question (for the trace and the log).
        case answered(LookupChannel.Answer, Outcome, surface: SurfaceID, waited: Timestamp.Duration)
        /// Draw (or redraw) the highlight over `extents` (local to `surface`) at `progress` 0…1.
        case highlight(LookupRect, surface: SurfaceID, progress: Double)
        /// The commit began: place the panel beside `extents` (local to `surface`; nil: the
        /// toolkit gave no extents), shown a third of the way.
        case showPanel(beside: LookupRect?, surface: SurfaceID)
        /// The panel shows `progress` (0…1) of the rest of its height.
        case growPanel(progress: Double)
        /// The lookup completed: the panel stays until dismissed.
        case completed(id: UInt32)
        /// The lookup shown was cancelled (lifted before its commit, moved, its window gone…);
        /// a `dismiss` follows.
        case cancelled(id: UInt32, reason: CancelReason)
        /// Everything Look Up shows goes; preview-lookup forgets the panel of lookup `id`.
        case dismiss(id: UInt32)
    }

    private struct Asked: Sendable {
        var surface: SurfaceID
        var time: Timestamp
    }

    private struct Current: Sendable {
        var id: UInt32
        var answer: LookupChannel.Answer
        var surface: SurfaceID
    }

    private var engine: InteractionEngine
    /// The latest invariant the engine found broken (it recovered already), for the host to log.
    private var fault: EngineFault?
    /// Presses without measured force (a long press) look up only when the user says so.
    public private(set) var longPress: Bool
    private var contacts: Set<ContactKey> = []
    /// Questions sent and not answered yet, by interaction.
    private var asked: [UInt32: Asked] = [:]
    /// The lookup whose answer is on screen (highlight, then the panel).
    private var current: Current?

    /// `deadline`: how long preview-lookup may take before the press is just the app's.
    public init(configuration: EngineConfiguration, deadline: Timestamp.Duration, longPress: Bool) {
        engine = InteractionEngine(configuration: Self.lookupConfiguration(configuration, deadline: deadline))
        self.longPress = longPress
    }

    /// The user's settings changed: new presses use them (`deadline` nil: as it was).
    public mutating func configure(
        _ configuration: EngineConfiguration, longPress: Bool, deadline: Timestamp.Duration? = nil
    ) {
        let deadline = deadline ?? engine.configuration.shouldBeginTimeout
        engine.configure(Self.lookupConfiguration(configuration, deadline: deadline))
        self.longPress = longPress
    }

    /// The user's force settings, Look Up's deadline, and completion on force (the panel comes
    /// while the user still presses: a lookup has nothing to do at the release).
    private static func lookupConfiguration(_ configuration: EngineConfiguration, deadline: Timestamp.Duration)
        -> EngineConfiguration
    {
        var configuration = configuration
        configuration.shouldBeginTimeout = deadline
        configuration.completion = .onForce
        return configuration
    }

    // MARK: what hosts and tests ask

    public var deadline: Timestamp.Duration { engine.configuration.shouldBeginTimeout }

    /// The latest engine fault since the last call (nil: none), once.
    public mutating func takeFault() -> EngineFault? {
        defer { fault = nil }
        return fault
    }
    public var nextDeadline: Timestamp? { engine.nextDeadline }
    /// Questions asked and not answered (nor given up on) yet.
    public var awaitingAnswerCount: Int { asked.count }
    /// Lookups whose question is open: asked, neither answered nor past the deadline (a host
    /// replaying input waits for them as for a client's should-begin answer).
    public var askingCount: Int { asked.keys.reduce(0) { $0 + (phase(of: $1) == .asking ? 1 : 0) } }
    /// The lookup on screen (highlight or panel), if any.
    public var shownLookup: UInt32? { current?.id }
    /// The phase of lookup `id`, nil when it is over or unknown.
    public func phase(of id: UInt32) -> Phase? { engine.interaction(InteractionID(id))?.phase }
    /// Whether a lookup follows `contact`.
    public func follows(_ contact: ContactKey) -> Bool { contacts.contains(contact) }
    /// Contacts (and preview keys) the session's engine tracks: only those that may still look up.
    public var trackedContactCount: Int { engine.contactCount }

    // MARK: input

    /// A contact went down on `target`. `available`: Look Up is on and preview-lookup runs.
    /// A press anywhere but the panel ends what is shown; on a window where no client declared
    /// a preview area, a press with force (or a long press, when the user turned that on)
    /// begins a lookup.
    public mutating func contactBegan(
        _ sample: ForceSample, hasForce: Bool, on target: LookupPressTarget, available: Bool,
        into effects: inout [Effect]
    ) {
        effects.removeAll(keepingCapacity: true)
        if target == .panel { return }
        dismiss(appending: &effects)
        forgetUnanswered(before: sample.time)
        guard available, hasForce || longPress, case .window(let surface, let point, false) = target else { return }
        contacts.insert(sample.contact)
        var local = sample
        local.location = point
        run(at: sample.time, into: &effects) { engine, actions in
            engine.contactBegan(local, surface: surface, hasForce: hasForce, into: &actions)
        }
    }

    /// The user's preview key went down with keyboard focus on `target` (its point: the
    /// window's focus point, where the lookup falls back to when the focused text has no
    /// caret). Like a press: it ends what is shown; on a window whose client declared no
    /// preview area for the keyboard it begins a lookup, a simulated long press whatever the
    /// long-press setting (the key is the user's way to ask). `key`: the seat, the keyboard
    /// and the key.
    public mutating func keyPressed(
        _ key: ContactKey, on target: LookupPressTarget, available: Bool, at time: Timestamp,
        into effects: inout [Effect]
    ) {
        effects.removeAll(keepingCapacity: true)
        dismiss(appending: &effects)
        forgetUnanswered(before: time)
        guard available, case .window(let surface, let point, false) = target else { return }
        contacts.insert(key)
        run(at: time, into: &effects) { engine, actions in
            engine.keyPressed(key, at: point, surface: surface, behaviour: .deepClick, time: time, into: &actions)
        }
    }

    /// The preview key came up.
    public mutating func keyReleased(_ key: ContactKey, at time: Timestamp, into effects: inout [Effect]) {
        effects.removeAll(keepingCapacity: true)
        guard contacts.remove(key) != nil else { return }
        run(at: time, into: &effects) { engine, actions in engine.keyReleased(key, at: time, into: &actions) }
    }

    /// A contact moved or its force changed; `sample.location` local to the window it began on.
    public mutating func contactMoved(_ sample: ForceSample, into effects: inout [Effect]) {
        effects.removeAll(keepingCapacity: true)
        guard contacts.contains(sample.contact) else { return }
        run(at: sample.time, into: &effects) { engine, actions in engine.forceChanged(sample, into: &actions) }
    }

    /// A contact ended (`lifted`, or lost with another reason).
    public mutating func contactEnded(
        _ key: ContactKey, at time: Timestamp, reason: CancelReason, into effects: inout [Effect]
    ) {
        effects.removeAll(keepingCapacity: true)
        guard contacts.remove(key) != nil else { return }
        run(at: time, into: &effects) { engine, actions in
            engine.contactEnded(key, at: time, reason: reason, into: &actions)
        }
    }

    /// Escape on `seat`: a lookup of the seat is cancelled and what is shown goes. The app
    /// still gets the key.
    public mutating func escapePressed(seat: UInt32, at time: Timestamp, into effects: inout [Effect]) {
        effects.removeAll(keepingCapacity: true)
        run(at: time, into: &effects) { engine, actions in engine.escapePressed(seat: seat, at: time, into: &actions) }
        dismiss(appending: &effects)
    }

    /// The session's timer fired: a question past the deadline is declined (the press is the app's).
    public mutating func timerFired(at time: Timestamp, into effects: inout [Effect]) {
        effects.removeAll(keepingCapacity: true)
        run(at: time, into: &effects) { engine, actions in engine.timerFired(at: time, into: &actions) }
        forgetUnanswered(before: time)
    }

    /// preview-lookup answered lookup `answer.id`.
    public mutating func answered(_ answer: LookupChannel.Answer, at time: Timestamp, into effects: inout [Effect]) {
        effects.removeAll(keepingCapacity: true)
        guard let request = asked.removeValue(forKey: answer.id) else { return }
        let id = InteractionID(answer.id)
        guard engine.interaction(id)?.phase == .asking else {
            effects.append(.answered(answer, .late, surface: request.surface, waited: time - request.time))
            return
        }
        let found = answer.kind != .nothing
        effects.append(
            .answered(answer, found ? .found : .nothing, surface: request.surface, waited: time - request.time))
        if found {
            dismiss(appending: &effects)
            current = Current(id: answer.id, answer: answer, surface: request.surface)
        }
        run(at: time, into: &effects) { engine, actions in
            engine.clientAnswered(id, accept: found, at: time, into: &actions)
        }
    }

    /// The question for lookup `id` could not be sent: no lookup.
    public mutating func askFailed(_ id: UInt32, at time: Timestamp, into effects: inout [Effect]) {
        effects.removeAll(keepingCapacity: true)
        guard asked.removeValue(forKey: id) != nil else { return }
        run(at: time, into: &effects) { engine, actions in
            engine.clientAnswered(InteractionID(id), accept: false, at: time, into: &actions)
        }
    }

    /// preview-lookup says the user is done with the panel of lookup `id` (Open, Copy link).
    public mutating func processDismissed(_ id: UInt32, into effects: inout [Effect]) {
        effects.removeAll(keepingCapacity: true)
        if current?.id == id { dismiss(appending: &effects) }
    }

    /// The host takes down what is shown (its panel surface went away).
    public mutating func dismiss(into effects: inout [Effect]) {
        effects.removeAll(keepingCapacity: true)
        dismiss(appending: &effects)
    }

    /// preview-lookup went away: answers in flight are lost (the deadline declines them) and
    /// what is shown goes.
    public mutating func processGone(into effects: inout [Effect]) {
        effects.removeAll(keepingCapacity: true)
        asked.removeAll()
        dismiss(appending: &effects)
    }

    /// The window went away (the app gone): its lookups are cancelled and what is shown there goes.
    public mutating func surfaceDestroyed(_ surface: SurfaceID, at time: Timestamp, into effects: inout [Effect]) {
        effects.removeAll(keepingCapacity: true)
        run(at: time, into: &effects) { engine, actions in
            engine.surfaceDestroyed(surface, at: time, into: &actions)
        }
        if current?.surface == surface { dismiss(appending: &effects) }
        asked = asked.filter { $0.value.surface != surface }
    }

    /// The host takes everything down (Look Up turned off): running lookups are cancelled.
    public mutating func endAll(at time: Timestamp, into effects: inout [Effect]) {
        effects.removeAll(keepingCapacity: true)
        run(at: time, into: &effects) { engine, actions in
            engine.endAllContacts(at: time, reason: .system, into: &actions)
        }
        contacts.removeAll()
        asked.removeAll()
        dismiss(appending: &effects)
    }

    // MARK: the engine's actions

    private mutating func run(
        at time: Timestamp, into effects: inout [Effect], _ input: (inout InteractionEngine, inout Actions) -> Void
    ) {
        var actions = Actions()
        input(&engine, &actions)
        perform(actions, at: time, into: &effects)
        forgetContactsThatCannotLookUp(at: time, into: &effects)
    }

    /// A contact whose lookup is over (declined, late, cancelled, completed) or will never
    /// begin (Escape before it asked, a long press moved away) is forgotten at once, also by
    /// the engine: the rest of its stroke costs the host one set lookup, and the same contact
    /// key looks up again at its next press. Dismissal needs no contact (a new press, Escape).
    private mutating func forgetContactsThatCannotLookUp(at time: Timestamp, into effects: inout [Effect]) {
        guard !contacts.isEmpty else { return }
        for key in contacts where engine.interaction(for: key)?.isOver ?? true {
            contacts.remove(key)
            var actions = Actions()
            engine.contactEnded(key, at: time, reason: .system, into: &actions)
            perform(actions, at: time, into: &effects)
        }
    }

    private mutating func perform(_ actions: Actions, at time: Timestamp, into effects: inout [Effect]) {
        if let fault = engine.fault { self.fault = fault }
        for index in actions.indices {
            switch actions[index] {
            case .scheduleTimer(let due):
                effects.append(.scheduleTimer(due))
            case .askShouldBegin(let update):
                asked[update.interaction.rawValue] = Asked(surface: update.surface, time: time)
                effects.append(
                    .ask(
                        id: update.interaction.rawValue, surface: update.surface, at: update.location,
                        caret: update.source == .keyboard))
            case .phase(let event, let update):
                phase(event, update, into: &effects)
            }
        }
    }

    private mutating func phase(_ event: PhaseEvent, _ update: PhaseUpdate, into effects: inout [Effect]) {
        guard let current, current.id == update.interaction.rawValue else { return }
        let extents = current.answer.extents
        switch event {
        case .previewBegan, .previewProgress:
            if let extents { effects.append(.highlight(extents, surface: current.surface, progress: update.progress)) }
        case .previewEnded:
            // An answer that comes after the force passed the commit threshold starts here.
            if let extents { effects.append(.highlight(extents, surface: current.surface, progress: 1)) }
            effects.append(.showPanel(beside: extents, surface: current.surface))
        case .commitProgress:
            effects.append(.growPanel(progress: update.progress))
        case .completed:
            effects.append(.growPanel(progress: 1))
            effects.append(.completed(id: current.id))
        case .stage:
            break
        case .cancelled(let reason):
            effects.append(.cancelled(id: current.id, reason: reason))
            dismiss(appending: &effects)
        }
    }

    private mutating func dismiss(appending effects: inout [Effect]) {
        guard let current else { return }
        self.current = nil
        effects.append(.dismiss(id: current.id))
    }

    /// A question declined at the deadline is kept a while, so a late answer is known as late
    /// (the trace says so); one never answered is forgotten after ten deadlines.
    private mutating func forgetUnanswered(before time: Timestamp) {
        guard !asked.isEmpty else { return }
        let (tenfold, overflow) = deadline.microseconds.multipliedReportingOverflow(by: 10)
        let limit = Timestamp.Duration(microseconds: overflow ? .max : tenfold)
        asked = asked.filter { time - $0.value.time < limit || phase(of: $0.key) == .asking }
    }
}
