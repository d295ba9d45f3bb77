import PreviewEngine

// THE DECODER'S OUTPUT CONTRACT, shared by the replay tool, the compositor and the
// libinput backend.
//
// One `DeviceEvent` stream per device, in order, grouped into frames (`.frame` ends each
// non-empty evdev frame, like wl_pointer.frame / wl_touch.frame).
//
// Who uses what:
// - The engine takes only the three contact events:
//     .contactBegan(c)     -> engine.contactBegan(c.sample(at: location), surface:, hasForce: c.hasForce)
//     .contactChanged(c)   -> engine.forceChanged(c.sample(at: location))
//     .contactEnded(k,t,r) -> engine.contactEnded(k, at: t, reason: r)
//   `engine.apply(event, location:surface:)` (InteractionEngine+DeviceEvent.swift) does exactly
//   this. A contact is what can start a preview: a pen tip on the surface, a finger on a
//   touchscreen, a touchpad click (the "force click"), or a mouse's primary button.
//   `hasForce == false` (no usable pressure axis) selects the engine's long-press fallback;
//   `force` is then 0.
// - The compositor drives wl_pointer / wl_touch / wl_keyboard / tablet-v2 from all of them:
//   contacts of `.absolute` positioning (pen, touchscreen) give touch down/motion/up and tablet
//   tip/motion at `position`; `.toolProximity` / `.toolMotion` give tablet proximity and hover;
//   `.pointerMotion` moves the cursor (touchpad, mouse); `.scroll` is the wheel (axis,
//   axis_value120); `.button` and `.key` are what they say (a touchpad click is both a
//   `.button` and a contact).
//
// Coordinates: the decoder knows devices, not outputs or surfaces. It reports positions as
// device-normalised `NormalisedPoint`s (0...1 over the axis' absinfo range) and relative motion
// in device-independent units; the HOST maps them (absolute devices onto the output, touchpad and
// mouse contacts at the cursor), finds the surface, and builds the engine's surface-local
// `ForceSample` with `DeviceContact.sample(at:)`. So the decoder and the libinput backend produce
// identical samples for the same hand movement: same force (ForceNormaliser over the absinfo
// range), same ContactKey (seat 0, the host's DeviceID, slot number or 0), same source.

/// A position on the device, 0...1 across each axis' absinfo range (0,0 = top left).
public struct NormalisedPoint: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
    public static let centre = NormalisedPoint(x: 0.5, y: 0.5)
    public var description: String { "(\(x), \(y))" }
}

/// How the host turns a contact into a screen position.
public enum Positioning: String, Hashable, Sendable {
    /// Pen tablets and touchscreens: map `position` onto the output (tablet area = output).
    case absolute
    /// Touchpads and mice: the contact is at the pointer cursor; `position` is only where the
    /// finger is on the pad (informative).
    case cursor
}

/// The tool of a pen tablet (from `BTN_TOOL_*`).
public enum PenTool: String, Hashable, Sendable {
    case pen, eraser, brush, pencil, airbrush, mouse, lens
}

/// Pen axes beyond position and pressure; nil members where the device has no such axis.
public struct PenAxes: Hashable, Sendable {
    public var tool: PenTool
    /// 0 (touching) ... 1 (farthest the device can sense).
    public var distance: Double?
    /// Degrees from vertical, positive to the right / towards the user.
    public var tiltX: Double?
    public var tiltY: Double?

    public init(tool: PenTool, distance: Double? = nil, tiltX: Double? = nil, tiltY: Double? = nil) {
        self.tool = tool
        self.distance = distance
        self.tiltX = tiltX
        self.tiltY = tiltY
    }
}

/// One contact's state at one time: everything the engine's `ForceSample` needs except the
/// surface-local location, which only the host knows.
public struct DeviceContact: Hashable, Sendable {
    public var key: ContactKey
    public var time: Timestamp
    /// 0...1, normalised with the device's absinfo by `ForceNormaliser`; 0 when `!hasForce`.
    public var force: Double
    /// False when the device has no usable pressure axis: the engine simulates force (long press).
    public var hasForce: Bool
    public var position: NormalisedPoint
    public var positioning: Positioning
    public var source: InputSource
    /// For pens; nil for touches, clicks and buttons.
    public var pen: PenAxes?

    public init(
        key: ContactKey, time: Timestamp, force: Double, hasForce: Bool, position: NormalisedPoint,
        positioning: Positioning, source: InputSource, pen: PenAxes? = nil
    ) {
        self.key = key
        self.time = time
        self.force = force
        self.hasForce = hasForce
        self.position = position
        self.positioning = positioning
        self.source = source
        self.pen = pen
    }

    /// The engine's sample, at the surface-local `location` the host computed.
    /// `simulated` is always false here: only the engine simulates force.
    @inlinable
    public func sample(at location: Point) -> ForceSample {
        ForceSample(time: time, force: force, location: location, source: source, simulated: false, contact: key)
    }
}

/// A pen in proximity (hovering or touching): for tablet-v2 proximity and motion.
public struct ToolState: Hashable, Sendable {
    public var device: DeviceID
    public var time: Timestamp
    public var position: NormalisedPoint
    /// 0...1 when the device has pressure (hovering pens usually report 0).
    public var pressure: Double?
    public var axes: PenAxes

    public init(device: DeviceID, time: Timestamp, position: NormalisedPoint, pressure: Double?, axes: PenAxes) {
        self.device = device
        self.time = time
        self.position = position
        self.pressure = pressure
        self.axes = axes
    }
}

/// Relative pointer motion. Units are those of a 1000-DPI mouse, like libinput's unaccelerated
/// deltas: mouse counts as they come, touchpad millimetres × 1000/25.4 (a touchpad without
/// resolution is assumed 100 mm wide). The host applies its own speed (1 unit ≈ 1 logical px is
/// a fair default).
public struct RelativeMotion: Hashable, Sendable {
    public var device: DeviceID
    public var time: Timestamp
    public var dx: Double
    public var dy: Double

    public init(device: DeviceID, time: Timestamp, dx: Double, dy: Double) {
        self.device = device
        self.time = time
        self.dx = dx
        self.dy = dy
    }
}

/// Mouse wheel scrolling in one frame, signed like wl_pointer.axis (positive = down / right,
/// the opposite of evdev's REL_WHEEL). `value120` is in 1/120ths of a notch, like
/// wl_pointer.axis_value120 (from REL_WHEEL_HI_RES when the device has it).
public struct ScrollMotion: Hashable, Sendable {
    public var device: DeviceID
    public var time: Timestamp
    public var vertical120: Int32
    public var horizontal120: Int32

    public init(device: DeviceID, time: Timestamp, vertical120: Int32, horizontal120: Int32) {
        self.device = device
        self.time = time
        self.vertical120 = vertical120
        self.horizontal120 = horizontal120
    }

    /// In notches (detents).
    public var vertical: Double { Double(vertical120) / 120 }
    public var horizontal: Double { Double(horizontal120) / 120 }
}

/// A button (`BTN_*`) or key (`KEY_*`) changing state; autorepeat (value 2) is not reported.
public struct KeyState: Hashable, Sendable {
    public var device: DeviceID
    public var time: Timestamp
    /// The evdev code (`EventCode`: `BTN_LEFT`, `KEY_A`): what wl_pointer.button and
    /// wl_keyboard.key carry.
    public var code: UInt16
    public var pressed: Bool

    public init(device: DeviceID, time: Timestamp, code: UInt16, pressed: Bool) {
        self.device = device
        self.time = time
        self.code = code
        self.pressed = pressed
    }
}

/// What a device did, decoded. See the contract at the top of this file.
public enum DeviceEvent: Hashable, Sendable {
    /// A contact went down (pen tip, touchscreen finger, touchpad click, primary mouse button).
    case contactBegan(DeviceContact)
    /// Force and/or position of a contact changed.
    case contactChanged(DeviceContact)
    /// A contact ended: `.lifted` normally; `.desynchronised` when SYN_DROPPED lost its state.
    case contactEnded(ContactKey, time: Timestamp, reason: CancelReason)
    /// A pen came into (true) or left (false) the device's sensing range.
    case toolProximity(ToolState, inProximity: Bool)
    /// A pen in proximity moved or tilted without touching.
    case toolMotion(ToolState)
    /// Relative cursor motion (touchpad with one finger, mouse).
    case pointerMotion(RelativeMotion)
    /// Mouse wheel (REL_WHEEL / REL_HWHEEL and their _HI_RES forms).
    case scroll(ScrollMotion)
    /// A button (`BTN_*`): mouse and touchpad buttons, pen barrel buttons.
    case button(KeyState)
    /// A keyboard key (`KEY_*`).
    case key(KeyState)
    /// End of one evdev frame that produced events.
    case frame(Timestamp)
}

extension DeviceEvent {
    /// When it happened (the frame's SYN_REPORT time).
    public var time: Timestamp {
        switch self {
        case .contactBegan(let contact), .contactChanged(let contact): contact.time
        case .contactEnded(_, let time, _): time
        case .toolProximity(let state, _), .toolMotion(let state): state.time
        case .pointerMotion(let motion): motion.time
        case .scroll(let scroll): scroll.time
        case .button(let key), .key(let key): key.time
        case .frame(let time): time
        }
    }
}

extension DeviceEvent {
    /// The same event with every time moved by `shift` µs and its device number raised by
    /// `deviceBase`: replays move a recording onto another clock (libinput's, the compositor's
    /// monotonic one), and several recordings in one run each number their devices from 0.
    public func shifted(by shift: Int64, deviceBase: UInt32 = 0) -> DeviceEvent {
        func moved(_ time: Timestamp) -> Timestamp { Timestamp(microseconds: time.microseconds + shift) }
        func renumbered(_ device: DeviceID) -> DeviceID { DeviceID(deviceBase &+ device.rawValue) }
        switch self {
        case .contactBegan(var contact):
            contact.time = moved(contact.time)
            contact.key.device = renumbered(contact.key.device)
            return .contactBegan(contact)
        case .contactChanged(var contact):
            contact.time = moved(contact.time)
            contact.key.device = renumbered(contact.key.device)
            return .contactChanged(contact)
        case .contactEnded(var key, let time, let reason):
            key.device = renumbered(key.device)
            return .contactEnded(key, time: moved(time), reason: reason)
        case .toolProximity(var state, let inProximity):
            state.time = moved(state.time)
            state.device = renumbered(state.device)
            return .toolProximity(state, inProximity: inProximity)
        case .toolMotion(var state):
            state.time = moved(state.time)
            state.device = renumbered(state.device)
            return .toolMotion(state)
        case .pointerMotion(var motion):
            motion.time = moved(motion.time)
            motion.device = renumbered(motion.device)
            return .pointerMotion(motion)
        case .scroll(var scroll):
            scroll.time = moved(scroll.time)
            scroll.device = renumbered(scroll.device)
            return .scroll(scroll)
        case .button(var key):
            key.time = moved(key.time)
            key.device = renumbered(key.device)
            return .button(key)
        case .key(var key):
            key.time = moved(key.time)
            key.device = renumbered(key.device)
            return .key(key)
        case .frame(let time): return .frame(moved(time))
        }
    }
}
