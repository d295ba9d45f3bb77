/// The libinput quirks that decide whether a touch device's pressure axis can be trusted
/// and where its range starts. Lines as `libinput quirks list DEVICE` prints them (and as
/// a `libinput record` file's `quirks:` list holds them), e.g. "AttrPressureRange=10:8".
public struct PressureQuirks: Hashable, Sendable {
    /// libinput's touch-down / touch-up pressure thresholds for the device.
    public var pressureRange: (high: Int32, low: Int32)?

    public init() {}

    /// Unknown keys are ignored; a malformed AttrPressureRange is ignored like libinput does.
    public init(lines: [String]) {
        for line in lines {
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: " ") }
            guard parts.count == 2, parts[0] == "AttrPressureRange" else { continue }
            let numbers = parts[1].split(separator: ":").compactMap { Int32($0) }
            if numbers.count == 2 { pressureRange = (numbers[0], numbers[1]) }
        }
    }

    /// libinput's way of saying "this device's pressure is garbage": a 0:0 range.
    public var disablesPressure: Bool {
        guard let pressureRange else { return false }
        return pressureRange.high == 0 && pressureRange.low == 0
    }

    /// The raw value below which libinput considers the finger lifted: force 0 starts there.
    public var floor: Int32? { pressureRange.map { $0.low } }

    public static func == (lhs: PressureQuirks, rhs: PressureQuirks) -> Bool {
        lhs.pressureRange?.high == rhs.pressureRange?.high && lhs.pressureRange?.low == rhs.pressureRange?.low
    }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(pressureRange?.high)
        hasher.combine(pressureRange?.low)
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: Character) -> Substring {
        var slice = self
        while slice.first == set { slice = slice.dropFirst() }
        while slice.last == set { slice = slice.dropLast() }
        return slice
    }
}
