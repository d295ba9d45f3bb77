import PreviewClientCore

/// What an app implements to follow the presses on its surface: UIPreviewInteractionDelegate's
/// methods, with the same meaning (docs/preview-interaction.md maps them one to one). Every
/// call is made on the app's thread (the one that dispatches the delivery queue), never on the
/// library's reading thread. `previewInteraction.currentPress` is the press a call is about.
public protocol PreviewInteractionDelegate: AnyObject {
    /// A press begins: may it become a preview interaction? Optional: yes by default. Called
    /// by the default `previewInteraction(_:shouldBegin:)`.
    func previewInteractionShouldBegin(_ previewInteraction: PreviewInteraction) -> Bool

    /// The asynchronous form: answer through `answer` now or later, from any thread (after a
    /// lookup, without blocking the event loop). Answer within the compositor's should-begin
    /// wait (150 ms by default) or the press is cancelled with `.timeout`. The default calls
    /// `previewInteractionShouldBegin(_:)` and answers at once.
    func previewInteraction(_ previewInteraction: PreviewInteraction, shouldBegin answer: PreviewAnswer)

    /// Progress through the preview phase, 0...1, repeatedly (it may go down). `ended` turns
    /// true once, with progress 1: the commit phase begins and no preview call follows.
    func previewInteraction(
        _ previewInteraction: PreviewInteraction, didUpdatePreviewTransition transitionProgress: Double, ended: Bool)

    /// Progress through the commit phase, 0...1. `ended` true: the interaction completed;
    /// perform the action (once). Optional.
    func previewInteraction(
        _ previewInteraction: PreviewInteraction, didUpdateCommitTransition transitionProgress: Double, ended: Bool)

    /// The press ended before completing (lifted, `cancel()`, timeout, device gone,
    /// …; `currentPress?.cancelReason` says which). Undo the interaction's visual effects.
    /// Not called for a press the app declined.
    func previewInteractionDidCancel(_ previewInteraction: PreviewInteraction)

    /// An accelerator's press changed level, 1...stages (version 2; see
    /// `PreviewInteraction.behaviours`): the first after the app accepted, then at every change,
    /// up or down. Optional.
    func previewInteraction(_ previewInteraction: PreviewInteraction, didChangeStage stage: UInt32)

    /// Whether haptic effects can be felt for the current press changed while it runs (the user
    /// turned haptics on or off; version 2). The value at should-begin is
    /// `currentPress?.hapticsAvailable`. Optional.
    func previewInteraction(_ previewInteraction: PreviewInteraction, didChangeHapticsAvailability available: Bool)
}

extension PreviewInteractionDelegate {
    public func previewInteractionShouldBegin(_ previewInteraction: PreviewInteraction) -> Bool { true }

    public func previewInteraction(_ previewInteraction: PreviewInteraction, shouldBegin answer: PreviewAnswer) {
        answer(previewInteractionShouldBegin(previewInteraction))
    }

    public func previewInteraction(
        _ previewInteraction: PreviewInteraction, didUpdateCommitTransition transitionProgress: Double, ended: Bool
    ) {}

    public func previewInteraction(_ previewInteraction: PreviewInteraction, didChangeStage stage: UInt32) {}

    public func previewInteraction(
        _ previewInteraction: PreviewInteraction, didChangeHapticsAvailability available: Bool
    ) {}
}

/// Why `PreviewInteraction.playHaptic` sent nothing.
public enum PreviewHapticError: Error, Sendable, Equatable {
    /// The compositor speaks protocol version 1.
    case unsupportedVersion
    /// No such press (or no current one; or the interaction is not available).
    case unknownPress
    /// The press's should-begin is not accepted yet.
    case notRunning
    /// The press already ended (a race with its end: harmless).
    case pressEnded
    /// Called from a thread other than the interaction's.
    case wrongThread
}

/// The answer to one should-begin, given once from any thread. An answer after the press
/// ended (a timeout) is ignored, as the protocol allows.
public final class PreviewAnswer: Sendable {
    /// The press asked about.
    public let press: PreviewPress
    private let relay: AnswerRelay
    private let once = OnceFlag()

    init(press: PreviewPress, relay: AnswerRelay) {
        self.press = press
        self.relay = relay
    }

    /// True once answered.
    public var isAnswered: Bool { once.isSet }

    public func accept() { callAsFunction(true) }
    public func decline() { callAsFunction(false) }

    /// Answers yes or no; later calls do nothing.
    public func callAsFunction(_ begin: Bool) {
        guard once.set() else { return }
        relay.answer(press.id, accept: begin)
    }
}
