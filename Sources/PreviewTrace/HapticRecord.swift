import PreviewEngine

/// One haptic effect played on (or, in a replay, due on) a haptic pad: a trace line of its own,
/// told apart from the phase records by `"event":"haptic"` (trace readers skip it).
public struct HapticRecord: Hashable, Sendable {
    /// The device's name.
    public var device: String
    /// `press`, `deep-click` or `release`.
    public var effect: String
    /// The HID Haptics page waveform (WAVEFORM_PRESS 0x1006, ...).
    public var waveform: UInt16
    /// The time of the event that caused it (the frame, or the engine's phase event).
    public var time: Timestamp

    public init(device: String, effect: String, waveform: UInt16, time: Timestamp) {
        self.device = device
        self.effect = effect
        self.waveform = waveform
        self.time = time
    }

    /// `bcm5974  HAPTIC  +0.032s  press (waveform 0x1006)`, in the phase lines' columns.
    public func humanLine(nameWidth: Int) -> String {
        TraceColumns.prefix(name: device, nameWidth: nameWidth, kind: "HAPTIC", time: time)
            + "\(effect) (waveform 0x\(String(waveform, radix: 16)))"
    }

    /// `{"time_us":32012,"device":"bcm5974","event":"haptic","effect":"press","waveform":4102}`.
    public var jsonLine: String {
        var line = "{\"time_us\":\(time.microseconds),\"device\":"
        JSON.appendString(device, to: &line)
        line += ",\"event\":\"haptic\",\"effect\":"
        JSON.appendString(effect, to: &line)
        line += ",\"waveform\":\(waveform)}"
        return line
    }

    /// Whether a trace line is a haptic record (readers of phase records skip these).
    public static func isHapticLine(_ line: Substring) -> Bool { line.contains("\"event\":\"haptic\"") }
}
