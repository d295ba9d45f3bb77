// PUBLIC CONTRACT: other modules code against these signatures, so change them with care.

/// Runs every preview interaction of one seat: one per contact, each bound to the
/// surface under the contact when it began. Pure: time comes in with every input,
/// and each input returns the actions the host must perform.
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
        var contactEnded: (reason: CancelReason, time: Timestamp)?

        var time: Timestamp {
            guard let surfaceGone else { return contactEnded!.time }
            return surfaceGone
        }

        mutating func merge(_ other: Pending) {
            surfaceGone = surfaceGone ?? other.surfaceGone
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

    /// When the engine next needs `timerFired` (what the last `.scheduleTimer` said).
    public var nextDeadline: Timestamp? { earliestDeadline }

    /// How many contacts are tracked (including inert ones that wait for their contact to end).
    public var contactCount: Int { slots.count }

    /// Every tracked contact's machine, oldest first. Builds an array: for tests, debugging
    /// overlays and logs, not for the per-event path.
    public var interactions: [Interaction] { slots.map(\.machine) }

    public func interaction(for contact: ContactKey) -> Interaction? {
        slots.first { $0.machine.contact == contact }?.machine
    }

    public func interaction(_ id: InteractionID) -> Interaction? {
        slots.first { $0.machine.id == id }?.machine
    }

    // MARK: Inputs

    /// A finger, pen tip or button went down over `surface` (nil: over nothing that takes interactions).
    /// `hasForce == false` selects the long-press fallback for this contact.
    /// A second begin for a contact that has not ended, a nil surface, or more than
    /// `maximumContacts` contacts: ignored (empty actions).
    public mutating func contactBegan(_ sample: ForceSample, surface: SurfaceID?, hasForce: Bool) -> Actions {
        context.log.removeAll()
        var actions = Actions()
        if let index = index(of: sample.contact) {
            // The same contact again: a duplicate begin is ignored, unless its end is still
            // parked (many contacts ended at once): that end is delivered first.
            guard let pending = slots[index].pending, pending.contactEnded != nil else { return actions }
            actions = InteractionEngine.run(pending, on: &slots[index].machine, &context)
            slots.remove(at: index)
        }
        guard let surface, slots.count < InteractionEngine.maximumContacts else {
            finish(&actions)
            return actions
        }
        var machine = Interaction(began: sample, surface: surface, hasForce: hasForce, tuning: tuning)
        actions.append(contentsOf: machine.began(&context))
        slots.append(Slot(machine: machine, pending: nil))
        finish(&actions)
        return actions
    }

    /// New force and/or location for a contact that began. Unknown contacts: ignored.
    public mutating func forceChanged(_ sample: ForceSample) -> Actions {
        context.log.removeAll()
        guard let index = index(of: sample.contact) else { return Actions() }
        return apply(at: index) { machine, context in machine.forceChanged(sample, &context) }
    }

    /// The contact ended: lifted normally, or lost (device removed, desynchronised, system).
    public mutating func contactEnded(_ contact: ContactKey, at time: Timestamp, reason: CancelReason) -> Actions {
        context.log.removeAll()
        guard let index = index(of: contact) else { return Actions() }
        return apply(at: index) { machine, context in machine.contactEnded(reason: reason, at: time, &context) }
    }

    /// The client's answer to `askShouldBegin`. Unknown or finished interactions: ignored.
    public mutating func clientAnswered(_ interaction: InteractionID, accept: Bool, at time: Timestamp) -> Actions {
        context.log.removeAll()
        guard let index = index(of: interaction) else { return Actions() }
        return apply(at: index) { machine, context in machine.answered(accept: accept, at: time, &context) }
    }

    /// The client cancelled the interaction (the protocol's `cancel` request). The contact
    /// stays inert until it ends. Unknown or finished interactions: ignored.
    public mutating func clientCancelled(_ interaction: InteractionID, at time: Timestamp) -> Actions {
        context.log.removeAll()
        guard let index = index(of: interaction) else { return Actions() }
        return apply(at: index) { machine, context in machine.clientCancelled(at: time, &context) }
    }

    /// The surface was destroyed; every interaction bound to it is cancelled.
    public mutating func surfaceDestroyed(_ surface: SurfaceID, at time: Timestamp) -> Actions {
        context.log.removeAll()
        var actions = Actions()
        for index in slots.indices where slots[index].machine.surface == surface {
            deliver(Pending(surfaceGone: time), at: index, into: &actions)
        }
        finish(&actions)
        return actions
    }

    /// The device was unplugged; its contacts end with `.deviceRemoved`.
    public mutating func deviceRemoved(_ device: DeviceID, at time: Timestamp) -> Actions {
        endContacts(at: time, reason: .deviceRemoved) { $0.device == device }
    }

    /// Ends every contact (e.g. the seat lost its surfaces, the compositor shuts down):
    /// running interactions are cancelled with `reason` (usually `.system`).
    public mutating func endAllContacts(at time: Timestamp, reason: CancelReason) -> Actions {
        endContacts(at: time, reason: reason) { _ in true }
    }

    /// The time requested by the last `.scheduleTimer` has come.
    public mutating func timerFired(at time: Timestamp) -> Actions {
        context.log.removeAll()
        if let requested, requested <= time { self.requested = nil }
        var actions = Actions()
        for index in slots.indices {
            if let pending = slots[index].pending {
                guard pending.time <= time else { continue }
                guard attempt(pending, at: index, into: &actions) else { break }
            } else if let due = slots[index].machine.deadline, due <= time {
                guard attempt(at: index, into: &actions, { $0.timerFired(at: time, &$1) }) else { break }
            }
        }
        finish(&actions)
        return actions
    }

    // MARK: Registry

    private func index(of contact: ContactKey) -> Int? {
        slots.firstIndex { $0.machine.contact == contact }
    }

    private func index(of interaction: InteractionID) -> Int? {
        slots.firstIndex { $0.machine.id == interaction }
    }

    /// One contact's input: a pending end goes first (it happened first).
    private mutating func apply(
        at index: Int, _ input: (inout Interaction, inout EngineContext) -> Actions
    ) -> Actions {
        var actions: Actions
        if let pending = slots[index].pending {
            slots[index].pending = nil
            actions = InteractionEngine.run(pending, on: &slots[index].machine, &context)
            if slots[index].machine.state != .ended {
                actions.append(contentsOf: input(&slots[index].machine, &context))
            }
        } else {
            actions = input(&slots[index].machine, &context)
            assert(actions.count <= Interaction.maximumActionsPerInput, "bound broken: \(actions)")
        }
        finish(&actions)
        return actions
    }

    private mutating func endContacts(at time: Timestamp, reason: CancelReason, where matches: (ContactKey) -> Bool)
        -> Actions
    {
        context.log.removeAll()
        var actions = Actions()
        for index in slots.indices where matches(slots[index].machine.contact) {
            deliver(Pending(contactEnded: (reason, time)), at: index, into: &actions)
        }
        finish(&actions)
        return actions
    }

    /// Applies an end now if its actions fit, else parks it until the next timer.
    private mutating func deliver(_ end: Pending, at index: Int, into actions: inout Actions) {
        if slots[index].pending != nil {
            slots[index].pending!.merge(end)
        } else if !attempt(end, at: index, into: &actions) {
            slots[index].pending = end
        }
    }

    private mutating func attempt(_ end: Pending, at index: Int, into actions: inout Actions) -> Bool {
        let fitted = attempt(at: index, into: &actions) { machine, context in
            InteractionEngine.run(end, on: &machine, &context)
        }
        if fitted { slots[index].pending = nil }
        return fitted
    }

    /// Runs an input on a copy of the machine and keeps it only if its actions fit, leaving
    /// room for a final `.scheduleTimer`. What does not fit stays due: the timer comes back.
    private mutating func attempt(
        at index: Int, into actions: inout Actions, _ input: (inout Interaction, inout EngineContext) -> Actions
    ) -> Bool {
        if actions.count + Interaction.maximumActionsPerInput < Actions.capacity {
            // Room for the worst case: no trial copy needed (the common path).
            let produced = input(&slots[index].machine, &context)
            assert(produced.count <= Interaction.maximumActionsPerInput, "bound broken: \(produced)")
            actions.append(contentsOf: produced)
            return true
        }
        var machine = slots[index].machine
        var trial = context
        let produced = input(&machine, &trial)
        guard actions.count + produced.count < Actions.capacity else { return false }
        slots[index].machine = machine
        context = trial
        actions.append(contentsOf: produced)
        return true
    }

    /// A machine ends in a terminal state after either end, so at most one cancel (plus the
    /// deadlines that fell due before it) comes out.
    private static func run(_ end: Pending, on machine: inout Interaction, _ context: inout EngineContext) -> Actions {
        var actions = Actions()
        if let time = end.surfaceGone {
            actions.append(contentsOf: machine.surfaceDestroyed(at: time, &context))
        }
        if let ended = end.contactEnded {
            actions.append(contentsOf: machine.contactEnded(reason: ended.reason, at: ended.time, &context))
        }
        return actions
    }

    /// Drops ended contacts and asks for the next timer if it changed.
    private mutating func finish(_ actions: inout Actions) {
        slots.removeAll { $0.machine.state == .ended && $0.pending == nil }
        scheduleTimer(into: &actions)
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

/// The user's settings. Presets belong to the compositor's user, never to clients.
public struct EngineConfiguration: Hashable, Sendable {
    public var sensitivity: Sensitivity
    public var longPress: LongPressDuration
    /// How long a client may take to answer should-begin before it counts as a decline.
    public var shouldBeginTimeout: Timestamp.Duration

    public init(
        sensitivity: Sensitivity = .medium, longPress: LongPressDuration = .default,
        shouldBeginTimeout: Timestamp.Duration = .milliseconds(150)
    ) {
        self.sensitivity = sensitivity
        self.longPress = longPress
        self.shouldBeginTimeout = shouldBeginTimeout
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
