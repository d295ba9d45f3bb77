/// A call the app receives about a press: UIPreviewInteractionDelegate's, in its order.
public enum DelegateCall: Sendable, Equatable {
    case shouldBegin
    case preview(Double, ended: Bool)
    case commit(Double, ended: Bool)
    case cancel(PreviewCancelReason)
    /// An accelerator's level changed (version 2).
    case stage(UInt32)
    /// An accelerator's press ended as its contact lifted: it keeps what it did. The UIKit-style
    /// APIs tell it as `commit(1, ended: true)`; toolkits tell it as the level going back to 0.
    case acceleratorEnded
    /// Whether effects can be felt changed while the press runs (version 2).
    case haptics(Bool)

    /// The last call about a press.
    var isTerminal: Bool {
        switch self {
        case .commit(_, ended: true), .cancel, .acceleratorEnded: true
        case .shouldBegin, .preview, .commit, .stage, .haptics: false
        }
    }

    /// A progress call that a later one of the same phase replaces (latest value wins).
    func isReplaced(by later: DelegateCall) -> Bool {
        switch (self, later) {
        case (.preview(_, ended: false), .preview(_, ended: false)),
            (.commit(_, ended: false), .commit(_, ended: false)),
            (.stage, .stage), (.haptics, .haptics):
            true
        default: false
        }
    }
}

/// One call with the press as it is at that call.
public struct CoreCall: Sendable, Equatable {
    public var press: PreviewPress
    public var call: DelegateCall

    public init(press: PreviewPress, call: DelegateCall) {
        self.press = press
        self.call = call
    }
}

/// Why the core refused an answer or a cancel of the app.
public enum CoreRefusal: Error, Sendable, Equatable {
    /// No press with this id was ever announced.
    case unknownPress
    /// The press already ended (a late answer after a timeout: harmless).
    case pressEnded
    /// The press was already answered.
    case alreadyAnswered
    /// The press is not running yet: its should-begin is not accepted (a haptic effect).
    case notRunning
}
