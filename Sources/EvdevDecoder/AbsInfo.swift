/// An axis range as `EVIOCGABS` reports it and `libinput record` writes it:
/// `[minimum, maximum, fuzz, flat, resolution]`.
public struct AbsInfo: Hashable, Sendable {
    public var minimum: Int32
    public var maximum: Int32
    public var fuzz: Int32
    public var flat: Int32
    /// Units per millimetre for position axes, units per radian for tilt; 0 when unknown.
    public var resolution: Int32

    public init(minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
    }

    /// Whether the axis has a usable range.
    @inlinable public var hasRange: Bool { maximum > minimum }

    /// 0...1 across the range, clamped (hardware reports values outside its own range);
    /// 0 when the range is empty.
    @inlinable
    public func normalise(_ raw: Int32) -> Double {
        guard maximum > minimum else { return 0 }
        let value = (Double(raw) - Double(minimum)) / (Double(maximum) - Double(minimum))
        return min(1, max(0, value))
    }

    /// -1...1 around the centre of the range, clamped; 0 when the range is empty.
    @inlinable
    public func centred(_ raw: Int32) -> Double {
        normalise(raw) * 2 - 1
    }
}
