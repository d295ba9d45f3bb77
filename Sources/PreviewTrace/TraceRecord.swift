import PreviewEngine

/// The protocol event a record went out as (the JSON `event` key). The JSON spelling is the raw value.
public enum TraceEvent: String, Hashable, Sendable, CaseIterable {
    /// The client was asked whether the interaction may begin (only in verbose traces).
    case shouldBegin = "should-begin"
    case preview
    case commit
    case cancel
    /// An accelerator's stage level (protocol version 2's `stage`).
    case stage
}

/// One line of a trace: one engine output, as `preview-replay` prints it and the compositor's
/// `--trace` writes it. Fields beyond the replay's (`surface`, `client`) are for the compositor;
/// nil fields are left out of the output.
public struct TraceRecord: Hashable, Sendable {
    public var time: Timestamp
    /// The device's name (evdev name).
    public var device: String
    public var source: InputSource
    public var simulated: Bool
    public var interaction: InteractionID
    /// The engine's phase event; nil for should-begin (a question, not a phase).
    public var phase: PhaseEvent?
    public var progress: Double
    /// Where the contact was, surface-local (the replay's one surface covers its virtual output).
    public var location: Point
    /// The compositor's surface and client the event went to.
    public var surface: SurfaceID?
    public var client: String?
    /// The force (0...1) the engine judged this event on (`PhaseUpdate.force`), on the record's
    /// own clock: what a plot of force against progress needs. Nil in traces written before it.
    public var force: Double?

    public init(
        time: Timestamp, device: String, source: InputSource, simulated: Bool, interaction: InteractionID,
        phase: PhaseEvent?, progress: Double, location: Point, surface: SurfaceID? = nil, client: String? = nil,
        force: Double? = nil
    ) {
        self.time = time
        self.device = device
        self.source = source
        self.simulated = simulated
        self.interaction = interaction
        self.phase = phase
        self.progress = progress
        self.location = location
        self.surface = surface
        self.client = client
        self.force = force
    }

    /// The record for an engine action; nil for `.scheduleTimer`, which is not an interaction event.
    public init?(_ action: Action, device: String, surface: SurfaceID? = nil, client: String? = nil) {
        let update: PhaseUpdate
        let phase: PhaseEvent?
        switch action {
        case .askShouldBegin(let value): (update, phase) = (value, nil)
        case .phase(let event, let value): (update, phase) = (value, event)
        case .scheduleTimer: return nil
        }
        self.init(
            time: update.time, device: device, source: update.source, simulated: update.simulated,
            interaction: update.interaction, phase: phase, progress: update.progress, location: update.location,
            surface: surface, client: client, force: update.force)
    }

    /// The protocol event this record went out as.
    public var event: TraceEvent {
        guard let phase else { return .shouldBegin }
        switch phase {
        case .previewBegan, .previewProgress, .previewEnded: return .preview
        case .commitProgress, .completed: return .commit
        case .cancelled: return .cancel
        case .stage: return .stage
        }
    }

    /// The protocol's `ended` argument (preview ended, or completed).
    public var ended: Bool { phase?.endsPhase ?? false }

    /// Set on a cancel only.
    public var reason: CancelReason? { phase?.cancelReason }

    /// Set on an accelerator's stage only.
    public var stage: UInt8? {
        guard case .stage(let level)? = phase else { return nil }
        return level
    }

    /// The phase the interaction is in after this record (`.asking` for should-begin).
    public var phaseAfter: Phase { phase?.phase ?? .asking }

    /// Whether this record ends its interaction (completed or cancelled).
    public var isFinal: Bool { phase?.isFinal ?? false }
}
