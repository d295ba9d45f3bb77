internal import CWaylandClient
internal import CWaylandLibdecor

// Every libwayland-client listener of the nested window, and the only file of this backend with
// `Unmanaged`: the listener data is the owning object, unretained (each destroys its proxies
// before it goes away, so no event reaches a dead object).

func listenerContext(_ object: AnyObject) -> UnsafeMutableRawPointer { Unmanaged.passUnretained(object).toOpaque() }

private func connection(_ data: UnsafeMutableRawPointer?) -> ParentConnection {
    Unmanaged<ParentConnection>.fromOpaque(data!).takeUnretainedValue()
}
private func window(_ data: UnsafeMutableRawPointer?) -> ParentWindow {
    Unmanaged<ParentWindow>.fromOpaque(data!).takeUnretainedValue()
}
private func seat(_ data: UnsafeMutableRawPointer?) -> ParentSeat {
    Unmanaged<ParentSeat>.fromOpaque(data!).takeUnretainedValue()
}

private func fixed(_ value: wl_fixed_t) -> Double { cwl_fixed_to_double(value) }

enum ParentListeners {
    // MARK: globals

    nonisolated(unsafe) static var registry = wl_registry_listener(
        global: { data, _, name, interface, version in
            guard let interface else { return }
            connection(data).global(name: name, interface: String(cString: interface), version: version)
        },
        global_remove: { data, _, name in connection(data).globalRemoved(name: name) })

    nonisolated(unsafe) static var wmBase = xdg_wm_base_listener(ping: { _, wmBase, serial in
        xdg_wm_base_pong(wmBase, serial)
    })

    nonisolated(unsafe) static var output = wl_output_listener(
        geometry: { _, _, _, _, _, _, _, _, _, _ in },
        mode: { data, output, flags, width, height, _ in
            guard flags & WL_OUTPUT_MODE_CURRENT.rawValue != 0 else { return }
            connection(data).outputMode(output, width: width, height: height)
        },
        done: { data, output in connection(data).outputDone(output) },
        scale: { data, output, factor in connection(data).outputScale(output, factor) },
        name: { _, _, _ in },
        description: { _, _, _ in })

    // MARK: the window

    nonisolated(unsafe) static var surface = wl_surface_listener(
        enter: { data, _, output in window(data).entered(output) },
        leave: { data, _, output in window(data).left(output) })

    nonisolated(unsafe) static var xdgSurface = xdg_surface_listener(
        configure: { data, _, serial in window(data).xdgSurfaceConfigured(serial: serial) })

    nonisolated(unsafe) static var toplevel = xdg_toplevel_listener(
        configure: { data, _, width, height, _ in window(data).toplevelConfigured(width: width, height: height) },
        close: { data, _ in window(data).closeRequested() },
        configure_bounds: { _, _, _, _ in },
        wm_capabilities: { _, _, _ in })

    // MARK: libdecor (where the parent offers no xdg-decoration)

    /// libdecor's last error (its callback has no context): the window's start failure names it.
    nonisolated(unsafe) static var libdecorError: String?

    nonisolated(unsafe) static var libdecorContext: libdecor_interface = {
        var interface = libdecor_interface()
        interface.error = { _, _, message in libdecorError = message.map { String(cString: $0) } }
        return interface
    }()

    nonisolated(unsafe) static var libdecorFrame: libdecor_frame_interface = {
        var interface = libdecor_frame_interface()
        interface.configure = { _, configuration, data in window(data).libdecorConfigured(configuration) }
        interface.close = { _, data in window(data).closeRequested() }
        interface.commit = { _, data in window(data).libdecorWantsCommit() }
        interface.dismiss_popup = { _, _, _ in }
        return interface
    }()

    nonisolated(unsafe) static var frame = wl_callback_listener(done: { data, callback, _ in
        window(data).frameDone(callback)
    })

    nonisolated(unsafe) static var buffer = wl_buffer_listener(release: { data, buffer in
        window(data).bufferReleased(buffer)
    })

    // MARK: input

    nonisolated(unsafe) static var seatListener = wl_seat_listener(
        capabilities: { data, _, capabilities in seat(data).capabilities(capabilities) },
        name: { _, _, _ in })

    nonisolated(unsafe) static var pointer = wl_pointer_listener(
        enter: { data, _, _, surface, x, y in seat(data).pointerEntered(surface, x: fixed(x), y: fixed(y)) },
        leave: { data, _, _, _ in seat(data).pointerLeft() },
        motion: { data, _, time, x, y in seat(data).pointerMoved(x: fixed(x), y: fixed(y), time: time) },
        button: { data, _, _, time, button, state in
            seat(data).pointerButton(button, pressed: state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue, time: time)
        },
        axis: { data, _, time, axis, value in seat(data).pointerAxis(axis, pixels: fixed(value), time: time) },
        frame: { data, _ in seat(data).pointerFrame() },
        axis_source: { _, _, _ in },
        axis_stop: { _, _, _, _ in },
        axis_discrete: { data, _, axis, discrete in seat(data).pointerAxis(axis, value120: discrete &* 120) },
        axis_value120: { data, _, axis, value120 in seat(data).pointerAxis(axis, value120: value120) })

    nonisolated(unsafe) static var keyboard = wl_keyboard_listener(
        keymap: { data, _, format, fd, size in seat(data).keymap(format: format, fd: fd, size: size) },
        enter: { _, _, _, _, _ in },
        leave: { data, _, _, _ in seat(data).keyboardLeft() },
        key: { data, _, _, time, key, state in
            seat(data).key(key, pressed: state == WL_KEYBOARD_KEY_STATE_PRESSED.rawValue, time: time)
        },
        modifiers: { _, _, _, _, _, _, _ in },
        repeat_info: { _, _, _, _ in })

    nonisolated(unsafe) static var touch = wl_touch_listener(
        down: { data, _, _, time, _, id, x, y in seat(data).touchDown(id, x: fixed(x), y: fixed(y), time: time) },
        up: { data, _, _, time, id in seat(data).touchUp(id, time: time) },
        motion: { data, _, time, id, x, y in seat(data).touchMoved(id, x: fixed(x), y: fixed(y), time: time) },
        frame: { data, _ in seat(data).touchFrame() },
        cancel: { data, _ in seat(data).touchCancelled() },
        shape: { _, _, _, _, _ in },
        orientation: { _, _, _, _ in })

    nonisolated(unsafe) static var tabletSeat = zwp_tablet_seat_v2_listener(
        tablet_added: { data, _, tablet in seat(data).tabletAdded(tablet) },
        tool_added: { data, _, tool in seat(data).toolAdded(tool) },
        pad_added: { _, _, pad in zwp_tablet_pad_v2_destroy(pad) })

    nonisolated(unsafe) static var tablet = zwp_tablet_v2_listener(
        name: { data, _, name in seat(data).tabletNamed(name.map { String(cString: $0) }) },
        id: { _, _, _, _ in },
        path: { _, _, _ in },
        done: { _, _ in },
        removed: { data, tablet in seat(data).tabletRemoved(tablet) })

    nonisolated(unsafe) static var tool = zwp_tablet_tool_v2_listener(
        type: { data, tool, type in seat(data).toolType(tool, type) },
        hardware_serial: { _, _, _, _ in },
        hardware_id_wacom: { _, _, _, _ in },
        capability: { data, tool, capability in seat(data).toolCapability(tool, capability) },
        done: { data, tool in seat(data).toolDone(tool) },
        removed: { data, tool in seat(data).toolRemoved(tool) },
        proximity_in: { data, tool, _, _, surface in seat(data).toolProximityIn(tool, surface) },
        proximity_out: { data, tool in seat(data).toolProximityOut(tool) },
        down: { data, tool, _ in seat(data).toolTip(tool, down: true) },
        up: { data, tool in seat(data).toolTip(tool, down: false) },
        motion: { data, tool, x, y in seat(data).toolMotion(tool, x: fixed(x), y: fixed(y)) },
        pressure: { data, tool, pressure in seat(data).toolPressure(tool, pressure) },
        distance: { data, tool, distance in seat(data).toolDistance(tool, distance) },
        tilt: { data, tool, x, y in seat(data).toolTilt(tool, x: fixed(x), y: fixed(y)) },
        rotation: { _, _, _ in },
        slider: { _, _, _ in },
        wheel: { _, _, _, _ in },
        button: { data, tool, _, button, state in
            seat(data).toolButton(tool, button, pressed: state == ZWP_TABLET_TOOL_V2_BUTTON_STATE_PRESSED.rawValue)
        },
        frame: { data, tool, time in seat(data).toolFrame(tool, time: time) })
}
