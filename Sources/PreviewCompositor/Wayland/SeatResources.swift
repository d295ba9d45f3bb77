import CWaylandServer
import WaylandServer

/// wl_seat: hands out pointer, keyboard and touch objects (all three always advertised,
/// so clients bind them even while the seat is headless).
final class SeatResource: ResourceObject {
    weak var seat: Seat?

    init?(seat: Seat, client: Client, version: UInt32, id: UInt32) {
        self.seat = seat
        super.init(
            client: client, interface: cwl_interface_wl_seat(), version: version, id: id,
            implementation: SeatResource.implementation)
        guard let resource else { return }
        wl_seat_send_capabilities(
            resource,
            WL_SEAT_CAPABILITY_POINTER.rawValue | WL_SEAT_CAPABILITY_KEYBOARD.rawValue
                | WL_SEAT_CAPABILITY_TOUCH.rawValue)
        if version >= 2 { wl_seat_send_name(resource, "seat0") }
    }

    nonisolated(unsafe) static let implementation: UnsafeRawPointer = {
        var impl = cwl_wl_seat_impl()
        impl.get_pointer = { _, resource, id in
            guard let self_ = resolve(resource, as: SeatResource.self), let seat = self_.seat else { return }
            if let pointer = PointerResource(client: self_.client, version: self_.version, id: id) {
                seat.pointerBound(pointer)
            }
        }
        impl.get_keyboard = { _, resource, id in
            guard let self_ = resolve(resource, as: SeatResource.self), let seat = self_.seat else { return }
            if let keyboard = KeyboardResource(client: self_.client, version: self_.version, id: id) {
                seat.keyboardBound(keyboard)
            }
        }
        impl.get_touch = { _, resource, id in
            guard let self_ = resolve(resource, as: SeatResource.self), let seat = self_.seat else { return }
            if let touch = TouchResource(client: self_.client, version: self_.version, id: id) {
                seat.touchBound(touch)
            }
        }
        impl.release = destroyResourceRequest
        return makeImplementation(impl)
    }()
}

/// wl_pointer. Cursor images are accepted and not drawn (headless output).
final class PointerResource: ResourceObject {
    init?(client: Client, version: UInt32, id: UInt32) {
        super.init(
            client: client, interface: cwl_interface_wl_pointer(), version: version, id: id,
            implementation: PointerResource.implementation)
    }

    /// wl_pointer.frame exists since version 5.
    func frame() {
        if let resource, version >= 5 { wl_pointer_send_frame(resource) }
    }

    nonisolated(unsafe) static let implementation: UnsafeRawPointer = {
        var impl = cwl_wl_pointer_impl()
        impl.set_cursor = { _, _, _, _, _, _ in }
        impl.release = destroyResourceRequest
        return makeImplementation(impl)
    }()
}

/// wl_keyboard: gets the keymap and repeat info on creation.
final class KeyboardResource: ResourceObject {
    init?(client: Client, version: UInt32, id: UInt32) {
        super.init(
            client: client, interface: cwl_interface_wl_keyboard(), version: version, id: id,
            implementation: KeyboardResource.implementation)
    }

    nonisolated(unsafe) static let implementation: UnsafeRawPointer = {
        var impl = cwl_wl_keyboard_impl()
        impl.release = destroyResourceRequest
        return makeImplementation(impl)
    }()
}

/// wl_touch.
final class TouchResource: ResourceObject {
    init?(client: Client, version: UInt32, id: UInt32) {
        super.init(
            client: client, interface: cwl_interface_wl_touch(), version: version, id: id,
            implementation: TouchResource.implementation)
    }

    nonisolated(unsafe) static let implementation: UnsafeRawPointer = {
        var impl = cwl_wl_touch_impl()
        impl.release = destroyResourceRequest
        return makeImplementation(impl)
    }()
}
