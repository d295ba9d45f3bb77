import CInputEventCodes
import CWaylandClient
import PeekUI
import SystemLayer

// Core input: the non-force path to every action (HIG: "don't make peek the only way").
// Right click or the Menu key opens the same quick actions; click or Enter opens an item.
extension PeekApp {
    private static let buttonLeft = UInt32(BTN_LEFT)
    private static let buttonRight = UInt32(BTN_RIGHT)

    func seatCapabilities(_ capabilities: UInt32) {
        let hasPointer = capabilities & UInt32(WL_SEAT_CAPABILITY_POINTER.rawValue) != 0
        let hasKeyboard = capabilities & UInt32(WL_SEAT_CAPABILITY_KEYBOARD.rawValue) != 0
        if hasPointer, pointer == nil, let seat {
            pointer = wl_seat_get_pointer(seat)
            wl_pointer_add_listener(pointer, &pointerListener, context(self))
        } else if !hasPointer, let pointer {
            release(pointer: pointer)
            self.pointer = nil
        }
        let hasTouch = capabilities & UInt32(WL_SEAT_CAPABILITY_TOUCH.rawValue) != 0
        if hasTouch, touch == nil, let seat {
            touch = wl_seat_get_touch(seat)
            wl_touch_add_listener(touch, &touchListener, context(self))
        } else if !hasTouch, let touch {
            release(touch: touch)
            self.touch = nil
        }
        if hasKeyboard, keyboard == nil, let seat {
            keyboard = wl_seat_get_keyboard(seat)
            wl_keyboard_add_listener(keyboard, &keyboardListener, context(self))
        } else if !hasKeyboard, let keyboard {
            release(keyboard: keyboard)
            self.keyboard = nil
        }
    }

    func releaseInputDevices() {
        if let pointer { release(pointer: pointer) }
        if let keyboard { release(keyboard: keyboard) }
        if let touch { release(touch: touch) }
        (pointer, keyboard, touch) = (nil, nil, nil)
    }

    private func release(touch: OpaquePointer) {
        if wl_touch_get_version(touch) >= 3 { wl_touch_release(touch) } else { wl_touch_destroy(touch) }
    }

    private func release(pointer: OpaquePointer) {
        if wl_pointer_get_version(pointer) >= 3 { wl_pointer_release(pointer) } else { wl_pointer_destroy(pointer) }
    }

    private func release(keyboard: OpaquePointer) {
        if wl_keyboard_get_version(keyboard) >= 3 {
            wl_keyboard_release(keyboard)
        } else {
            wl_keyboard_destroy(keyboard)
        }
    }

    // MARK: Pointer

    func pointerEntered(serial: UInt32, x: Double, y: Double) {
        if let pointer { cursor?.show(on: pointer, serial: serial, scale: scale) }
        pointerMoved(x: x, y: y)
    }

    func pointerMoved(x: Double, y: Double) {
        pointerPosition = Point(x: x, y: y)
        handle(model.pointerMoved(to: pointerPosition))
    }

    func pointerButton(_ button: UInt32, pressed: Bool) {
        let which: PointerButton
        switch button {
        case Self.buttonLeft: which = .primary
        case Self.buttonRight: which = .secondary
        default: return
        }
        handle(model.pointerButton(which, pressed: pressed, at: pointerPosition, now: monotonicSeconds()))
    }

    /// wl_pointer.axis: vertical wheel or touchpad scrolling, in surface pixels.
    func pointerAxis(_ axis: UInt32, value: Double) {
        guard axis == WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue else { return }
        handle(model.scroll(by: value))
    }

    // MARK: Touch: a tap is a click (the press-and-hold is the compositor's long press)

    func touchDown(_ id: Int32, x: Double, y: Double) {
        guard touchID == nil else { return }
        touchID = id
        pointerPosition = Point(x: x, y: y)
        handle(model.pointerButton(.primary, pressed: true, at: pointerPosition, now: monotonicSeconds()))
    }

    func touchMoved(_ id: Int32, x: Double, y: Double) {
        guard id == touchID else { return }
        pointerPosition = Point(x: x, y: y)
        handle(model.pointerMoved(to: pointerPosition))
    }

    func touchUp(_ id: Int32) {
        guard id == touchID else { return }
        touchID = nil
        handle(model.pointerButton(.primary, pressed: false, at: pointerPosition, now: monotonicSeconds()))
    }

    /// wl_touch.cancel (e.g. the commit phase took the touch away): no release will come.
    func touchCancelled() { touchID = nil }

    // MARK: Pens (tablet-v2): the tip is a primary button, with the pen's pressure

    func toolAdded(_ tool: OpaquePointer?) {
        guard let tool else { return }
        tools.append(tool)
        zwp_tablet_tool_v2_add_listener(tool, &toolListener, context(self))
    }

    func toolRemoved(_ tool: OpaquePointer?) {
        guard let tool else { return }
        tools.removeAll { $0 == tool }
        zwp_tablet_tool_v2_destroy(tool)
    }

    /// proximity_out: the pen left the surface (or the commit phase took it away, without its
    /// tip's release): nothing more comes for this stroke.
    func toolLeft() {
        pen = PenState()
    }

    /// The end of one pen event: its tip going down or up, or its motion, to the model.
    func toolFrame() {
        guard pen.inside else { return }
        pointerPosition = pen.position
        let pressure = pen.pressure
        if pen.tip != pen.tipDrawn {
            pen.tipDrawn = pen.tip
            handle(
                model.pointerButton(
                    .primary, pressed: pen.tip, at: pen.position, now: monotonicSeconds(), pressure: pressure))
        } else {
            handle(model.pointerMoved(to: pen.position, pressure: pen.tip ? pressure : nil))
        }
    }

    func releaseTablets() {
        for tool in tools { zwp_tablet_tool_v2_destroy(tool) }
        tools.removeAll()
        if let tabletSeat { zwp_tablet_seat_v2_destroy(tabletSeat) }
        tabletSeat = nil
        pen = PenState()
    }

    // MARK: Keyboard

    /// The keys the sample uses are the same on every layout, so evdev codes are read directly
    /// instead of compiling the keymap (linux/input-event-codes.h).
    func key(_ code: UInt32, pressed: Bool) {
        guard pressed else { return }
        let key: Key
        switch code {
        case 105: key = .left
        case 106: key = .right
        case 103: key = .up
        case 108: key = .down
        case 28, 96: key = .enter  // KEY_ENTER, KEY_KPENTER
        case 1: key = .escape
        case 127: key = .menu  // KEY_COMPOSE: the Menu key
        case 104: key = .pageUp
        case 109: key = .pageDown
        case 102: key = .home
        case 107: key = .end
        case 68 where shiftDown: key = .menu  // Shift+F10
        default: return
        }
        handle(model.key(key, now: monotonicSeconds()))
    }

    /// Shift is the first modifier of every standard xkb keymap.
    func modifiers(depressed: UInt32) { shiftDown = depressed & 1 != 0 }

    func keymapReceived(fd: Int32) { _ = Descriptor(adopting: fd) }  // closed: the client has no keymap use
}

/// A pen over the surface, as its tablet-v2 events say; applied at each tool frame.
struct PenState {
    var inside = false
    var position = Point(x: 0, y: 0)
    /// 0...1 (the protocol's 0...65535).
    var pressure = 0.0
    var tip = false
    /// The tip state the model has had.
    var tipDrawn = false
}
