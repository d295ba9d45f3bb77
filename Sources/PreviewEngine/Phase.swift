// The engine's phase output: every host (compositor, protocol server, trace, demo, C API)
// reads an interaction's phases from these, so none of them re-derives them from flags.

/// Where an interaction stands, as a host or a person sees it.
public enum Phase: String, Hashable, Sendable, CaseIterable {
    /// Should-begin was asked; no answer yet.
    case asking = "should-begin"
    case preview
    case commit
    /// An accelerator's interaction after the client agreed: stage levels instead of preview
    /// and commit (`PressureBehaviour.accelerator`).
    case accelerator
    case completed
    case cancelled

    /// Completed or cancelled: nothing follows.
    public var isFinal: Bool {
        switch self {
        case .completed, .cancelled: true
        case .asking, .preview, .commit, .accelerator: false
        }
    }
}

/// One step of an interaction after the client agreed, in the order a host sees them:
///
///     previewBegan ─► previewProgress* ─► previewEnded ─► commitProgress* ─► completed
///          └──────────────── cancelled(reason) at any point before completed ─────┘
///
/// `previewEnded` is also the first preview event when the force was already past the
/// commit threshold when the client agreed (the preview began and ended at once).
/// `cancelled` may also follow should-begin directly (declined, timeout, lifted...).
///
/// An accelerator (`PressureBehaviour.accelerator`) has no preview or commit: after the client
/// agreed it reports `stage(1)`, then `stage(n)` at each change of level, and ends with
/// `completed` when the contact lifts (or `cancelled(reason)`).
public enum PhaseEvent: Hashable, Sendable, CustomStringConvertible {
    /// The client agreed; preview progress starts (UIKit: the first `didUpdatePreviewTransition`).
    case previewBegan
    case previewProgress
    /// The preview phase is over and the commit phase begins: the host takes the contact away
    /// from core input (`didUpdatePreviewTransition:ended:YES`).
    case previewEnded
    case commitProgress
    /// The commit phase finished: the pop (`didUpdateCommitTransition:ended:YES`).
    case completed
    /// Over without completing (`previewInteractionDidCancel`).
    case cancelled(CancelReason)
    /// An accelerator's stage level (1...stages): the first when the client agreed, then each change.
    case stage(UInt8)

    /// The phase the interaction is in after this event.
    public var phase: Phase {
        switch self {
        case .previewBegan, .previewProgress: .preview
        case .previewEnded, .commitProgress: .commit
        case .completed: .completed
        case .cancelled: .cancelled
        case .stage: .accelerator
        }
    }

    /// The interaction entered a new phase with this event (progress events stay in theirs).
    public var changesPhase: Bool {
        switch self {
        case .previewBegan, .previewEnded, .completed, .cancelled: true
        // Levels are progress: the protocol coalesces them (the accelerator begins with stage 1).
        case .previewProgress, .commitProgress, .stage: false
        }
    }

    /// Completed or cancelled: the interaction's one terminal event.
    public var isFinal: Bool { phase.isFinal }

    /// True for the events of the preview phase (the protocol's `preview` event carries them).
    public var isPreview: Bool {
        switch self {
        case .previewBegan, .previewProgress, .previewEnded: true
        case .commitProgress, .completed, .cancelled, .stage: false
        }
    }

    /// True for the events that close their phase (the protocol's and UIKit's `ended` argument).
    public var endsPhase: Bool {
        switch self {
        case .previewEnded, .completed: true
        case .previewBegan, .previewProgress, .commitProgress, .cancelled, .stage: false
        }
    }

    /// The cancel reason, for `cancelled`.
    public var cancelReason: CancelReason? {
        switch self {
        case .cancelled(let reason): reason
        case .previewBegan, .previewProgress, .previewEnded, .commitProgress, .completed, .stage: nil
        }
    }

    /// The trace's and docs' spelling: `preview-began`, `cancelled`...
    public var description: String {
        switch self {
        case .previewBegan: "preview-began"
        case .previewProgress: "preview-progress"
        case .previewEnded: "preview-ended"
        case .commitProgress: "commit-progress"
        case .completed: "completed"
        case .cancelled: "cancelled"
        case .stage: "stage"
        }
    }

    /// Parses `description` (a cancel's reason and a stage's level come separately).
    public init?(name: String, reason: CancelReason?, stage: UInt8? = nil) {
        switch name {
        case "preview-began": self = .previewBegan
        case "preview-progress": self = .previewProgress
        case "preview-ended": self = .previewEnded
        case "commit-progress": self = .commitProgress
        case "completed": self = .completed
        case "cancelled": self = .cancelled(reason ?? .system)
        case "stage": self = .stage(stage ?? 1)
        default: return nil
        }
    }
}
