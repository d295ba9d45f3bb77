/// One state change of one contact's state machine: `from → event → to`. Plain values, so
/// recording it costs no allocation; the host prints it (`description`) only if it wants to.
public struct Transition: Hashable, Sendable, CustomStringConvertible {
    public var time: Timestamp
    public var contact: ContactKey
    /// Nil until should-begin was asked (a contact that never crosses `begin` has no interaction).
    public var interaction: InteractionID?
    public var from: Interaction.State
    public var event: Interaction.Event
    public var to: Interaction.State

    public init(
        time: Timestamp, contact: ContactKey, interaction: InteractionID?, from: Interaction.State,
        event: Interaction.Event, to: Interaction.State
    ) {
        self.time = time
        self.contact = contact
        self.interaction = interaction
        self.from = from
        self.event = event
        self.to = to
    }

    public var description: String {
        let id = interaction.map { " \($0)" } ?? ""
        return "\(time) \(contact)\(id): \(from) → \(event) → \(to)"
    }
}

/// The transitions caused by the engine's most recent input, stored inline (fixed capacity,
/// never allocates). Only changes of state *kind* are recorded: a preview whose progress
/// moves stays `preview`. Should an input cause more than `capacity` transitions (many
/// contacts ending at once), the surplus is counted in `dropped`, never silently lost.
public struct TransitionLog: Sequence, Sendable, CustomStringConvertible {
    private typealias Storage = InlineBuffer<8, Transition>
    public static var capacity: Int { Storage.slotCount }
    /// Unused slots hold this (read only through an index outside `0..<count`, a caller's bug).
    private static let unused = Transition(
        time: Timestamp(microseconds: 0), contact: ContactKey(device: DeviceID(0)), interaction: nil, from: .idle,
        event: .began, to: .idle)
    private var storage = Storage(filler: unused)
    public var count: Int { storage.count }
    public var dropped: Int { storage.dropped }

    public init() {}

    public var isEmpty: Bool { count == 0 }

    public mutating func removeAll() {
        guard count > 0 || dropped > 0 else { return }
        storage.removeAll()
    }

    public mutating func append(_ transition: Transition) { storage.append(transition) }

    public mutating func append(contentsOf other: TransitionLog) {
        for transition in other { append(transition) }
        storage.countDropped(other.dropped)
    }

    /// `append` fills the slots below `count` in order; an index outside them (a caller's bug)
    /// reads an unused slot rather than trap.
    public subscript(index: Int) -> Transition { storage.at(index) ?? TransitionLog.unused }

    public struct Iterator: IteratorProtocol {
        let log: TransitionLog
        var index = 0
        public mutating func next() -> Transition? {
            guard index < log.count else { return nil }
            defer { index += 1 }
            return log[index]
        }
    }

    public func makeIterator() -> Iterator { Iterator(log: self) }

    public var description: String {
        let lines = map { $0.description }
        return (lines + (dropped > 0 ? ["(\(dropped) more dropped)"] : [])).joined(separator: "\n")
    }
}
