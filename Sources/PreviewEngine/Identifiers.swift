// Value types shared by every layer. They carry no behaviour and no references,
// so the engine's per-sample path never touches the heap.

/// A point in time on the caller's clock, in microseconds. The engine never reads a clock.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var microseconds: Int64

    public init(microseconds: Int64) { self.microseconds = microseconds }
    /// Saturating, like `+`.
    public init(milliseconds: Int64) { self.microseconds = saturatingMicroseconds(milliseconds) }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.microseconds < rhs.microseconds }
    /// Saturating: a recording with absurd timestamps must not trap the engine.
    public static func + (lhs: Timestamp, rhs: Duration) -> Timestamp {
        let (sum, overflow) = lhs.microseconds.addingReportingOverflow(rhs.microseconds)
        return Timestamp(microseconds: overflow ? (rhs.microseconds < 0 ? .min : .max) : sum)
    }
    /// Saturating, like `+`.
    public static func - (lhs: Timestamp, rhs: Timestamp) -> Duration {
        let (difference, overflow) = lhs.microseconds.subtractingReportingOverflow(rhs.microseconds)
        return Duration(microseconds: overflow ? (rhs.microseconds < 0 ? .max : .min) : difference)
    }
    public var description: String { "\(microseconds)µs" }
}

extension Timestamp {
    /// A span of time in microseconds (the engine's own type, so it needs no Foundation).
    public struct Duration: Hashable, Comparable, Sendable {
        public var microseconds: Int64
        public init(microseconds: Int64) { self.microseconds = microseconds }
        public static func milliseconds(_ ms: Int64) -> Duration { Duration(microseconds: saturatingMicroseconds(ms)) }
        public static func < (lhs: Duration, rhs: Duration) -> Bool { lhs.microseconds < rhs.microseconds }
    }
}

private func saturatingMicroseconds(_ milliseconds: Int64) -> Int64 {
    let (product, overflow) = milliseconds.multipliedReportingOverflow(by: 1_000)
    return overflow ? (milliseconds < 0 ? .min : .max) : product
}

/// Where the force comes from. Mirrors the protocol's `source` enum.
public enum InputSource: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case pen = 1
    case touchpad = 2
    case touchscreen = 3
    case pointer = 4
    /// The keyboard's preview key, held: force is always simulated (a long press).
    case keyboard = 5

    public var description: String {
        switch self {
        case .pen: "pen"
        case .touchpad: "touchpad"
        case .touchscreen: "touchscreen"
        case .pointer: "pointer"
        case .keyboard: "keyboard"
        }
    }
}

/// One input device, as numbered by the device layer (recording reader or libinput backend).
public struct DeviceID: Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }
    public var description: String { "device\(rawValue)" }
}

/// A surface as the host numbers it. The engine only compares them.
public struct SurfaceID: Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt64
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }
    public var description: String { "surface\(rawValue)" }
}

/// One finger, pen tip or pressed button: the key of at most one interaction at a time.
public struct ContactKey: Hashable, Sendable, CustomStringConvertible {
    public var seat: UInt32
    public var device: DeviceID
    /// Slot or tracking id for touches, 0 for a pen tip or a pointer button.
    public var contact: Int32

    public init(seat: UInt32 = 0, device: DeviceID, contact: Int32 = 0) {
        self.seat = seat
        self.device = device
        self.contact = contact
    }
    public var description: String { "seat\(seat)/\(device)/contact\(contact)" }
}

/// Numbered by the engine, increasing, never reused within one engine.
public struct InteractionID: Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }
    public var description: String { "#\(rawValue)" }
}

/// Surface-local coordinates in logical pixels.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
    public static let zero = Point(x: 0, y: 0)
    public var description: String { "(\(x), \(y))" }
}

/// One reading of a contact's force, already normalised to 0...1 by the device layer
/// (see `ForceNormaliser`). Decoder and libinput backend produce exactly this.
public struct ForceSample: Hashable, Sendable {
    public var time: Timestamp
    public var force: Double
    public var location: Point
    public var source: InputSource
    /// True when the force is made up (long-press fallback), false when a sensor measured it.
    public var simulated: Bool
    public var contact: ContactKey

    public init(
        time: Timestamp, force: Double, location: Point, source: InputSource, simulated: Bool = false,
        contact: ContactKey
    ) {
        self.time = time
        self.force = force
        self.location = location
        self.source = source
        self.simulated = simulated
        self.contact = contact
    }
}
