import CInputEventCodes

/// The evdev codes the layers name, each the kernel's own constant from
/// linux/input-event-codes.h (CInputEventCodes): no layer spells an event code as a number.
public enum EventCode {
    /// The primary button: a mouse's, a touchpad's click, the pointer a pen emulates.
    public static let buttonLeft = UInt16(BTN_LEFT)
    public static let buttonRight = UInt16(BTN_RIGHT)
    public static let buttonMiddle = UInt16(BTN_MIDDLE)
    /// A pen's tip or a touchscreen's contact.
    public static let buttonTouch = UInt16(BTN_TOUCH)
    public static let keyEscape = UInt16(KEY_ESC)
    /// The Menu (context-menu) key.
    public static let keyCompose = UInt16(KEY_COMPOSE)
    public static let keyF10 = UInt16(KEY_F10)
    public static let keyLeftShift = UInt16(KEY_LEFTSHIFT)
    public static let keyRightShift = UInt16(KEY_RIGHTSHIFT)
    public static let keyLeftControl = UInt16(KEY_LEFTCTRL)
    public static let keyRightControl = UInt16(KEY_RIGHTCTRL)
    public static let keyLeftAlt = UInt16(KEY_LEFTALT)
    public static let keyRightAlt = UInt16(KEY_RIGHTALT)
    public static let keyLeftMeta = UInt16(KEY_LEFTMETA)
    public static let keyRightMeta = UInt16(KEY_RIGHTMETA)
}
