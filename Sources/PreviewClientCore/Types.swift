/// The kind of device that drives a press (the protocol's `source`).
public enum PreviewSource: UInt32, Sendable, CaseIterable, CustomStringConvertible {
    case pen = 1
    case touchpad = 2
    case touchscreen = 3
    /// A pointer button without force: the compositor simulates force from a long press.
    case pointer = 4

    public var description: String {
        switch self {
        case .pen: "pen"
        case .touchpad: "touchpad"
        case .touchscreen: "touchscreen"
        case .pointer: "pointer"
        }
    }
}

/// A set of sources, for `PreviewInteraction.allowedSources`.
public struct PreviewSources: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    /// Bits that name no source are dropped (the protocol rejects them).
    public init(rawValue: UInt32) { self.rawValue = rawValue & 0xF }
    public init(_ source: PreviewSource) { self.init(rawValue: 1 << (source.rawValue - 1)) }

    public static let pen = PreviewSources(rawValue: 1)
    public static let touchpad = PreviewSources(rawValue: 2)
    public static let touchscreen = PreviewSources(rawValue: 4)
    public static let pointer = PreviewSources(rawValue: 8)
    public static let all = PreviewSources(rawValue: 15)
}

/// Whether progress follows a measured force, or one the compositor simulates from the
/// duration of a long press (progress then grows with time, not with effort).
public enum PreviewForce: UInt32, Sendable, CustomStringConvertible {
    case measured = 1
    case simulated = 2

    public var description: String { self == .measured ? "measured" : "simulated" }
}

/// Why a press ended without completing. Informative: the app undoes its effects whatever
/// the reason.
public enum PreviewCancelReason: Sendable, Hashable, CustomStringConvertible {
    /// The finger or tool left, or the button was released.
    case lifted
    /// The app cancelled (`cancel()`).
    case clientCancelled
    /// The app declined should-begin (never reported: a declined press makes no delegate call).
    case declined
    /// The app did not answer should-begin in time (the compositor's user sets the wait).
    case timeout
    case deviceRemoved
    /// The surface was destroyed.
    case surfaceGone
    /// The device lost events.
    case desynchronised
    /// A long-press contact moved too far before its force was simulated.
    case moved
    /// The compositor cancelled it (focus change, grab, shutdown).
    case system
    /// A reason this library does not know yet (a newer compositor).
    case other(UInt32)

    public init(wire: UInt32) {
        switch wire {
        case 1: self = .lifted
        case 2: self = .clientCancelled
        case 3: self = .declined
        case 4: self = .timeout
        case 5: self = .deviceRemoved
        case 6: self = .surfaceGone
        case 7: self = .desynchronised
        case 8: self = .moved
        case 9: self = .system
        default: self = .other(wire)
        }
    }

    /// The protocol's `cancel_reason` value.
    public var wireValue: UInt32 {
        switch self {
        case .lifted: 1
        case .clientCancelled: 2
        case .declined: 3
        case .timeout: 4
        case .deviceRemoved: 5
        case .surfaceGone: 6
        case .desynchronised: 7
        case .moved: 8
        case .system: 9
        case .other(let value): value
        }
    }

    /// The protocol's `cancel_reason` entry name (`lifted`, `client_cancelled`, …).
    public var description: String {
        switch self {
        case .lifted: "lifted"
        case .clientCancelled: "client_cancelled"
        case .declined: "declined"
        case .timeout: "timeout"
        case .deviceRemoved: "device_removed"
        case .surfaceGone: "surface_gone"
        case .desynchronised: "desynchronised"
        case .moved: "moved"
        case .system: "system"
        case .other(let value): "unknown(\(value))"
        }
    }
}

/// A point in surface-local coordinates (the units of wl_pointer.motion).
public struct PreviewPoint: Sendable, Hashable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
    public static let zero = PreviewPoint(x: 0, y: 0)
    public var description: String { "(\(x), \(y))" }
}

/// A rectangle in surface-local coordinates.
public struct PreviewRect: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public func contains(_ point: PreviewPoint) -> Bool {
        point.x >= x && point.y >= y && point.x < x + width && point.y < y + height
    }
}

/// Something of the app with a place on the surface (its "view", in UIKit's words), for
/// `PreviewInteraction.location(in:)`. `PreviewRect` is one; an app's own view types can conform.
public protocol PreviewCoordinateSpace {
    /// Where this space's origin is, in surface-local coordinates.
    var originInSurface: PreviewPoint { get }
}

extension PreviewRect: PreviewCoordinateSpace {
    public var originInSurface: PreviewPoint { PreviewPoint(x: x, y: y) }
}
