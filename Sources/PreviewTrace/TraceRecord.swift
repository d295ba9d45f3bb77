import PreviewEngine

/// What happened to an interaction. The JSON spelling is the raw value.
public enum TraceEvent: String, Hashable, Sendable, CaseIterable {
    /// The client was asked whether the interaction may begin (only in verbose traces).
    case shouldBegin = "should-begin"
    case preview
    /// `ended == true` on a commit means the interaction completed.
    case commit
    case cancel
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
    public var event: TraceEvent
    public var progress: Double
    public var ended: Bool
    /// Where the contact was, surface-local (the replay's one surface covers its virtual output).
    public var location: Point
    /// Set on `.cancel` only.
    public var reason: CancelReason?
    /// The compositor's surface and client the event went to.
    public var surface: SurfaceID?
    public var client: String?
    /// The force (0...1) the engine judged this event on (`PhaseUpdate.force`), on the record's
    /// own clock: what a plot of force against progress needs. Nil in traces written before it.
    public var force: Double?

    public init(
        time: Timestamp, device: String, source: InputSource, simulated: Bool, interaction: InteractionID,
        event: TraceEvent, progress: Double, ended: Bool, location: Point, reason: CancelReason? = nil,
        surface: SurfaceID? = nil, client: String? = nil, force: Double? = nil
    ) {
        self.time = time
        self.device = device
        self.source = source
        self.simulated = simulated
        self.interaction = interaction
        self.event = event
        self.progress = progress
        self.ended = ended
        self.location = location
        self.reason = reason
        self.surface = surface
        self.client = client
        self.force = force
    }

    /// The record for an engine action; nil for `.scheduleTimer`, which is not an interaction event.
    public init?(_ action: Action, device: String, surface: SurfaceID? = nil, client: String? = nil) {
        let update: PhaseUpdate
        let event: TraceEvent
        var reason: CancelReason?
        switch action {
        case .askShouldBegin(let value): (update, event) = (value, .shouldBegin)
        case .preview(let value): (update, event) = (value, .preview)
        case .commit(let value): (update, event) = (value, .commit)
        case .cancel(let value, let why): (update, event, reason) = (value, .cancel, why)
        case .scheduleTimer: return nil
        }
        self.init(
            time: update.time, device: device, source: update.source, simulated: update.simulated,
            interaction: update.interaction, event: event, progress: update.progress, ended: update.ended,
            location: update.location, reason: reason, surface: surface, client: client, force: update.force)
    }

    /// Whether this record ends its interaction (completed or cancelled).
    public var isFinal: Bool {
        switch event {
        case .commit: ended
        case .cancel: true
        case .shouldBegin, .preview: false
        }
    }
}
