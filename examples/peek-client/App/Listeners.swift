import CWaylandClient
import PeekUI

// Every libwayland listener of the client, and the only place with `Unmanaged`: the listener data
// is the app, unretained (the app destroys every proxy before it goes away).

func context(_ app: PeekApp) -> UnsafeMutableRawPointer { Unmanaged.passUnretained(app).toOpaque() }

private func app(_ data: UnsafeMutableRawPointer?) -> PeekApp {
    Unmanaged<PeekApp>.fromOpaque(data!).takeUnretainedValue()
}

nonisolated(unsafe) var registryListener = wl_registry_listener(
    global: { data, _, name, interface, version in
        guard let interface else { return }
        app(data).global(name: name, interface: String(cString: interface), version: version)
    },
    global_remove: { data, _, name in app(data).globalRemoved(name: name) })

nonisolated(unsafe) var wmBaseListener = xdg_wm_base_listener(
    ping: { _, wmBase, serial in xdg_wm_base_pong(wmBase, serial) })

nonisolated(unsafe) var xdgSurfaceListener = xdg_surface_listener(
    configure: { data, _, serial in app(data).xdgSurfaceConfigured(serial: serial) })

nonisolated(unsafe) var toplevelListener = xdg_toplevel_listener(
    configure: { data, _, width, height, _ in app(data).toplevelConfigured(width: width, height: height) },
    close: { data, _ in app(data).closeRequested() },
    configure_bounds: { _, _, _, _ in },
    wm_capabilities: { _, _, _ in })

nonisolated(unsafe) var surfaceListener = wl_surface_listener(
    enter: { data, _, output in app(data).surfaceEntered(output) },
    leave: { data, _, output in app(data).surfaceLeft(output) })

nonisolated(unsafe) var outputListener = wl_output_listener(
    geometry: { _, _, _, _, _, _, _, _, _, _ in },
    mode: { _, _, _, _, _, _ in },
    done: { _, _ in },
    scale: { data, output, factor in app(data).outputScale(output, factor) },
    name: { _, _, _ in },
    description: { _, _, _ in })

nonisolated(unsafe) var frameListener = wl_callback_listener(
    done: { data, _, _ in app(data).frameDone() })

nonisolated(unsafe) var bufferListener = wl_buffer_listener(
    release: { data, buffer in app(data).bufferReleased(buffer) })

nonisolated(unsafe) var seatListener = wl_seat_listener(
    capabilities: { data, _, capabilities in app(data).seatCapabilities(capabilities) },
    name: { _, _, _ in })

nonisolated(unsafe) var pointerListener = wl_pointer_listener(
    enter: { data, _, serial, _, x, y in
        app(data).pointerEntered(serial: serial, x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
    },
    leave: { _, _, _, _ in },
    motion: { data, _, _, x, y in app(data).pointerMoved(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y)) },
    button: { data, _, serial, _, button, state in
        app(data).inputSerial = serial
        app(data).pointerButton(button, pressed: state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue)
    },
    axis: { data, _, _, axis, value in app(data).pointerAxis(axis, value: wl_fixed_to_double(value)) },
    frame: { _, _ in },
    axis_source: { _, _, _ in },
    axis_stop: { _, _, _, _ in },
    axis_discrete: { _, _, _, _ in },
    axis_value120: { _, _, _, _ in })

nonisolated(unsafe) var touchListener = wl_touch_listener(
    down: { data, _, _, _, _, id, x, y in app(data).touchDown(id, x: wl_fixed_to_double(x), y: wl_fixed_to_double(y)) },
    up: { data, _, _, _, id in app(data).touchUp(id) },
    motion: { data, _, _, id, x, y in app(data).touchMoved(id, x: wl_fixed_to_double(x), y: wl_fixed_to_double(y)) },
    frame: { _, _ in },
    cancel: { data, _ in app(data).touchCancelled() },
    shape: { _, _, _, _, _ in },
    orientation: { _, _, _, _ in })

nonisolated(unsafe) var keyboardListener = wl_keyboard_listener(
    keymap: { data, _, _, fd, _ in app(data).keymapReceived(fd: fd) },
    enter: { data, _, serial, _, _ in app(data).inputSerial = serial },
    leave: { _, _, _, _ in },
    key: { data, _, _, _, key, state in
        app(data).key(key, pressed: state == WL_KEYBOARD_KEY_STATE_PRESSED.rawValue)
    },
    modifiers: { data, _, _, depressed, _, _, _ in app(data).modifiers(depressed: depressed) },
    repeat_info: { _, _, _, _ in })

nonisolated(unsafe) var tabletSeatListener = zwp_tablet_seat_v2_listener(
    tablet_added: { data, _, tablet in zwp_tablet_v2_add_listener(tablet, &tabletListener, data) },
    tool_added: { data, _, tool in app(data).toolAdded(tool) },
    pad_added: { _, _, pad in zwp_tablet_pad_v2_destroy(pad) })

nonisolated(unsafe) var tabletListener = zwp_tablet_v2_listener(
    name: { _, _, _ in },
    id: { _, _, _, _ in },
    path: { _, _, _ in },
    done: { _, _ in },
    removed: { _, tablet in zwp_tablet_v2_destroy(tablet) })

nonisolated(unsafe) var toolListener = zwp_tablet_tool_v2_listener(
    type: { _, _, _ in },
    hardware_serial: { _, _, _, _ in },
    hardware_id_wacom: { _, _, _, _ in },
    capability: { _, _, _ in },
    done: { _, _ in },
    removed: { data, tool in app(data).toolRemoved(tool) },
    proximity_in: { data, _, _, _, _ in app(data).pen.inside = true },
    proximity_out: { data, _ in app(data).toolLeft() },
    down: { data, _, serial in
        app(data).inputSerial = serial
        app(data).pen.tip = true
    },
    up: { data, _ in app(data).pen.tip = false },
    motion: { data, _, x, y in app(data).pen.position = Point(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y)) },
    pressure: { data, _, pressure in app(data).pen.pressure = Double(pressure) / 65535 },
    distance: { _, _, _ in },
    tilt: { _, _, _, _ in },
    rotation: { _, _, _ in },
    slider: { _, _, _ in },
    wheel: { _, _, _, _ in },
    button: { _, _, _, _, _ in },
    frame: { data, _, _ in app(data).toolFrame() })

nonisolated(unsafe) var dataSourceListener = wl_data_source_listener(
    target: { _, _, _ in },
    send: { data, _, mimeType, fd in app(data).clipboardSend(mimeType: mimeType.map { String(cString: $0) }, fd: fd) },
    cancelled: { data, source in app(data).clipboardCancelled(source) },
    dnd_drop_performed: { _, _ in },
    dnd_finished: { _, _ in },
    action: { _, _, _ in })
