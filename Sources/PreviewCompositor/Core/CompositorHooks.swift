import InputEvents
import PreviewEngine

/// What tests watch, in one place: each is called on the compositor's thread, never by the
/// executable (which sets none).
public struct CompositorHooks {
    /// A toplevel was mapped (tests wait on it).
    public var onToplevelMapped: ((SurfaceID) -> Void)?
    /// Every device event an input backend hands to the input path (a replay's: on the
    /// monotonic clock, devices renumbered per file).
    public var onInputEvent: ((DeviceEvent) -> Void)?

    public init() {}
}
