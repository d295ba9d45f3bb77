// The evdev numbers the decoder needs, from linux/input-event-codes.h. Spelled out here so the
// decoder stays pure Swift (no C module) and so the recording reader can validate ranges.

/// Event types (`EV_*`).
public enum EventType {
    public static let syn: UInt16 = 0x00
    public static let key: UInt16 = 0x01
    public static let rel: UInt16 = 0x02
    public static let abs: UInt16 = 0x03
    public static let msc: UInt16 = 0x04
    public static let sw: UInt16 = 0x05
    public static let led: UInt16 = 0x11
    public static let snd: UInt16 = 0x12
    public static let rep: UInt16 = 0x14
    public static let ff: UInt16 = 0x15
    public static let pwr: UInt16 = 0x16
    public static let ffStatus: UInt16 = 0x17
    public static let max: UInt16 = 0x1f

    /// The highest code the kernel accepts for `type` (`*_MAX`), nil for an unknown type.
    public static func maxCode(for type: UInt16) -> UInt16? {
        switch type {
        case syn: 0x0f
        case key: 0x2ff
        case rel: 0x0f
        case abs: 0x3f
        case msc: 0x07
        case sw: 0x10
        case led: 0x0f
        case snd: 0x07
        case rep: 0x01
        case ff: 0x7f
        case pwr: 0xff
        case ffStatus: 0x01
        default: nil
        }
    }
}

/// `SYN_*` codes.
public enum SynCode {
    public static let report: UInt16 = 0
    public static let config: UInt16 = 1
    public static let mtReport: UInt16 = 2
    public static let dropped: UInt16 = 3
}

/// The `EV_KEY` codes the decoder interprets; every other key is passed through as a key or button.
public enum KeyCode {
    /// Codes below this are keyboard keys (`KEY_*`); `BTN_MISC` starts the buttons.
    public static let buttonMisc: UInt16 = 0x100
    public static let btnLeft: UInt16 = 0x110
    public static let btnRight: UInt16 = 0x111
    public static let btnMiddle: UInt16 = 0x112
    /// Mouse buttons end here (`BTN_TASK` is 0x117).
    public static let btnMouseLast: UInt16 = 0x117
    public static let btnToolPen: UInt16 = 0x140
    public static let btnToolRubber: UInt16 = 0x141
    public static let btnToolBrush: UInt16 = 0x142
    public static let btnToolPencil: UInt16 = 0x143
    public static let btnToolAirbrush: UInt16 = 0x144
    public static let btnToolFinger: UInt16 = 0x145
    public static let btnToolMouse: UInt16 = 0x146
    public static let btnToolLens: UInt16 = 0x147
    public static let btnToolQuintTap: UInt16 = 0x148
    public static let btnStylus3: UInt16 = 0x149
    public static let btnTouch: UInt16 = 0x14a
    public static let btnStylus: UInt16 = 0x14b
    public static let btnStylus2: UInt16 = 0x14c
    public static let btnToolDoubleTap: UInt16 = 0x14d
    public static let btnToolTripleTap: UInt16 = 0x14e
    public static let btnToolQuadTap: UInt16 = 0x14f
    /// `KEY_OK`: keyboard-ish keys start again here, after the button block.
    public static let keyOK: UInt16 = 0x160
    /// `BTN_DPAD_UP..` and `BTN_TRIGGER_HAPPY..` are buttons again.
    public static let btnDpadFirst: UInt16 = 0x220
    public static let btnDpadLast: UInt16 = 0x223
    public static let btnTriggerHappyFirst: UInt16 = 0x2c0
    public static let btnTriggerHappyLast: UInt16 = 0x2e7

    /// True for `BTN_*` codes (buttons), false for keyboard keys (`KEY_*`).
    public static func isButton(_ code: UInt16) -> Bool {
        (code >= buttonMisc && code < keyOK) || (code >= btnDpadFirst && code <= btnDpadLast)
            || (code >= btnTriggerHappyFirst && code <= btnTriggerHappyLast)
    }
}

/// `EV_ABS` codes.
public enum AbsCode {
    public static let x: UInt16 = 0x00
    public static let y: UInt16 = 0x01
    public static let pressure: UInt16 = 0x18
    public static let distance: UInt16 = 0x19
    public static let tiltX: UInt16 = 0x1a
    public static let tiltY: UInt16 = 0x1b
    public static let toolWidth: UInt16 = 0x1c
    public static let misc: UInt16 = 0x28
    public static let mtSlot: UInt16 = 0x2f
    public static let mtTouchMajor: UInt16 = 0x30
    public static let mtPositionX: UInt16 = 0x35
    public static let mtPositionY: UInt16 = 0x36
    public static let mtToolType: UInt16 = 0x37
    public static let mtTrackingID: UInt16 = 0x39
    public static let mtPressure: UInt16 = 0x3a
    public static let mtDistance: UInt16 = 0x3b
}

/// `EV_REL` codes.
public enum RelCode {
    public static let x: UInt16 = 0x00
    public static let y: UInt16 = 0x01
    public static let hwheel: UInt16 = 0x06
    public static let wheel: UInt16 = 0x08
    public static let wheelHiRes: UInt16 = 0x0b
    public static let hwheelHiRes: UInt16 = 0x0c
}

/// `INPUT_PROP_*` numbers.
public enum InputProperty {
    public static let pointer: UInt16 = 0x00
    public static let direct: UInt16 = 0x01
    public static let buttonpad: UInt16 = 0x02
    public static let semiMT: UInt16 = 0x03
    public static let topButtonpad: UInt16 = 0x04
    public static let pointingStick: UInt16 = 0x05
    public static let accelerometer: UInt16 = 0x06
    /// Pressure pads: the click is a force threshold, `ABS_MT_PRESSURE` is the force (its
    /// resolution in units per gram where the kernel gives one). Linux 6.18 (`hid-haptic`).
    public static let pressurepad: UInt16 = 0x07
    public static let max: UInt16 = 0x1f
}

/// `EV_FF` codes a pressure pad with host-controlled haptics reports (Linux 6.18).
public enum ForceFeedbackCode {
    /// `FF_HAPTIC`: HID haptic waveforms (`struct ff_haptic_effect`), e.g. a trackpad's click.
    public static let haptic: UInt16 = 0x4f
}
