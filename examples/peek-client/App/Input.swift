import CWaylandClient
import Glibc
import PeekUI

// Core input: the non-force path to every action (HIG: "don't make peek the only way").
// Right click or the Menu key opens the same quick actions; click or Enter opens an item.
extension PeekApp {
    // linux/input-event-codes.h
    private static let buttonLeft: UInt32 = 0x110
    private static let buttonRight: UInt32 = 0x111

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
        (pointer, keyboard) = (nil, nil)
    }

    private func release(pointer: OpaquePointer) {
        if wl_pointer_get_version(pointer) >= 3 { wl_pointer_release(pointer) } else { wl_pointer_destroy(pointer) }
    }

    private func release(keyboard: OpaquePointer) {
        if wl_keyboard_get_version(keyboard) >= 3 { wl_keyboard_release(keyboard) } else { wl_keyboard_destroy(keyboard) }
    }

    // MARK: Pointer

    func pointerEntered(x: Double, y: Double) { pointerMoved(x: x, y: y) }

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
        case 68 where shiftDown: key = .menu  // Shift+F10
        default: return
        }
        handle(model.key(key, now: monotonicSeconds()))
    }

    /// Shift is the first modifier of every standard xkb keymap.
    func modifiers(depressed: UInt32) { shiftDown = depressed & 1 != 0 }

    func keymapReceived(fd: Int32) { close(fd) }
}
