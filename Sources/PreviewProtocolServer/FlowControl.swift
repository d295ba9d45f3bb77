import PreviewEngine

/// What a client has been told about one interaction, and the progress it has not been
/// told yet. Progress is coalesced here (latest value wins) while the client owes an
/// ack_frame; phase changes are never coalesced. Fixed size: no allocation per sample.
/// The phase is the engine's alone: events arrive here in its order.
struct OutgoingInteraction {
    enum Progress: Equatable {
        case preview(Double)
        case commit(Double)
        /// An accelerator's stage level: coalesced like progress (the latest level wins).
        case stage(UInt8)
    }

    let interaction: InteractionID
    /// The `interaction` argument on the wire.
    let wire: UInt32
    /// The last haptics state sent (version 2), to send it again only when it changes.
    var hapticsAvailable = false
    /// The last location sent to the client.
    var sentLocation: Point
    /// Not yet sent: the latest location and progress, and the time of the latest sample.
    var pendingLocation: Point?
    var pendingProgress: Progress?
    var pendingTime: Timestamp?
    /// When the pending progress was first held (µs, MonotonicClock), for `FlowStatistics`.
    var heldSince: Int64?

    init(interaction: InteractionID, wire: UInt32, location: Point) {
        self.interaction = interaction
        self.wire = wire
        self.sentLocation = location
    }

    var hasPending: Bool { pendingLocation != nil || pendingProgress != nil }

    /// Records a progress sample; the previous pending value, if any, is superseded.
    mutating func coalesce(_ progress: Progress, location: Point, time: Timestamp) {
        pendingProgress = progress
        pendingLocation = location == sentLocation ? nil : location
        pendingTime = time
    }

    /// Takes what is pending, for sending now.
    mutating func takePending() -> (location: Point?, progress: Progress?, time: Timestamp?) {
        defer {
            if let pendingLocation { sentLocation = pendingLocation }
            pendingLocation = nil
            pendingProgress = nil
            pendingTime = nil
            heldSince = nil
        }
        return (pendingLocation, pendingProgress, pendingTime)
    }
}

/// Which should_begin serials a client has answered, for the already_answered error.
/// Remembers the latest `capacity` questions; answers to older ones are ignored (they
/// can only be late answers to interactions that ended long ago).
struct AnswerBook {
    static let capacity = 64
    private var answered: [UInt32: Bool] = [:]
    private var oldestRemembered: UInt32 = 1

    enum Verdict: Equatable {
        case first
        case again
        case forgotten
    }

    mutating func asked(_ wire: UInt32) {
        answered[wire] = false
        while answered.count > Self.capacity {
            answered[oldestRemembered] = nil
            oldestRemembered &+= 1
        }
    }

    mutating func answer(_ wire: UInt32) -> Verdict {
        guard let already = answered[wire] else { return .forgotten }
        if already { return .again }
        answered[wire] = true
        return .first
    }
}
