import PreviewEngine

/// What the backend reports to its host: exactly the engine's inputs (the same ones the
/// recording decoder produces), plus device arrival and pointer motion for the host's cursor.
public enum BackendEvent: Hashable, Sendable {
    case deviceAdded(DeviceDescription)
    /// The device is gone; its contacts end with `.deviceRemoved` (`InteractionEngine.deviceRemoved`).
    case deviceRemoved(DeviceID, at: Timestamp)
    /// `InteractionEngine.contactBegan`; `hasForce == false` selects the long-press fallback.
    case contactBegan(ForceSample, hasForce: Bool)
    case forceChanged(ForceSample)
    case contactEnded(ContactKey, at: Timestamp, reason: CancelReason)
    /// Relative pointer motion (touchpads, mice) in libinput's accelerated units.
    case pointerMotion(DeviceID, dx: Double, dy: Double, at: Timestamp)
}

/// A device as the backend sees it once libinput has accepted it.
public struct DeviceDescription: Hashable, Sendable {
    public var id: DeviceID
    public var name: String
    /// The source its contacts report.
    public var source: InputSource
    /// False when its contacts use the long-press fallback.
    public var hasForce: Bool
    /// Where the force comes from, for logs and tests ("libinput tablet pressure",
    /// "evdev ABS_MT_PRESSURE 0...255", "none").
    public var forceOrigin: String

    public init(id: DeviceID, name: String, source: InputSource, hasForce: Bool, forceOrigin: String) {
        self.id = id
        self.name = name
        self.source = source
        self.hasForce = hasForce
        self.forceOrigin = forceOrigin
    }
}
