/// The kind of device that drives a press (the protocol's `source`).
public enum PreviewSource: UInt32, Sendable, CaseIterable, CustomStringConvertible {
    case pen = 1
    case touchpad = 2
    case touchscreen = 3
    /// A pointer button without force: the compositor simulates force from a long press.
    case pointer = 4
    /// The keyboard's preview key, held (protocol version 2; force is always simulated). The
    /// press begins at the interaction's focus point.
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

    /// Whether the source drives one press at a time on a surface (a pen's tip, a pointer's
    /// button, the preview key), unlike touches and touchpad fingers, which run side by side.
    public var drivesOnePressAtATime: Bool {
        switch self {
        case .pen, .pointer, .keyboard: true
        case .touchpad, .touchscreen: false
        }
    }
}

/// A set of sources, for `PreviewInteraction.allowedSources`.
public struct PreviewSources: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    /// Bits that name no source are dropped (the protocol rejects them).
    public init(rawValue: UInt32) { self.rawValue = rawValue & Self.all.rawValue }
    private init(bits: UInt32) { rawValue = bits }
    public init(_ source: PreviewSource) { self.init(rawValue: 1 << (source.rawValue - 1)) }

    public static let pen = PreviewSources(bits: 1)
    public static let touchpad = PreviewSources(bits: 2)
    public static let touchscreen = PreviewSources(bits: 4)
    public static let pointer = PreviewSources(bits: 8)
    /// The preview key (protocol version 2). It takes effect only while the interaction has a
    /// focus point: without one a keyboard press would land nowhere in particular.
    public static let keyboard = PreviewSources(bits: 16)
    /// The sources of protocol version 1 (what `all` meant before the keyboard).
    public static let devices = PreviewSources(bits: 15)
    public static let all = PreviewSources(bits: 31)
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
    /// The user pressed Escape (protocol version 2).
    case dismissed
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
        case 10: self = .dismissed
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
        case .dismissed: 10
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
        case .dismissed: "dismissed"
        case .other(let value): "unknown(\(value))"
        }
    }
}

/// What force means where a press began (protocol version 2; the protocol's `behaviour`), like
/// a view's pressure configuration on another platform.
public enum PreviewBehaviour: Sendable, Hashable, CustomStringConvertible {
    /// The preview and commit phases (version 1's behaviour, and the default everywhere).
    case deepClick
    /// No interaction at all: the app reads raw pressure from core input (a drawing canvas).
    case generic
    /// The force selects one of `stages` levels (2...5), reported with stage calls.
    case accelerator(stages: UInt32)

    /// The stages an accelerator may have.
    public static let stageRange: ClosedRange<UInt32> = 2...5

    /// The protocol's `behaviour` value and `stages` argument.
    public var wire: (behaviour: UInt32, stages: UInt32) {
        switch self {
        case .deepClick: (1, 0)
        case .generic: (2, 0)
        case .accelerator(let stages): (3, stages)
        }
    }

    /// From the wire; nil for a value that names no behaviour.
    public init?(wire behaviour: UInt32, stages: UInt32) {
        switch behaviour {
        case 1: self = .deepClick
        case 2: self = .generic
        case 3: self = .accelerator(stages: stages)
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .deepClick: "deep_click"
        case .generic: "generic"
        case .accelerator(let stages): "accelerator(\(stages))"
        }
    }
}

/// An area of the surface with a pressure behaviour: `rects` nil means the whole surface.
public struct PreviewBehaviourArea: Sendable, Hashable {
    public var behaviour: PreviewBehaviour
    public var rects: [PreviewRect]?

    public init(_ behaviour: PreviewBehaviour, rects: [PreviewRect]? = nil) {
        self.behaviour = behaviour
        self.rects = rects
    }

    /// The protocol's limits: an accelerator has 2...5 stages.
    public var isValid: Bool {
        if case .accelerator(let stages) = behaviour { return PreviewBehaviour.stageRange.contains(stages) }
        return true
    }

    /// The most areas in one list (the protocol's limit).
    public static let maximumCount = 32
}

/// A short haptic effect an app asks for during a running press (the protocol's
/// `haptic_effect`); the compositor chooses the waveform, at the user's intensity.
public enum PreviewHapticEffect: UInt32, Sendable, CaseIterable, CustomStringConvertible {
    /// A light, short click: a selection moved (a quick action highlighted).
    case tick = 1
    /// A firmer click: something settled into place (a detent, a snap point).
    case snap = 2
    /// A distinct click: an action was chosen (a quick action performed).
    case confirm = 3

    public var description: String {
        switch self {
        case .tick: "tick"
        case .snap: "snap"
        case .confirm: "confirm"
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
