/// An invariant of the engine that did not hold. Inside a compositor a trap would kill the
/// host, so the engine recovers instead: the interaction is cancelled (`system`), a contact that
/// has not asked yet never will, and the fault is kept for the host to log
/// (`InteractionEngine.fault`). Every one is a bug in the engine or in a caller of
/// `Interaction`'s inputs, never the user's doing.
public struct EngineFault: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable {
        case beganTwice = "began applied twice"
        case inputOutOfOrder = "input for a machine that has not begun or has ended"
        case stuckDeadline = "a deadline that does not move"
        case unknownDeadline = "a deadline its state does not have"
        case noAccelerator = "stage levels without an accelerator"
        case noInteraction = "a phase event before should-begin was asked"
        case tooManyActions = "more actions for one machine than one input may produce"
        case actionsDropped = "actions beyond the buffer's capacity were dropped"
    }

    public var kind: Kind
    /// Nil for a fault of the whole input (dropped actions), not of one machine.
    public var contact: ContactKey?
    public var interaction: InteractionID?
    public var time: Timestamp?
    /// The machine's state when it was found, and the input it was found on.
    public var state: Interaction.State?
    public var event: Interaction.Event?

    public init(
        _ kind: Kind, contact: ContactKey? = nil, interaction: InteractionID? = nil, time: Timestamp? = nil,
        state: Interaction.State? = nil, event: Interaction.Event? = nil
    ) {
        self.kind = kind
        self.contact = contact
        self.interaction = interaction
        self.time = time
        self.state = state
        self.event = event
    }

    public var description: String {
        var text = "engine invariant broken: \(kind.rawValue)"
        if let time { text += " at \(time)" }
        if let contact { text += " for \(contact)" }
        if let interaction { text += " \(interaction)" }
        if let state { text += " in \(state)" }
        if let event { text += " on \(event)" }
        return text
    }
}
