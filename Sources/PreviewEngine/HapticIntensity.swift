/// The user's haptics setting (`--haptics`): off, or how strong the clicks are. Never the app's.
public enum HapticIntensity: String, Hashable, Sendable, CaseIterable {
    case off, light, medium, strong

    /// The effects' intensity in percent (struct ff_haptic_effect), nil when off.
    public var percent: UInt16? {
        switch self {
        case .off: nil
        case .light: 40
        case .medium: 70
        case .strong: 100
        }
    }
}
