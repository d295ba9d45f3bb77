/// One press the compositor reported on the surface (one finger, pen or button), as a call
/// about it sees it: `PreviewInteraction.currentPress` is the press of the call in progress,
/// so a delegate tells simultaneous presses apart by `id`.
public struct PreviewPress: Sendable, Hashable, Identifiable {
    public enum Phase: Sendable, Hashable {
        /// should-begin was asked; the app has not seen progress yet.
        case asking
        case preview
        case commit
        /// An accelerator's press, accepted: its level is `stage` (0 until the first).
        case accelerating
        case completed
        case cancelled(PreviewCancelReason)
        /// Declined (by the app, or by the library for a press no item takes): nothing more is
        /// reported about it.
        case declined

        /// The phase's number in the project's one vocabulary (rules/vocabulary.txt): the C
        /// library's `preview_interaction_client_phase`, GTK's `PiPhase`, Qt's `Phase`.
        public var code: UInt32 {
            switch self {
            case .asking: 1
            case .preview: 2
            case .commit: 3
            case .completed: 4
            case .cancelled: 5
            case .accelerating: 6
            case .declined: 7
            }
        }
    }

    /// Unique on the interaction (the protocol's interaction number, from 1).
    public let id: UInt32
    /// The device, or `nil` for a value this library does not know (a newer compositor).
    public let source: PreviewSource?
    /// Measured or simulated (long press) force; `nil` if unknown.
    public let force: PreviewForce?
    /// Where the contact is, surface-local.
    public internal(set) var location: PreviewPoint
    public internal(set) var phase: Phase
    /// The progress of the current phase, 0...1.
    public internal(set) var progress: Double
    /// The timestamp of the latest hardware event about the press, µs (the clock of core
    /// input event times: divided by 1000 and truncated to 32 bits it is their `time`).
    public internal(set) var timestamp: UInt64
    /// What force means for this press (protocol version 2; `deepClick` on version 1): told with
    /// should-begin, fixed for the press's life.
    public internal(set) var behaviour: PreviewBehaviour = .deepClick
    /// An accelerator's level, 1...stages (0 before the first, and for other behaviours).
    public internal(set) var stage: UInt32 = 0
    /// Whether haptic effects asked for during this press can be felt (protocol version 2: the
    /// device has actuators and the user has haptics on; false on version 1).
    public internal(set) var hapticsAvailable = false

    /// True once completed, cancelled or declined.
    public var hasEnded: Bool {
        switch phase {
        case .asking, .preview, .commit, .accelerating: false
        case .completed, .cancelled, .declined: true
        }
    }

    /// The cancel reason, once cancelled (`declined` for a declined press).
    public var cancelReason: PreviewCancelReason? {
        switch phase {
        case .cancelled(let reason): reason
        case .declined: .declined
        case .asking, .preview, .commit, .accelerating, .completed: nil
        }
    }
}

/// One event as the library read it, for logs and diagnostics (`PreviewInteraction.wireObserver`),
/// and the input of `InteractionCore.read(_:)`.
public enum PreviewWireEvent: Sendable, Equatable {
    case shouldBegin(interaction: UInt32, source: UInt32, force: UInt32)
    case location(interaction: UInt32, x: Double, y: Double)
    case preview(interaction: UInt32, progress: Double)
    case previewEnded(interaction: UInt32)
    case commit(interaction: UInt32, progress: Double)
    case completed(interaction: UInt32)
    case cancelled(interaction: UInt32, reason: UInt32)
    /// `time` is the hardware event's timestamp in µs (`utime_hi << 32 | utime_lo`).
    case frame(interaction: UInt32, serial: UInt32, time: UInt64)
    /// Version 2: the press's behaviour (in should_begin's frame).
    case behaviour(interaction: UInt32, behaviour: UInt32, stages: UInt32)
    /// Version 2: an accelerator's level.
    case stage(interaction: UInt32, stage: UInt32)
    /// Version 2: whether effects can be felt for the press (1 available, 0 not).
    case haptics(interaction: UInt32, state: UInt32)

    public var interaction: UInt32 {
        switch self {
        case .shouldBegin(let id, _, _), .location(let id, _, _), .preview(let id, _), .previewEnded(let id),
            .commit(let id, _), .completed(let id), .cancelled(let id, _), .frame(let id, _, _),
            .behaviour(let id, _, _), .stage(let id, _), .haptics(let id, _):
            id
        }
    }

    /// The protocol's event name.
    public var name: String {
        switch self {
        case .shouldBegin: "should_begin"
        case .location: "location"
        case .preview: "preview"
        case .previewEnded: "preview_ended"
        case .commit: "commit"
        case .completed: "completed"
        case .cancelled: "cancelled"
        case .frame: "frame"
        case .behaviour: "behaviour"
        case .stage: "stage"
        case .haptics: "haptics"
        }
    }
}
