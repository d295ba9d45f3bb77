// What the engine asks its host to do. The host (replay tool, compositor, libinput
// backend) switches over these exhaustively and performs them; the engine never acts.

/// Why an interaction ended without completing. Mirrors the protocol's `cancel_reason`.
public enum CancelReason: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The finger or pen left the surface, or the button was released.
    case lifted = 1
    /// The client cancelled (the analogue of `cancelInteraction()`).
    case clientCancelled = 2
    /// The client answered should-begin with no.
    case declined = 3
    /// The client did not answer should-begin in time; treated as a decline.
    case timeout = 4
    /// The device went away mid-interaction.
    case deviceRemoved = 5
    /// The surface the interaction is bound to was destroyed.
    case surfaceGone = 6
    /// The device's event stream lost events (SYN_DROPPED); its state can't be trusted.
    case desynchronised = 7
    /// A long-press contact moved beyond the slop distance before the force was simulated.
    case moved = 8
    /// The host cancelled it (e.g. the seat lost focus, compositor shutting down).
    case system = 9
    /// The user dismissed it from the keyboard (Escape).
    case dismissed = 10

    public var description: String {
        switch self {
        case .lifted: "lifted"
        case .clientCancelled: "client-cancelled"
        case .declined: "declined"
        case .timeout: "timeout"
        case .deviceRemoved: "device-removed"
        case .surfaceGone: "surface-gone"
        case .desynchronised: "desynchronised"
        case .moved: "moved"
        case .system: "system"
        case .dismissed: "dismissed"
        }
    }
}

/// Everything a phase event (and should-begin) carries, so the host can forward it without looking anything up.
public struct PhaseUpdate: Hashable, Sendable {
    public var interaction: InteractionID
    public var surface: SurfaceID
    public var contact: ContactKey
    public var time: Timestamp
    /// 0...1. In the preview phase it may go down as well as up.
    public var progress: Double
    public var location: Point
    public var source: InputSource
    public var simulated: Bool
    /// The force (0...1) the engine judged this event on: the smoothed sensor force (what the
    /// thresholds apply to), or the long-press ramp when `simulated`.
    public var force: Double

    public init(
        interaction: InteractionID, surface: SurfaceID, contact: ContactKey, time: Timestamp, progress: Double,
        location: Point, source: InputSource, simulated: Bool, force: Double = 0
    ) {
        self.interaction = interaction
        self.surface = surface
        self.contact = contact
        self.time = time
        self.progress = progress
        self.location = location
        self.source = source
        self.simulated = simulated
        self.force = force
    }
}

/// One thing for the host to do.
public enum Action: Hashable, Sendable {
    /// Ask the surface's client whether an interaction may begin here
    /// (`previewInteractionShouldBegin`). Answer with `clientAnswered`.
    case askShouldBegin(PhaseUpdate)
    /// The interaction's next phase event (`PhaseEvent`: preview began, progress, ended,
    /// commit progress, completed, cancelled with its reason).
    case phase(PhaseEvent, PhaseUpdate)
    /// Call `timerFired(at:)` at this time (replaces any earlier request; nil: no timer needed;
    /// a time at or before now: at once). Always the first action of its `Actions`: a host that
    /// feeds the engine again while iterating (answering should-begin in-line) then ends with
    /// the newest request, as does a host that answers after the loop.
    case scheduleTimer(Timestamp?)
}

/// The actions one input produced, in order. Fixed capacity and stored inline, so it never
/// allocates. One input can produce several actions (a single sample may end the preview and
/// start the commit); the capacity covers the worst case. Hosts on the per-event path keep one
/// and pass it to the engine's `into:` inputs, which overwrite it: nothing of its ~500 bytes is
/// then initialised or copied per input (iterate it by index: `for i in actions.indices`; a
/// `for action in actions` loop copies it into its iterator).
public struct Actions: RandomAccessCollection, Sendable, CustomStringConvertible {
    private typealias Storage = InlineBuffer<6, Action>
    public static var capacity: Int { Storage.slotCount }
    /// Unused slots hold this (actions are plain values: nothing to release when overwritten).
    private static let unused = Action.scheduleTimer(nil)
    private var storage = Storage(filler: unused)
    public var count: Int { storage.count }
    /// Actions that did not fit (the engine's bound makes this 0; it reports any as an
    /// `EngineFault`): a full buffer drops rather than traps inside a compositor.
    public var dropped: Int { storage.dropped }

    public init() {}

    public typealias Indices = Range<Int>
    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    /// Empties it, keeping its storage (the engine's `into:` inputs do this first).
    public mutating func removeAll() { storage.removeAll() }

    /// Appends an action; beyond the capacity it is dropped and counted in `dropped`.
    public mutating func append(_ action: Action) { storage.append(action) }

    /// Puts an action in front (the engine's `.scheduleTimer`, see there). When full, the last
    /// action makes room (counted in `dropped`): without the timer the engine would stall.
    mutating func prepend(_ action: Action) { storage.prepend(action) }

    public mutating func append(contentsOf other: Actions) {
        for index in other.indices { append(other[index]) }
    }

    /// An index outside `indices` (a caller's bug) reads an unused slot rather than trap.
    public subscript(index: Int) -> Action { storage.at(index) ?? Actions.unused }

    /// The action after `index`, if any (hosts that hand two actions over together).
    public func element(after index: Int) -> Action? {
        index >= 0 && index < count - 1 ? self[index + 1] : nil
    }

    public var description: String { "[" + map { "\($0)" }.joined(separator: ", ") + "]" }
}
