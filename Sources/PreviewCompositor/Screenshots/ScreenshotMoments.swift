import PreviewEngine
import PreviewTrace

/// When each phase screenshot is taken (docs/compositor.md, "Screenshot moments"). A moment is
/// due on the interaction surface's first wl_surface.commit after the client acknowledged
/// (ack_frame) the frame event that carried it: clients ack in their frame handler, then draw
/// and commit, so that commit shows their reaction. `settled` waits for the first such commit
/// that asks for no frame callback (the client's animation is over). Clients that never ack
/// or commit get the shot at a deadline instead. Pure: time (µs, monotonic) is passed in.
struct ScreenshotMoments {
    /// The label contract is shared with the demo report (PreviewTrace).
    typealias Moment = ScreenshotMoment

    /// What a pending moment still waits for.
    enum Waiting: Equatable, Sendable {
        /// The frame event that carries it (progress may be coalesced until the client acks).
        case frame
        /// The client's ack of this frame serial (or a later one).
        case ack(UInt32)
        /// The surface's next commit (for `settled`: the next one without a frame callback).
        case commit
    }

    enum Trigger: Equatable, Sendable {
        /// The first (settled: first quiet) commit after the client acknowledged `frame`.
        case commit(frame: UInt32)
        /// The deadline passed while still waiting.
        case fallback(Waiting)
    }

    struct Shot: Equatable, Sendable {
        var interaction: InteractionID
        var moment: Moment
        var trigger: Trigger
        /// From the event to the shot, µs.
        var delay: Int64
        /// `interaction<K>-<moment>`, the file name's label.
        var label: String { moment.label(interaction: interaction) }
    }

    /// A client that has not acknowledged and redrawn within this long gets the shot anyway.
    /// Generous: a debug-build client on a loaded two-core CI machine takes over 250 ms to draw
    /// a frame now and then, and a correct client must still be photographed on its commit.
    static let fallback: Int64 = 1_000_000
    /// How long `settled` waits for the client's animation to finish (a pop takes 0.3 s, an
    /// action's confirmation toast 1.8 s).
    static let settleBound: Int64 = 3_000_000

    private struct Pending {
        var interaction: InteractionID
        var surface: SurfaceID
        var moment: Moment
        var since: Int64
        var deadline: Int64
        var waiting: Waiting
        var frame: UInt32 = 0
    }

    /// In the order the moments occurred (the order shots are taken when several are due at once).
    private var pending: [Pending] = []

    var isEmpty: Bool { pending.isEmpty }

    /// The earliest deadline, for the host's timer.
    var nextDeadline: Int64? { pending.map(\.deadline).min() }

    /// A moment happened, before the engine action that carries it is sent to the client.
    /// `completed` and `cancelled` also start waiting for `settled`.
    mutating func occurred(_ moment: Moment, interaction: InteractionID, surface: SurfaceID, at now: Int64) {
        pending.append(
            Pending(
                interaction: interaction, surface: surface, moment: moment, since: now, deadline: now + Self.fallback,
                waiting: .frame))
        if moment == .completed || moment == .cancelled {
            pending.append(
                Pending(
                    interaction: interaction, surface: surface, moment: .settled, since: now,
                    deadline: now + Self.settleBound, waiting: .frame))
        }
    }

    /// A frame event about `interaction` went to the client of `surface`.
    mutating func frameSent(interaction: InteractionID, surface: SurfaceID, serial: UInt32) {
        for index in pending.indices
        where pending[index].interaction == interaction && pending[index].surface == surface
            && pending[index].waiting == .frame
        {
            pending[index].waiting = .ack(serial)
            pending[index].frame = serial
        }
    }

    /// The client of `surface` sent ack_frame(`serial`) (serials count per interaction object,
    /// one per surface). The most recent ack before a commit names the last frame the commit
    /// shows: a client that acknowledges frames as it reads them (on another thread, while it
    /// draws) repeats the serial it has applied right before committing, so a moment it has
    /// read but not yet drawn waits for its ack again.
    mutating func acknowledged(surface: SurfaceID, serial: UInt32) {
        for index in pending.indices where pending[index].surface == surface {
            switch pending[index].waiting {
            case .ack(let awaited) where awaited <= serial:
                pending[index].waiting = .commit
            case .commit where pending[index].frame > serial:
                pending[index].waiting = .ack(pending[index].frame)
            case .frame, .ack, .commit:
                break
            }
        }
    }

    /// `surface` was committed; `requestedFrame`: the commit carried a frame callback.
    mutating func committed(surface: SurfaceID, requestedFrame: Bool, at now: Int64) -> [Shot] {
        take(at: now, trigger: { .commit(frame: $0.frame) }) {
            $0.surface == surface && $0.waiting == .commit && ($0.moment != .settled || !requestedFrame)
        }
    }

    /// Moments whose deadline passed.
    mutating func expired(at now: Int64) -> [Shot] {
        take(at: now, trigger: { .fallback($0.waiting) }) { $0.deadline <= now }
    }

    /// Moves every deadline later (the compositor was busy and could not hear clients).
    mutating func postpone(by microseconds: Int64) {
        guard microseconds > 0 else { return }
        for index in pending.indices { pending[index].deadline += microseconds }
    }

    /// Everything still pending, now (the compositor is shutting down).
    mutating func flush(at now: Int64) -> [Shot] {
        take(at: now, trigger: { .fallback($0.waiting) }) { _ in true }
    }

    private mutating func take(at now: Int64, trigger: (Pending) -> Trigger, where due: (Pending) -> Bool) -> [Shot] {
        guard pending.contains(where: due) else { return [] }
        var shots: [Shot] = []
        pending.removeAll { entry in
            guard due(entry) else { return false }
            shots.append(
                Shot(
                    interaction: entry.interaction, moment: entry.moment, trigger: trigger(entry),
                    delay: now - entry.since))
            return true
        }
        return shots
    }
}
