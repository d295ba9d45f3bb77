/// Maps a device's raw axis value to 0...1 using the range the device reports
/// (evdev absinfo minimum and maximum). Shared by the recording decoder and the
/// libinput backend so the engine cannot tell them apart.
public struct ForceNormaliser: Hashable, Sendable {
    public var minimum: Int32
    public var maximum: Int32

    /// Nil when the axis has no usable range (max <= min): such a device has no force.
    public init?(minimum: Int32, maximum: Int32) {
        guard maximum > minimum else { return nil }
        self.minimum = minimum
        self.maximum = maximum
    }

    /// Clamped: hardware reports values outside its own absinfo range.
    @inlinable
    public func normalise(_ raw: Int32) -> Double {
        let value = (Double(raw) - Double(minimum)) / (Double(maximum) - Double(minimum))
        return min(1, max(0, value))
    }
}
