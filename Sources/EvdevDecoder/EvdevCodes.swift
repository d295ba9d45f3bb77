import CInputEventCodes
import InputEvents

// The evdev codes the decoder needs, by their names in linux/input-event-codes.h (the header
// only, through CInputEventCodes: the decoder links no C code), so the recording reader can
// validate ranges too.

/// Event types (`EV_*`).
public enum EventType {
    public static let syn = UInt16(EV_SYN)
    public static let key = UInt16(EV_KEY)
    public static let rel = UInt16(EV_REL)
    public static let abs = UInt16(EV_ABS)
    public static let msc = UInt16(EV_MSC)
    public static let sw = UInt16(EV_SW)
    public static let led = UInt16(EV_LED)
    public static let snd = UInt16(EV_SND)
    public static let rep = UInt16(EV_REP)
    public static let ff = UInt16(EV_FF)
    public static let pwr = UInt16(EV_PWR)
    public static let ffStatus = UInt16(EV_FF_STATUS)
    public static let max = UInt16(EV_MAX)

    /// The highest code the kernel accepts for `type` (`*_MAX`), nil for an unknown type.
    public static func maxCode(for type: UInt16) -> UInt16? {
        switch type {
        case syn: UInt16(SYN_MAX)
        case key: UInt16(KEY_MAX)
        case rel: UInt16(REL_MAX)
        case abs: UInt16(ABS_MAX)
        case msc: UInt16(MSC_MAX)
        case sw: UInt16(SW_MAX)
        case led: UInt16(LED_MAX)
        case snd: UInt16(SND_MAX)
        case rep: UInt16(REP_MAX)
        case ff: UInt16(FF_MAX)
        case pwr: UInt16.max >> 8  // the kernel names no PWR_MAX: any code of the byte
        case ffStatus: UInt16(FF_STATUS_MAX)
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
    public static let buttonMisc = UInt16(BTN_MISC)
    public static let btnLeft = EventCode.buttonLeft
    public static let btnRight = EventCode.buttonRight
    public static let btnMiddle = EventCode.buttonMiddle
    /// Mouse buttons end here (`BTN_TASK` is 0x117).
    public static let btnMouseLast = UInt16(BTN_TASK)
    public static let btnToolPen = UInt16(BTN_TOOL_PEN)
    public static let btnToolRubber = UInt16(BTN_TOOL_RUBBER)
    public static let btnToolBrush = UInt16(BTN_TOOL_BRUSH)
    public static let btnToolPencil = UInt16(BTN_TOOL_PENCIL)
    public static let btnToolAirbrush = UInt16(BTN_TOOL_AIRBRUSH)
    public static let btnToolFinger = UInt16(BTN_TOOL_FINGER)
    public static let btnToolMouse = UInt16(BTN_TOOL_MOUSE)
    public static let btnToolLens = UInt16(BTN_TOOL_LENS)
    public static let btnToolQuintTap = UInt16(BTN_TOOL_QUINTTAP)
    public static let btnStylus3 = UInt16(BTN_STYLUS3)
    public static let btnTouch = EventCode.buttonTouch
    public static let btnStylus = UInt16(BTN_STYLUS)
    public static let btnStylus2 = UInt16(BTN_STYLUS2)
    public static let btnToolDoubleTap = UInt16(BTN_TOOL_DOUBLETAP)
    public static let btnToolTripleTap = UInt16(BTN_TOOL_TRIPLETAP)
    public static let btnToolQuadTap = UInt16(BTN_TOOL_QUADTAP)
    /// `KEY_OK`: keyboard-ish keys start again here, after the button block.
    public static let keyOK = UInt16(KEY_OK)
    /// `BTN_DPAD_UP..` and `BTN_TRIGGER_HAPPY..` are buttons again.
    public static let btnDpadFirst = UInt16(BTN_DPAD_UP)
    public static let btnDpadLast = UInt16(BTN_DPAD_RIGHT)
    public static let btnTriggerHappyFirst = UInt16(BTN_TRIGGER_HAPPY)
    public static let btnTriggerHappyLast = UInt16(BTN_TRIGGER_HAPPY40)

    /// True for `BTN_*` codes (buttons), false for keyboard keys (`KEY_*`).
    public static func isButton(_ code: UInt16) -> Bool {
        (code >= buttonMisc && code < keyOK) || (code >= btnDpadFirst && code <= btnDpadLast)
            || (code >= btnTriggerHappyFirst && code <= btnTriggerHappyLast)
    }
}

/// `EV_ABS` codes.
public enum AbsCode {
    public static let x = UInt16(ABS_X)
    public static let y = UInt16(ABS_Y)
    public static let pressure = UInt16(ABS_PRESSURE)
    public static let distance = UInt16(ABS_DISTANCE)
    public static let tiltX = UInt16(ABS_TILT_X)
    public static let tiltY = UInt16(ABS_TILT_Y)
    public static let toolWidth = UInt16(ABS_TOOL_WIDTH)
    public static let misc = UInt16(ABS_MISC)
    public static let mtSlot = UInt16(ABS_MT_SLOT)
    public static let mtTouchMajor = UInt16(ABS_MT_TOUCH_MAJOR)
    public static let mtPositionX = UInt16(ABS_MT_POSITION_X)
    public static let mtPositionY = UInt16(ABS_MT_POSITION_Y)
    public static let mtToolType = UInt16(ABS_MT_TOOL_TYPE)
    public static let mtTrackingID = UInt16(ABS_MT_TRACKING_ID)
    public static let mtPressure = UInt16(ABS_MT_PRESSURE)
    public static let mtDistance = UInt16(ABS_MT_DISTANCE)
}

/// `EV_REL` codes.
public enum RelCode {
    public static let x = UInt16(REL_X)
    public static let y = UInt16(REL_Y)
    public static let hwheel = UInt16(REL_HWHEEL)
    public static let wheel = UInt16(REL_WHEEL)
    public static let wheelHiRes = UInt16(REL_WHEEL_HI_RES)
    public static let hwheelHiRes = UInt16(REL_HWHEEL_HI_RES)
}

/// `INPUT_PROP_*` numbers.
public enum InputProperty {
    public static let pointer = UInt16(INPUT_PROP_POINTER)
    public static let direct = UInt16(INPUT_PROP_DIRECT)
    public static let buttonpad = UInt16(INPUT_PROP_BUTTONPAD)
    public static let semiMT = UInt16(INPUT_PROP_SEMI_MT)
    public static let topButtonpad = UInt16(INPUT_PROP_TOPBUTTONPAD)
    public static let pointingStick = UInt16(INPUT_PROP_POINTING_STICK)
    public static let accelerometer = UInt16(INPUT_PROP_ACCELEROMETER)
    /// Pressure pads: the click is a force threshold, `ABS_MT_PRESSURE` is the force (its
    /// resolution in units per gram where the kernel gives one). Linux 6.18 (`hid-haptic`):
    /// `INPUT_PROP_PRESSUREPAD` is not in Debian 12's headers (6.1), so its value is spelled here.
    public static let pressurepad: UInt16 = 0x07
    public static let max = UInt16(INPUT_PROP_MAX)
}

/// `EV_FF` codes a pressure pad with host-controlled haptics reports (Linux 6.18).
public enum ForceFeedbackCode {
    /// `FF_HAPTIC`: HID haptic waveforms (`struct ff_haptic_effect`), e.g. a trackpad's click.
    /// Linux 6.18's value: not in Debian 12's headers (6.1).
    public static let haptic: UInt16 = 0x4f
}
