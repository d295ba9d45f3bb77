import PreviewEngine

/// The output that absolute devices (pens, touchscreens, touchpad fingers) are mapped onto,
/// in logical pixels. libinput's `*_transformed` coordinates use exactly this size.
public struct OutputSize: Hashable, Sendable {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
    public static let fullHD = OutputSize(width: 1920, height: 1080)
}

/// Time of a libinput event (CLOCK_MONOTONIC, microseconds) on the engine's clock.
@inline(__always)
func timestamp(_ usec: UInt64) -> Timestamp { Timestamp(microseconds: Int64(bitPattern: usec)) }
