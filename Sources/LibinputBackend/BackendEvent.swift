import EvdevDecoder
import InputEvents
import PreviewEngine

/// What the backend reports to its host: the recording decoder's own `DeviceEvent`s (see
/// Sources/InputEvents/DeviceEvent.swift for the contract), so a host treats a recording and
/// the real libinput the same way, plus device arrival and removal.
public enum BackendEvent: Hashable, Sendable {
    case deviceAdded(BackendDevice)
    /// The device is gone. Its open contacts were ended just before with `.deviceRemoved`
    /// (`.input(.contactEnded(..., reason: .deviceRemoved))`).
    case deviceRemoved(DeviceID, at: Timestamp)
    case input(DeviceEvent)
}

/// A device as the backend sees it once libinput has accepted it.
public struct BackendDevice: Hashable, Sendable {
    public var id: DeviceID
    public var name: String
    public var kind: DeviceKind
    /// False when its contacts use the long-press fallback.
    public var hasForce: Bool
    /// Where the force comes from, for logs and tests ("libinput tablet pressure",
    /// "evdev ABS_MT_PRESSURE 0...255", "none").
    public var forceOrigin: String

    public init(id: DeviceID, name: String, kind: DeviceKind, hasForce: Bool, forceOrigin: String) {
        self.id = id
        self.name = name
        self.kind = kind
        self.hasForce = hasForce
        self.forceOrigin = forceOrigin
    }
}
