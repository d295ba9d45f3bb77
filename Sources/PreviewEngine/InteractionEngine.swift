// PUBLIC CONTRACT: other modules code against these signatures, so change them with care.

/// Runs every preview interaction of one seat: one per contact, each bound to the
/// surface under the contact when it began. Pure: time comes in with every input,
/// and each input produces the actions the host must perform (into the host's buffer, or
/// returned).
///
/// Timers: after any input the engine may return `.scheduleTimer(t)` (first in its `Actions`,
/// so nested answering hosts end with the newest request); the host then calls
/// `timerFired(at:)` at `t` (a `t` at or before now means: at once). Calling it early or
/// late is harmless. Inputs that touch many contacts at once (a surface or device going
/// away, many deadlines due together) return as many actions as fit in one `Actions` and
/// ask for an immediate timer to deliver the rest, in order, before anything else happens
/// to those contacts.
public struct InteractionEngine: Sendable {
    public private(set) var configuration: EngineConfiguration
    /// Resolved from `configuration`; a contact keeps the tuning it began with.
    public private(set) var tuning: Tuning
    /// A stuck device that never ends its contacts cannot grow the registry without bound:
    /// contacts beyond this many are ignored (the host logs it).
    public static let maximumContacts = 32

    private var slots: [Slot] = []
    private var context = EngineContext()
    /// The deadline the host was last asked for (nil: none pending).
    private var requested: Timestamp?

    private struct Slot: Sendable {
        var machine: Interaction
        /// An end that did not fit into the actions of the input that caused it.
        var pending: Pending?
    }

    /// Ends that did not fit into the actions of the input that caused them; delivered
    /// (surface first, as it happened first) before anything else touches the contact.
    private struct Pending: Sendable {
        var surfaceGone: Timestamp?
        var dismissed: Timestamp?
        var contactEnded: (reason: CancelReason, time: Timestamp)?

        var time: Timestamp {
            // A Pending is made from one of the three (its initialisers) and merging only adds.
            guard let first = surfaceGone ?? dismissed else { return contactEnded?.time ?? Timestamp(microseconds: 0) }
            return first
        }

        mutating func merge(_ other: Pending) {
            surfaceGone = surfaceGone ?? other.surfaceGone
            dismissed = dismissed ?? other.dismissed
            contactEnded = contactEnded ?? other.contactEnded
        }
    }

    public init(configuration: EngineConfiguration = EngineConfiguration()) {
        self.configuration = configuration
        tuning = Tuning(configuration)
        slots.reserveCapacity(InteractionEngine.maximumContacts)
    }

    /// New presets apply to contacts that begin afterwards.
    public mutating func configure(_ configuration: EngineConfiguration) {
        self.configuration = configuration
        tuning = Tuning(configuration)
    }

    // MARK: Reading the state

    /// The transitions the most recent input caused (`from → event → to`), for hosts that log them.
    public var transitions: TransitionLog { context.log }

    /// The first invariant the most recent input found broken (nil: none), for the host to log:
    /// the engine has already recovered (cancelled with `system`). `faultCount`: how many in all.
    public var fault: EngineFault? { context.fault }
    public var faultCount: Int { context.faultCount }

    /// When the engine next needs `timerFired` (what the last `.scheduleTimer` said).
    public var nextDeadline: Timestamp? { earliestDeadline }

    /// How many contacts are tracked (including inert ones that wait for their contact to end).
    public var contactCount: Int { slots.count }

    /// How many interactions wait for their client's should-begin answer (builds nothing: a
    /// replay asks before every event whether to wait for one).
    public var awaitingAnswerCount: Int {
        slots.reduce(0) { $0 + ($1.machine.state.kind == .awaitingAnswer ? 1 : 0) }
    }

    /// How many interactions run: asked should-begin, in the preview or in the commit phase.
    /// Builds nothing.
    public var runningCount: Int {
        slots.reduce(0) { count, slot in
            switch slot.machine.state.kind {
            case .awaitingAnswer, .preview, .commit, .commitUntilLift, .accelerating: count + 1
            case .idle, .armed, .holding, .completed, .cancelled, .vetoed, .abandoned, .ended: count
            }
        }
    }

    /// The phase interaction `id` is in, after the latest input: the one answer every host asks
    /// (nobody keeps a copy). Nil for an id the engine no longer tracks (its contact ended).
    /// Builds nothing: a host may ask on every event.
    public func phase(of id: InteractionID) -> Phase? {
        for slot in slots where slot.machine.id == id { return slot.machine.phase }
        return nil
    }

    /// Every tracked contact's machine, oldest first. Builds an array: for tests, debugging
    /// overlays and logs, not for the per-event path.
    public var interactions: [Interaction] { slots.map { $0.machine } }

    public func interaction(for contact: ContactKey) -> Interaction? {
        slots.first { $0.machine.contact == contact }?.machine
    }

    public func interaction(_ id: InteractionID) -> Interaction? {
        slots.first { $0.machine.id == id }?.machine
    }

    // MARK: Inputs
    //
    // Each input writes its actions into a buffer the host owns and reuses (its previous
    // contents are dropped): the per-event path then copies no `Actions`. The forms that return
    // `Actions` (below) are the same inputs for hosts and tests off that path.

    /// A finger, pen tip or button went down over `surface` (nil: over nothing that takes interactions).
    /// `hasForce == false` selects the long-press fallback for this contact.
    /// A second begin for a contact that has not ended, a nil surface, or more than
    /// `maximumContacts` contacts: ignored (empty actions). `behaviour` is what force means where
    /// it began (the client's declaration there); a `generic` contact is not tracked at all,
    /// like one over no surface, so nothing is ever asked about it.
    public mutating func contactBegan(
        _ sample: ForceSample, surface: SurfaceID?, hasForce: Bool, behaviour: PressureBehaviour = .deepClick,
        into actions: inout Actions
    ) {
        start(&actions)
        if let index = index(of: sample.contact) {
            // The same contact again: a duplicate begin is ignored, unless its end is still
            // parked (many contacts ended at once): that end is delivered first.
            guard let pending = slots[index].pending, pending.contactEnded != nil else { return }
            InteractionEngine.run(pending, on: &slots[index].machine, into: &actions, &context)
            slots.remove(at: index)
        }
        guard let surface, behaviour != .generic, slots.count < InteractionEngine.maximumContacts else {
            finish(&actions)
            return
        }
        var machine = Interaction(
            began: sample, surface: surface, hasForce: hasForce, tuning: tuning, behaviour: behaviour)
        machine.began(into: &actions, &context)
        slots.append(Slot(machine: machine, pending: nil))
        finish(&actions)
    }

    /// New force and/or location for a contact that began. Unknown contacts: ignored.
    public mutating func forceChanged(_ sample: ForceSample, into actions: inout Actions) {
        start(&actions)
        guard let index = index(of: sample.contact) else { return }
        apply(at: index, into: &actions) { machine, actions, context in
            machine.forceChanged(sample, into: &actions, &context)
        }
    }

    /// The contact ended: lifted normally, or lost (device removed, desynchronised, system).
    public mutating func contactEnded(
        _ contact: ContactKey, at time: Timestamp, reason: CancelReason, into actions: inout Actions
    ) {
        start(&actions)
        guard let index = index(of: contact) else { return }
        apply(at: index, into: &actions) { machine, actions, context in
            machine.contactEnded(reason: reason, at: time, into: &actions, &context)
        }
    }

    /// The client's answer to `askShouldBegin`. Unknown or finished interactions: ignored.
    public mutating func clientAnswered(
        _ interaction: InteractionID, accept: Bool, at time: Timestamp, into actions: inout Actions
    ) {
        start(&actions)
        guard let index = index(of: interaction) else { return }
        apply(at: index, into: &actions) { machine, actions, context in
            machine.answered(accept: accept, at: time, into: &actions, &context)
        }
    }

    /// The client cancelled the interaction (the protocol's `cancel` request). The contact
    /// stays inert until it ends. Unknown or finished interactions: ignored.
    public mutating func clientCancelled(_ interaction: InteractionID, at time: Timestamp, into actions: inout Actions)
    {
        start(&actions)
        guard let index = index(of: interaction) else { return }
        apply(at: index, into: &actions) { machine, actions, context in
            machine.clientCancelled(at: time, into: &actions, &context)
        }
    }

    /// The surface was destroyed; every interaction bound to it is cancelled.
    public mutating func surfaceDestroyed(_ surface: SurfaceID, at time: Timestamp, into actions: inout Actions) {
        start(&actions)
        for index in slots.indices where slots[index].machine.surface == surface {
            deliver(Pending(surfaceGone: time), at: index, into: &actions)
        }
        finish(&actions)
    }

    /// The device was unplugged; its contacts end with `.deviceRemoved`.
    public mutating func deviceRemoved(_ device: DeviceID, at time: Timestamp, into actions: inout Actions) {
        endContacts(at: time, reason: .deviceRemoved, into: &actions) { $0.device == device }
    }

    /// The user pressed Escape on `seat`: every running interaction of that seat is cancelled
    /// (`dismissed`), and its contacts that have not asked yet never will. The contacts stay
    /// tracked, inert, until they end.
    public mutating func escapePressed(seat: UInt32, at time: Timestamp, into actions: inout Actions) {
        start(&actions)
        for index in slots.indices where slots[index].machine.contact.seat == seat {
            deliver(Pending(dismissed: time), at: index, into: &actions)
        }
        finish(&actions)
    }

    /// Ends every contact (e.g. the seat lost its surfaces, the compositor shuts down):
    /// running interactions are cancelled with `reason` (usually `.system`).
    public mutating func endAllContacts(at time: Timestamp, reason: CancelReason, into actions: inout Actions) {
        endContacts(at: time, reason: reason, into: &actions) { _ in true }
    }

    /// The time requested by the last `.scheduleTimer` has come.
    public mutating func timerFired(at time: Timestamp, into actions: inout Actions) {
        start(&actions)
        if let requested, requested <= time { self.requested = nil }
        for index in slots.indices {
            if let pending = slots[index].pending {
                guard pending.time <= time else { continue }
                guard attempt(pending, at: index, into: &actions) else { break }
            } else if let due = slots[index].machine.deadline, due <= time {
                guard attempt(at: index, into: &actions, { $0.timerFired(at: time, into: &$1, &$2) }) else { break }
            }
        }
        finish(&actions)
    }

    // MARK: Registry

    private func index(of contact: ContactKey) -> Int? {
        slots.firstIndex { $0.machine.contact == contact }
    }

    private func index(of interaction: InteractionID) -> Int? {
        slots.firstIndex { $0.machine.id == interaction }
    }

    /// Every input starts with an empty buffer and an empty transition log.
    private mutating func start(_ actions: inout Actions) {
        context.log.removeAll()
        context.clearFaults()
        actions.removeAll()
    }

    private typealias Input = (inout Interaction, inout Actions, inout EngineContext) -> Void

    /// One contact's input: a pending end goes first (it happened first).
    private mutating func apply(at index: Int, into actions: inout Actions, _ input: Input) {
        if let pending = slots[index].pending {
            slots[index].pending = nil
            InteractionEngine.run(pending, on: &slots[index].machine, into: &actions, &context)
            if slots[index].machine.state != .ended {
                input(&slots[index].machine, &actions, &context)
            }
        } else {
            input(&slots[index].machine, &actions, &context)
            checkBound(produced: actions.count, by: slots[index].machine)
        }
        finish(&actions)
    }

    private mutating func endContacts(
        at time: Timestamp, reason: CancelReason, into actions: inout Actions, where matches: (ContactKey) -> Bool
    ) {
        start(&actions)
        for index in slots.indices where matches(slots[index].machine.contact) {
            deliver(Pending(contactEnded: (reason, time)), at: index, into: &actions)
        }
        finish(&actions)
    }

    /// Applies an end now if its actions fit, else parks it until the next timer.
    private mutating func deliver(_ end: Pending, at index: Int, into actions: inout Actions) {
        if slots[index].pending != nil {
            slots[index].pending?.merge(end)
        } else if !attempt(end, at: index, into: &actions) {
            slots[index].pending = end
        }
    }

    private mutating func attempt(_ end: Pending, at index: Int, into actions: inout Actions) -> Bool {
        let fitted = attempt(at: index, into: &actions) { machine, actions, context in
            InteractionEngine.run(end, on: &machine, into: &actions, &context)
        }
        if fitted { slots[index].pending = nil }
        return fitted
    }

    /// Runs an input on a copy of the machine and keeps it only if its actions fit, leaving
    /// room for a final `.scheduleTimer`. What does not fit stays due: the timer comes back.
    private mutating func attempt(at index: Int, into actions: inout Actions, _ input: Input) -> Bool {
        if actions.count + Interaction.maximumActionsPerInput < Actions.capacity {
            // Room for the worst case: no trial copy needed (the common path).
            let before = actions.count
            input(&slots[index].machine, &actions, &context)
            checkBound(produced: actions.count - before, by: slots[index].machine)
            return true
        }
        var machine = slots[index].machine
        var trial = context
        var produced = Actions()
        input(&machine, &produced, &trial)
        guard actions.count + produced.count < Actions.capacity else { return false }
        slots[index].machine = machine
        context = trial
        actions.append(contentsOf: produced)
        return true
    }

    /// The bound `attempt` relies on: a breach is logged (nothing was lost while the buffer had room).
    private mutating func checkBound(produced: Int, by machine: Interaction) {
        guard produced > Interaction.maximumActionsPerInput else { return }
        context.record(
            EngineFault(.tooManyActions, contact: machine.contact, interaction: machine.id, state: machine.state))
    }

    /// A machine ends in a terminal state after either end, so at most one cancel (plus the
    /// deadlines that fell due before it) comes out.
    private static func run(
        _ end: Pending, on machine: inout Interaction, into actions: inout Actions, _ context: inout EngineContext
    ) {
        if let time = end.surfaceGone {
            machine.surfaceDestroyed(at: time, into: &actions, &context)
        }
        if let time = end.dismissed {
            machine.dismissed(at: time, into: &actions, &context)
        }
        if let ended = end.contactEnded {
            machine.contactEnded(reason: ended.reason, at: ended.time, into: &actions, &context)
        }
    }

    /// Drops ended contacts and asks for the next timer if it changed.
    private mutating func finish(_ actions: inout Actions) {
        slots.removeAll { $0.machine.state == .ended && $0.pending == nil }
        scheduleTimer(into: &actions)
        if actions.dropped > 0 { context.record(EngineFault(.actionsDropped)) }
    }

    private mutating func scheduleTimer(into actions: inout Actions) {
        let next = earliestDeadline
        guard next != requested else { return }
        requested = next
        actions.prepend(.scheduleTimer(next))
    }

    private var earliestDeadline: Timestamp? {
        var earliest: Timestamp?
        for slot in slots {
            guard let due = slot.pending?.time ?? slot.machine.deadline else { continue }
            if earliest.map({ due < $0 }) ?? true { earliest = due }
        }
        return earliest
    }
}

/// The inputs for hosts and tests off the per-event path: each returns its own `Actions`.
extension InteractionEngine {
    public mutating func contactBegan(
        _ sample: ForceSample, surface: SurfaceID?, hasForce: Bool, behaviour: PressureBehaviour = .deepClick
    ) -> Actions {
        var actions = Actions()
        contactBegan(sample, surface: surface, hasForce: hasForce, behaviour: behaviour, into: &actions)
        return actions
    }

    public mutating func escapePressed(seat: UInt32, at time: Timestamp) -> Actions {
        var actions = Actions()
        escapePressed(seat: seat, at: time, into: &actions)
        return actions
    }

    public mutating func forceChanged(_ sample: ForceSample) -> Actions {
        var actions = Actions()
        forceChanged(sample, into: &actions)
        return actions
    }

    public mutating func contactEnded(_ contact: ContactKey, at time: Timestamp, reason: CancelReason) -> Actions {
        var actions = Actions()
        contactEnded(contact, at: time, reason: reason, into: &actions)
        return actions
    }

    public mutating func clientAnswered(_ interaction: InteractionID, accept: Bool, at time: Timestamp) -> Actions {
        var actions = Actions()
        clientAnswered(interaction, accept: accept, at: time, into: &actions)
        return actions
    }

    public mutating func clientCancelled(_ interaction: InteractionID, at time: Timestamp) -> Actions {
        var actions = Actions()
        clientCancelled(interaction, at: time, into: &actions)
        return actions
    }

    public mutating func surfaceDestroyed(_ surface: SurfaceID, at time: Timestamp) -> Actions {
        var actions = Actions()
        surfaceDestroyed(surface, at: time, into: &actions)
        return actions
    }

    public mutating func deviceRemoved(_ device: DeviceID, at time: Timestamp) -> Actions {
        var actions = Actions()
        deviceRemoved(device, at: time, into: &actions)
        return actions
    }

    public mutating func endAllContacts(at time: Timestamp, reason: CancelReason) -> Actions {
        var actions = Actions()
        endAllContacts(at: time, reason: reason, into: &actions)
        return actions
    }

    public mutating func timerFired(at time: Timestamp) -> Actions {
        var actions = Actions()
        timerFired(at: time, into: &actions)
        return actions
    }
}

/// The user's settings. Presets belong to the compositor's user, never to clients.
public struct EngineConfiguration: Hashable, Sendable {
    public var sensitivity: Sensitivity
    public var longPress: LongPressDuration
    /// How long a client may take to answer should-begin before it counts as a decline.
    public var shouldBeginTimeout: Timestamp.Duration
    /// When the commit phase completes: on force (the default) or when the contact lifts.
    public var completion: Completion

    public init(
        sensitivity: Sensitivity = .medium, longPress: LongPressDuration = .default,
        shouldBeginTimeout: Timestamp.Duration = .milliseconds(150), completion: Completion = .onForce
    ) {
        self.sensitivity = sensitivity
        self.longPress = longPress
        self.shouldBeginTimeout = shouldBeginTimeout
        self.completion = completion
    }
}

/// Like iOS's 3D Touch sensitivity setting.
public enum Sensitivity: String, Hashable, Sendable, CaseIterable {
    case light, medium, firm
}

/// Like iOS's touch-and-hold duration setting.
public enum LongPressDuration: String, Hashable, Sendable, CaseIterable {
    case fast, `default`, slow
}
