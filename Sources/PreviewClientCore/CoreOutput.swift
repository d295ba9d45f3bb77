/// What a host does for one input of `InteractionCore`: at most one request, at most one
/// message, and whether calls became ready for the app. Inline: no allocation.
public struct CoreOutput: Sendable, Equatable {
    /// A request for the compositor, on the interaction's object.
    public enum Request: Sendable, Equatable {
        case ackFrame(UInt32)
        case accept(UInt32)
        case decline(UInt32)
        case cancel(UInt32)
        /// Version 2: a haptic effect for a running press.
        case playHaptic(UInt32, effect: UInt32)
    }

    public var request: Request?
    public var message: CoreMessage?
    /// Calls are waiting for the app (`InteractionCore.takeCalls`): wake its thread.
    public var callsReady = false

    public init(request: Request? = nil, message: CoreMessage? = nil, callsReady: Bool = false) {
        self.request = request
        self.message = message
        self.callsReady = callsReady
    }
}

/// Something the compositor did wrong (or a limit the library applied), for the host's log.
/// The core has already dealt with it; the text is made only when a host logs it.
public enum CoreMessage: Sendable, Equatable, CustomStringConvertible {
    /// An event about an interaction never announced with should_begin: ignored.
    case unknownInteraction(PreviewWireEvent)
    /// An event about an interaction the compositor had already ended: ignored.
    case afterTheEnd(PreviewWireEvent)
    /// should_begin for an interaction already announced: not asked again.
    case repeatedShouldBegin(PreviewWireEvent)
    /// An event the interaction's phase does not allow, or a progress outside 0...1: the
    /// interaction was cancelled (desynchronised).
    case outOfOrder(PreviewWireEvent, phase: Stage)
    /// More interactions at once than the library keeps apart: the oldest (the first) was
    /// cancelled (desynchronised) to make room for the new one (the second).
    case evicted(UInt32, for: UInt32)
    /// A press began from a source that drives one press at a time while an older press of it
    /// ran: the older one (the first) was cancelled (desynchronised) for the new one (the second).
    case superseded(UInt32, by: UInt32, PreviewSource)
    /// Events of an interaction that no frame of its own closed (a later frame did).
    case unframed(UInt32)
    /// The connection or the global went away: every running interaction was cancelled.
    case connectionLost
    /// An event was dispatched on a thread other than the library's (the app dispatched the
    /// queue the library's objects live on elsewhere): dropped; said once per object.
    case misdispatched(PreviewWireEvent)

    /// Where a press was when an event broke the order. A plain value, so that every output
    /// is one too: hosts copy outputs on every event, with no reference to count.
    public enum Stage: Sendable, Equatable, CustomStringConvertible {
        case unansweredShouldBegin
        case acceptedShouldBegin
        case preview
        case commit
        case stages
        case end

        public var description: String {
            switch self {
            case .unansweredShouldBegin: "the unanswered should_begin"
            case .acceptedShouldBegin: "the accepted should_begin"
            case .preview: "the preview phase"
            case .commit: "the commit phase"
            case .stages: "the stages"
            case .end: "the end"
            }
        }
    }

    /// A warning (the compositor broke the protocol) or just information.
    public var isWarning: Bool {
        switch self {
        case .afterTheEnd, .connectionLost: false
        default: true
        }
    }

    public var description: String {
        switch self {
        case .unknownInteraction(let event):
            "ignored \(event.name) about interaction \(event.interaction), which was never announced"
        case .afterTheEnd(let event): "ignored \(event.name) about interaction \(event.interaction), which had ended"
        case .repeatedShouldBegin(let event):
            "should_begin repeated for interaction \(event.interaction): not asked again"
        case .outOfOrder(let event, let phase):
            "\(Self.describe(event)) during \(phase) of interaction \(event.interaction) breaks the protocol: cancelled it (desynchronised)"
        case .evicted(let oldest, let newcomer):
            "interaction \(newcomer) would be more than \(InteractionCore.maximumRunning) at once: cancelled the oldest, \(oldest), which the compositor never ended (desynchronised)"
        case .superseded(let older, let newer, let source):
            "interaction \(newer) began from the \(source) while its interaction \(older) ran, which the compositor never ended: cancelled \(older) (desynchronised)"
        case .unframed(let id): "events of interaction \(id) were never closed by its frame"
        case .connectionLost: "the compositor went away: running interactions cancelled (system)"
        case .misdispatched(let event):
            "\(event.name) was dispatched on a thread other than the one that made the library's objects: dropped (dispatch their queue on that thread)"
        }
    }

    private static func describe(_ event: PreviewWireEvent) -> String {
        switch event {
        case .preview(_, let progress): "preview \(progress)"
        case .commit(_, let progress): "commit \(progress)"
        case .cancelled(_, let reason): "cancelled \(PreviewCancelReason(wire: reason))"
        default: event.name
        }
    }
}
