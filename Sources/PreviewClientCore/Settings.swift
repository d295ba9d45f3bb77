/// The user's settings as the compositor tells them (protocol version 2, the manager's settings
/// group): an app's own recogniser (on raw tablet pressure, say) uses them to agree with the
/// compositor. They are the user's: nothing lets an app change them.
public struct PreviewUserSettings: Sendable, Hashable {
    /// The sensitivity preset the user chose.
    public enum Sensitivity: UInt32, Sendable {
        case light = 1
        case medium = 2
        case firm = 3
        /// Thresholds that match no preset: see `thresholds`.
        case custom = 4
    }

    /// Whether, and how strongly, the user wants haptic feedback.
    public enum Haptics: UInt32, Sendable {
        case off = 0
        case light = 1
        case medium = 2
        case strong = 3
    }

    /// What ends the commit phase with completion.
    public enum Completion: UInt32, Sendable {
        /// The force reaches the completion threshold (and stays near it for a short dwell).
        case onForce = 1
        /// The contact lifts (or the key is released) during the commit phase.
        case onRelease = 2
    }

    /// The preset's force thresholds, on a force normalised to 0...1 of the device.
    public struct Thresholds: Sendable, Hashable {
        /// A press at least this firm asks should-begin.
        public var begin: Double
        /// The preview phase ends and the commit phase begins.
        public var commit: Double
        /// The commit phase completes (with completion `onForce`).
        public var complete: Double

        public init(begin: Double, commit: Double, complete: Double) {
            self.begin = begin
            self.commit = commit
            self.complete = complete
        }
    }

    public var sensitivity: Sensitivity
    public var thresholds: Thresholds
    /// How long a contact without force, or the preview key, is held before should-begin, ms.
    public var longPressMilliseconds: UInt32
    public var haptics: Haptics
    public var completion: Completion

    public init(
        sensitivity: Sensitivity = .medium, thresholds: Thresholds = Thresholds(begin: 0, commit: 0, complete: 0),
        longPressMilliseconds: UInt32 = 0, haptics: Haptics = .off, completion: Completion = .onForce
    ) {
        self.sensitivity = sensitivity
        self.thresholds = thresholds
        self.longPressMilliseconds = longPressMilliseconds
        self.haptics = haptics
        self.completion = completion
    }
}

/// One settings event of the manager as read, for `SettingsGroup`.
public enum PreviewSettingsEvent: Sendable, Equatable {
    case sensitivity(UInt32)
    case thresholds(begin: Double, commit: Double, complete: Double)
    case longPressDuration(milliseconds: UInt32)
    case haptics(UInt32)
    case completion(UInt32)
    case done
}

/// The settings group as the client reads it: values are kept until settings_done, then
/// applied together. Pure; untrusted: a value that names no entry keeps the setting as it was
/// (and is reported), so a newer compositor's values never break an older library.
public struct SettingsGroup: Sendable {
    /// The settings applied at the last settings_done; nil until the first.
    public private(set) var current: PreviewUserSettings?
    private var pending = PreviewUserSettings()
    /// Applied groups so far (a change counter the host compares).
    public private(set) var generation: UInt64 = 0

    public init() {}

    /// One event; returns a message when a value was not understood.
    public mutating func read(_ event: PreviewSettingsEvent) -> String? {
        switch event {
        case .sensitivity(let value):
            guard let sensitivity = PreviewUserSettings.Sensitivity(rawValue: value) else {
                return "ignored sensitivity \(value), which names no preset"
            }
            pending.sensitivity = sensitivity
        case .thresholds(let begin, let commit, let complete):
            guard 0 <= begin, begin < commit, commit < complete, complete <= 1 else {
                return "ignored thresholds \(begin) \(commit) \(complete), which are out of order"
            }
            pending.thresholds = .init(begin: begin, commit: commit, complete: complete)
        case .longPressDuration(let milliseconds): pending.longPressMilliseconds = milliseconds
        case .haptics(let value):
            guard let haptics = PreviewUserSettings.Haptics(rawValue: value) else {
                return "ignored haptics setting \(value), which names none"
            }
            pending.haptics = haptics
        case .completion(let value):
            guard let completion = PreviewUserSettings.Completion(rawValue: value) else {
                return "ignored completion \(value), which names no rule"
            }
            pending.completion = completion
        case .done:
            current = pending
            generation += 1
        }
        return nil
    }
}
