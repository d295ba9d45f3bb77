import CLibinput
import Logging
import PreviewEngine

/// The real libinput as a source of engine inputs. Pens: libinput's tablet tool events with
/// its normalised pressure. Touchscreens: libinput touches plus per-slot pressure from the
/// kernel state. Touchpads: fingers and pressure from the kernel state of the fd libinput
/// reads (libinput has no touchpad pressure), pointer motion, clicks and hold gestures.
/// Devices without pressure use the long-press fallback (`hasForce: false`).
///
/// Single-threaded: call everything from the thread that runs the host's event loop.
public final class LibinputBackend {
    private let context: LibinputContext
    private let logger: Logger
    public var output: OutputSize
    private var devices: [OpaquePointer: Device] = [:]
    private var nextDevice: UInt32 = 1
    private let quirks: (String) -> PressureQuirks

    public enum Source: Hashable, Sendable {
        /// Devices are added with `addDevice(path:)` (tools, tests, compositors that already know the nodes).
        case path
        /// Every input device of the udev seat, with hotplug.
        case udev(seat: String)
    }

    /// Nil, with a log line, when libinput cannot be set up. `quirks` gives the libinput
    /// quirks of a device node (e.g. from `libinput quirks list`); default: none.
    public init?(
        source: Source, output: OutputSize = .fullHD, opener: DeviceOpener = .direct,
        quirks: @escaping (String) -> PressureQuirks = { _ in PressureQuirks() },
        logger: Logger = Logger(label: "libinput-backend")
    ) {
        let backend: LibinputContext.Backend =
            switch source {
            case .path: .path
            case .udev(let seat): .udev(seat: seat)
            }
        guard let context = LibinputContext(backend: backend, opener: opener, logger: logger) else { return nil }
        self.context = context
        self.logger = logger
        self.output = output
        self.quirks = quirks
    }

    /// The fd to poll for readability; then call `dispatch`.
    public var fileDescriptor: Int32 { libinput_get_fd(context.raw) }

    /// Path backend: adds a device node. False (and a log line) when libinput refuses it or
    /// it cannot be opened; the device appears as `.deviceAdded` on the next dispatch.
    @discardableResult
    public func addDevice(path: String) -> Bool {
        guard libinput_path_add_device(context.raw, path) != nil else {
            logger.error("libinput did not accept \(path) (see the lines above for why)")
            return false
        }
        return true
    }

    /// Path backend: removes a device as if unplugged; its contacts end with `.deviceRemoved`.
    public func removeDevice(_ id: DeviceID) {
        guard let raw = devices.first(where: { $0.value.id == id })?.key else { return }
        libinput_path_remove_device(raw)
    }

    /// Reads what libinput has, then samples the kernel pressure state of touch devices.
    /// `now` is the host's CLOCK_MONOTONIC time, used for samples no libinput event dated.
    public func dispatch(now: Timestamp, _ emit: (BackendEvent) -> Void) {
        if libinput_dispatch(context.raw) != 0 {
            logger.error("libinput_dispatch failed")
        }
        while let event = libinput_get_event(context.raw) {
            handle(event, now: now, emit)
            libinput_event_destroy(event)
        }
        for device in devices.values where device.pressure != nil {
            sampleKernelState(device, now: now, emit)
        }
    }

    /// Ends every contact (as `.system`) and releases libinput, which closes its fds.
    public func shutdown(now: Timestamp, _ emit: (BackendEvent) -> Void) {
        for device in devices.values { endAll(device, at: now, reason: .system, emit) }
        devices.removeAll()
    }

    private func handle(_ event: OpaquePointer, now: Timestamp, _ emit: (BackendEvent) -> Void) {
        guard let raw = libinput_event_get_device(event) else { return }
        let type = libinput_event_get_type(event)
        switch type {
        case LIBINPUT_EVENT_DEVICE_ADDED:
            added(raw, emit)
        case LIBINPUT_EVENT_DEVICE_REMOVED:
            guard let device = devices.removeValue(forKey: raw) else { return }
            logger.info("device removed: \(device.name)")
            emit(.deviceRemoved(device.id, at: device.lastEventTime.map { max($0, now) } ?? now))
        default:
            guard let device = devices[raw] else { return }
            switch device.kind {
            case .tablet: tablet(event, type, device, emit)
            case .touchscreen: touch(event, type, device, emit)
            case .touchpad, .pointer: pointer(event, type, device, emit)
            case .other: return
            }
        }
    }

    private func added(_ raw: OpaquePointer, _ emit: (BackendEvent) -> Void) {
        let name = String(cString: libinput_device_get_name(raw))
        let node = libinput_device_get_udev_device(raw).map { udevice in
            defer { udev_device_unref(udevice) }
            return udev_device_get_devnode(udevice).map { String(cString: $0) } ?? ""
        } ?? ""
        let kind = Self.kind(of: raw)
        let fd = context.openFiles[node]
        var pressure: TouchPressure?
        var pressurePad = false
        if kind == .touchscreen || kind == .touchpad {
            if let fd {
                let state = EvdevState(fd: fd)
                pressure = TouchPressure(state: state, quirks: quirks(node))
                pressurePad = state.hasProperty(inputPropPressurePad)
            } else {
                logger.warning("\(name): no fd for \(node); its touches use the long-press fallback")
            }
        }
        let id = DeviceID(nextDevice)
        nextDevice += 1
        let device = Device(id: id, name: name, kind: kind, pressure: pressure, isPressurePad: pressurePad)
        devices[raw] = device
        let hasForce = kind == .tablet || pressure != nil
        let origin = kind == .tablet ? "libinput tablet pressure" : pressure?.origin ?? "none (long-press)"
        logger.info("device added: \(name) (\(node)) as \(device.source), force: \(origin)")
        emit(
            .deviceAdded(
                DeviceDescription(id: id, name: name, source: device.source, hasForce: hasForce, forceOrigin: origin)))
    }

    private static func kind(of raw: OpaquePointer) -> Device.Kind {
        if libinput_device_has_capability(raw, LIBINPUT_DEVICE_CAP_TABLET_TOOL) != 0 { return .tablet }
        if libinput_device_has_capability(raw, LIBINPUT_DEVICE_CAP_TOUCH) != 0 { return .touchscreen }
        if libinput_device_has_capability(raw, LIBINPUT_DEVICE_CAP_POINTER) != 0 {
            return libinput_device_config_tap_get_finger_count(raw) > 0 ? .touchpad : .pointer
        }
        return .other
    }

    // MARK: Pens

    private func tablet(
        _ event: OpaquePointer, _ type: libinput_event_type, _ device: Device, _ emit: (BackendEvent) -> Void
    ) {
        guard let tool = libinput_event_get_tablet_tool_event(event) else { return }
        let time = timestamp(libinput_event_tablet_tool_get_time_usec(tool))
        device.lastEventTime = time
        let sample = ForceSample(
            time: time, force: libinput_event_tablet_tool_get_pressure(tool),
            location: Point(
                x: libinput_event_tablet_tool_get_x_transformed(tool, UInt32(output.width)),
                y: libinput_event_tablet_tool_get_y_transformed(tool, UInt32(output.height))),
            source: .pen, contact: device.key(0))
        switch type {
        case LIBINPUT_EVENT_TABLET_TOOL_TIP:
            if libinput_event_tablet_tool_get_tip_state(tool) == LIBINPUT_TABLET_TOOL_TIP_DOWN {
                guard !device.penDown else { return }
                device.penDown = true
                let handle = libinput_event_tablet_tool_get_tool(tool)
                device.penHasForce = handle.map { libinput_tablet_tool_has_pressure($0) != 0 } ?? false
                emit(.contactBegan(sample, hasForce: device.penHasForce))
            } else if device.penDown {
                device.penDown = false
                emit(.contactEnded(device.key(0), at: time, reason: .lifted))
            }
        case LIBINPUT_EVENT_TABLET_TOOL_AXIS:
            if device.penDown { emit(.forceChanged(sample)) }
        case LIBINPUT_EVENT_TABLET_TOOL_PROXIMITY:
            // libinput sends tip-up before proximity-out; this only guards odd devices.
            if libinput_event_tablet_tool_get_proximity_state(tool) == LIBINPUT_TABLET_TOOL_PROXIMITY_STATE_OUT,
                device.penDown
            {
                device.penDown = false
                emit(.contactEnded(device.key(0), at: time, reason: .lifted))
            }
        default:
            return
        }
    }

    // MARK: Touchscreens

    private func touch(
        _ event: OpaquePointer, _ type: libinput_event_type, _ device: Device, _ emit: (BackendEvent) -> Void
    ) {
        guard let touch = libinput_event_get_touch_event(event) else { return }
        let time = timestamp(libinput_event_touch_get_time_usec(touch))
        device.lastEventTime = time
        switch type {
        case LIBINPUT_EVENT_TOUCH_DOWN, LIBINPUT_EVENT_TOUCH_MOTION:
            let slot = max(0, libinput_event_touch_get_slot(touch))
            let location = Point(
                x: libinput_event_touch_get_x_transformed(touch, UInt32(output.width)),
                y: libinput_event_touch_get_y_transformed(touch, UInt32(output.height)))
            let force = touchForce(device, slot: slot)
            let sample = ForceSample(
                time: time, force: force, location: location, source: .touchscreen, contact: device.key(slot))
            device.touchLocations[slot] = location
            if type == LIBINPUT_EVENT_TOUCH_DOWN {
                guard device.touches[slot] == nil else { return }
                device.touches[slot] = force
                emit(.contactBegan(sample, hasForce: device.pressure != nil))
            } else if device.touches[slot] != nil {
                device.touches[slot] = force
                emit(.forceChanged(sample))
            }
        case LIBINPUT_EVENT_TOUCH_UP, LIBINPUT_EVENT_TOUCH_CANCEL:
            let slot = max(0, libinput_event_touch_get_slot(touch))
            guard device.touches.removeValue(forKey: slot) != nil else { return }
            device.touchLocations[slot] = nil
            emit(
                .contactEnded(device.key(slot), at: time, reason: type == LIBINPUT_EVENT_TOUCH_UP ? .lifted : .system))
        default:
            return
        }
    }

    private func touchForce(_ device: Device, slot: Int32) -> Double {
        guard let pressure = device.pressure, pressure.refresh() else { return 0 }
        return pressure.force(slot: Int(slot))
    }

    // MARK: Touchpads and mice

    private func pointer(
        _ event: OpaquePointer, _ type: libinput_event_type, _ device: Device, _ emit: (BackendEvent) -> Void
    ) {
        switch type {
        case LIBINPUT_EVENT_POINTER_MOTION:
            guard let motion = libinput_event_get_pointer_event(event) else { return }
            let time = timestamp(libinput_event_pointer_get_time_usec(motion))
            device.lastEventTime = time
            emit(
                .pointerMotion(
                    device.id, dx: libinput_event_pointer_get_dx(motion), dy: libinput_event_pointer_get_dy(motion),
                    at: time))
        case LIBINPUT_EVENT_POINTER_BUTTON:
            guard let button = libinput_event_get_pointer_event(event),
                libinput_event_pointer_get_button(button) == btnLeft
            else { return }
            let time = timestamp(libinput_event_pointer_get_time_usec(button))
            device.lastEventTime = time
            let pressed = libinput_event_pointer_get_button_state(button) == LIBINPUT_BUTTON_STATE_PRESSED
            if device.kind == .touchpad, device.pressure != nil {
                // Force click: the physical click is the deepest press the pad can report.
                device.clickHeld = pressed
                sampleKernelState(device, now: time, emit)
            } else if pressed, !device.buttonDown {
                device.buttonDown = true
                let sample = ForceSample(
                    time: time, force: 0, location: .zero, source: device.source,
                    contact: device.key(Int32(btnLeft)))
                emit(.contactBegan(sample, hasForce: false))
            } else if !pressed, device.buttonDown {
                device.buttonDown = false
                emit(.contactEnded(device.key(Int32(btnLeft)), at: time, reason: .lifted))
            }
        case LIBINPUT_EVENT_GESTURE_HOLD_BEGIN, LIBINPUT_EVENT_GESTURE_HOLD_END:
            // Touchpads without pressure: a resting finger is libinput's hold gesture,
            // which is exactly the long-press fallback's contact.
            guard device.pressure == nil, let gesture = libinput_event_get_gesture_event(event) else { return }
            let time = timestamp(libinput_event_gesture_get_time_usec(gesture))
            device.lastEventTime = time
            if type == LIBINPUT_EVENT_GESTURE_HOLD_BEGIN, !device.holdActive {
                device.holdActive = true
                let sample = ForceSample(
                    time: time, force: 0, location: .zero, source: .touchpad, contact: device.key(0))
                emit(.contactBegan(sample, hasForce: false))
            } else if type == LIBINPUT_EVENT_GESTURE_HOLD_END, device.holdActive {
                device.holdActive = false
                let moved = libinput_event_gesture_get_cancelled(gesture) != 0
                emit(.contactEnded(device.key(0), at: time, reason: moved ? .moved : .lifted))
            }
        default:
            if let time = libinput_event_get_pointer_event(event).map({ libinput_event_pointer_get_time_usec($0) }) {
                device.lastEventTime = timestamp(time)
            }
        }
    }

    // MARK: Kernel state

    /// Touchpad fingers come and go, and touch pressure changes, without libinput telling:
    /// compare the kernel's slots with what was last reported.
    private func sampleKernelState(_ device: Device, now: Timestamp, _ emit: (BackendEvent) -> Void) {
        guard let pressure = device.pressure else { return }
        guard pressure.refresh() else {
            logger.warning("\(device.name): evdev state unreadable; ending its contacts")
            endAll(device, at: now, reason: .system, emit)
            return
        }
        let time = device.lastEventTime.map { max($0, now) } ?? now
        switch device.kind {
        case .touchscreen:
            for (slot, last) in device.touches {
                let force = pressure.force(slot: Int(slot))
                guard force != last else { continue }
                device.touches[slot] = force
                emit(
                    .forceChanged(
                        ForceSample(
                            time: time, force: force, location: device.touchLocations[slot] ?? .zero,
                            source: .touchscreen, contact: device.key(slot))))
            }
        case .touchpad:
            for slot in 0..<pressure.slotCount {
                let key = Int32(slot)
                let touching = pressure.isTouching(slot: slot)
                let last = device.padFingers[key]
                if !touching {
                    if last != nil {
                        device.padFingers[key] = nil
                        emit(.contactEnded(device.key(key), at: time, reason: .lifted))
                    }
                    continue
                }
                let force = device.clickHeld ? 1 : pressure.force(slot: slot)
                let sample = ForceSample(
                    time: time, force: force, location: pressure.location(slot: slot, output: output),
                    source: .touchpad, contact: device.key(key))
                if last == nil {
                    device.padFingers[key] = force
                    emit(.contactBegan(sample, hasForce: true))
                } else if last != force {
                    device.padFingers[key] = force
                    emit(.forceChanged(sample))
                }
            }
        case .tablet, .pointer, .other:
            return
        }
    }

    private func endAll(_ device: Device, at time: Timestamp, reason: CancelReason, _ emit: (BackendEvent) -> Void) {
        if device.penDown { emit(.contactEnded(device.key(0), at: time, reason: reason)) }
        for slot in device.touches.keys.sorted() { emit(.contactEnded(device.key(slot), at: time, reason: reason)) }
        for slot in device.padFingers.keys.sorted() { emit(.contactEnded(device.key(slot), at: time, reason: reason)) }
        if device.holdActive { emit(.contactEnded(device.key(0), at: time, reason: reason)) }
        if device.buttonDown { emit(.contactEnded(device.key(Int32(btnLeft)), at: time, reason: reason)) }
        device.penDown = false
        device.touches.removeAll()
        device.padFingers.removeAll()
        device.holdActive = false
        device.buttonDown = false
    }
}
