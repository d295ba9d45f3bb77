import CLibinput
import EvdevDecoder
import InputEvents
import PreviewEngine
import PreviewLog

/// The real libinput as a source of the decoder's `DeviceEvent`s. Pens: libinput's tablet tool
/// events with its normalised pressure (tip threshold and worn-pen offset handled by libinput).
/// Touchscreens: libinput touches plus per-slot pressure from the kernel state. Touchpads:
/// libinput's pointer motion and clicks; the click (the "force click") is the contact, its force
/// the hardest finger's pressure read from the kernel state of the fd libinput reads (libinput
/// has no touchpad pressure). Mice: the primary button with the long-press fallback.
///
/// Single-threaded: call everything from the thread that runs the host's event loop.
///
///     let backend = LibinputBackend(source: .udev(seat: "seat0"), opener: logindOpener)!
///     // when backend.fileDescriptor is readable (and after any host timer):
///     backend.dispatch(now: monotonicNow) { event in
///         switch event {
///         case .deviceAdded(let device): ...            // name, kind, hasForce
///         case .deviceRemoved(let id, let time): ...    // its contacts already ended (.deviceRemoved)
///         case .input(let input): ...                   // exactly what EvdevDecoder emits
///         }
///     }
public final class LibinputBackend {
    private let context: LibinputContext
    private let logger: Log
    private let seat: UInt32
    private var devices: [OpaquePointer: Device] = [:]
    private var nextDevice: UInt32
    private var batch: [OpaquePointer] = []
    private let quirks: (String) -> PressureQuirks
    private let haptics: HapticIntensity
    /// Every haptic effect played (device, effect, the time of the event that caused it), in
    /// the dispatch that caused it: for the trace and tests.
    public var onHaptic: ((DeviceID, HapticMoment, Timestamp) -> Void)?

    public enum Source: Hashable, Sendable {
        /// Devices are added with `addDevice(path:)` (tools, tests, hosts that know the nodes).
        case path
        /// Every input device of the udev seat (e.g. "seat0"), with hotplug.
        case udev(seat: String)
    }

    /// Nil, with a log line, when libinput cannot be set up. Devices are numbered from
    /// `firstDevice` in order of arrival. `quirks` gives the libinput quirks of a device node
    /// (e.g. parsed from `libinput quirks list NODE`); default: none.
    public init?(
        source: Source, opener: DeviceOpener = .direct, seat: UInt32 = 0, firstDevice: UInt32 = 1,
        quirks: @escaping (String) -> PressureQuirks = { _ in PressureQuirks() },
        haptics: HapticIntensity = .off,
        logger: Log = .discarding
    ) {
        let backend: LibinputContext.Backend =
            switch source {
            case .path: .path
            case .udev(let seat): .udev(seat: seat)
            }
        guard let context = LibinputContext(backend: backend, opener: opener, logger: logger) else { return nil }
        self.context = context
        self.logger = logger
        self.seat = seat
        self.nextDevice = firstDevice
        self.quirks = quirks
        self.haptics = haptics
        batch.reserveCapacity(256)
    }

    /// Hands every haptic pad back to its firmware (effects erased): on every normal exit.
    deinit { stopHaptics() }

    public func stopHaptics() {
        for device in devices.values {
            device.haptic?.close()
            device.haptic = nil
        }
    }

    /// Plays a moment the host core decided (`InteractionDriver`'s haptic moments) on the
    /// device's pad, in the same dispatch: false when it has none (or the write failed).
    @discardableResult
    public func play(_ moment: HapticMoment, device id: DeviceID, at time: Timestamp) -> Bool {
        guard let device = devices.values.first(where: { $0.id == id }), let pad = device.haptic, pad.play(moment)
        else { return false }
        onHaptic?(id, moment, time)
        return true
    }

    /// Whether the device plays effects: a pad in host mode (the user has haptics on).
    public func hasHaptics(device id: DeviceID) -> Bool {
        devices.values.first { $0.id == id }?.haptic != nil
    }

    /// A short effect an app asked for on the device driving its interaction: dropped when the
    /// user turned haptics off (no pad then), the device has none, or it comes too soon after
    /// the previous one (`HapticPad.appEffectInterval`). The protocol server calls this.
    @discardableResult
    public func playRequestedHaptic(_ moment: HapticMoment, device id: DeviceID, at time: Timestamp) -> Bool {
        guard let device = devices.values.first(where: { $0.id == id }), let pad = device.haptic,
            pad.playRequested(moment, at: time)
        else { return false }
        onHaptic?(id, moment, time)
        return true
    }

    /// The fd to poll for readability; then call `dispatch`.
    public var fileDescriptor: Int32 { libinput_get_fd(context.raw) }

    /// Path backend: adds a device node. False (and a log line) when it cannot be opened or
    /// libinput refuses it; the device arrives as `.deviceAdded` on the next dispatch.
    @discardableResult
    public func addDevice(path: String) -> Bool {
        guard libinput_path_add_device(context.raw, path) != nil else {
            logger.error("libinput did not accept \(path) (the lines above say why)")
            return false
        }
        return true
    }

    /// Path backend: removes a device as if unplugged (its contacts end with `.deviceRemoved`).
    /// The libinput device behind `id` (a host hands it over to `HostedDevice`).
    public func libinputDevice(_ id: DeviceID) -> OpaquePointer? {
        devices.first { $0.value.id == id }?.key
    }

    public func removeDevice(_ id: DeviceID) {
        guard let raw = devices.first(where: { $0.value.id == id })?.key else { return }
        libinput_path_remove_device(raw)
    }

    /// Reads what libinput has, then samples the kernel pressure of touch devices that have
    /// contacts. `now` is the host's CLOCK_MONOTONIC time (libinput's clock), used for samples
    /// that no libinput event dates.
    public func dispatch(now: Timestamp, _ emit: (BackendEvent) -> Void) {
        if libinput_dispatch(context.raw) != 0 { logger.error("libinput_dispatch failed") }
        // libinput lifts a removed device's tools and touches before DEVICE_REMOVED, in the same
        // batch: read the batch first so those ends can say `.deviceRemoved`, not `.lifted`.
        while let event = libinput_get_event(context.raw) { batch.append(event) }
        for event in batch where libinput_event_get_type(event) == LIBINPUT_EVENT_DEVICE_REMOVED {
            if let raw = libinput_event_get_device(event) { devices[raw]?.removing = true }
        }
        for event in batch {
            handle(event, now: now, emit)
            libinput_event_destroy(event)
        }
        batch.removeAll(keepingCapacity: true)
        for device in devices.values where device.pressure != nil {
            samplePressure(device, now: now, emit)
        }
    }

    /// Ends every contact (`.system`); the backend stays usable.
    public func endAllContacts(now: Timestamp, _ emit: (BackendEvent) -> Void) {
        for device in devices.values { end(device, at: now, reason: .system, emit) }
    }

    private func handle(_ event: OpaquePointer, now: Timestamp, _ emit: (BackendEvent) -> Void) {
        guard let raw = libinput_event_get_device(event) else { return }
        let type = libinput_event_get_type(event)
        switch type {
        case LIBINPUT_EVENT_DEVICE_ADDED:
            added(raw, emit)
        case LIBINPUT_EVENT_DEVICE_REMOVED:
            guard let device = devices.removeValue(forKey: raw) else { return }
            let time = device.lastEventTime.map { max($0, now) } ?? now
            logger.info("device removed: \(device.name)")
            end(device, at: time, reason: .deviceRemoved, emit)
            device.haptic?.close()
            device.haptic = nil
            emit(.deviceRemoved(device.id, at: time))
        default:
            guard let device = devices[raw] else { return }
            switch device.kind {
            case .pen: tablet(event, type, device, emit)
            case .touchscreen: touch(event, type, device, emit)
            case .touchpad, .pointer: pointer(event, type, device, emit)
            case .keyboard: keyboard(event, type, device, emit)
            case .other: return
            }
        }
    }

    private func added(_ raw: OpaquePointer, _ emit: (BackendEvent) -> Void) {
        let name = libinput_device_get_name(raw).map { String(cString: $0) } ?? "libinput device"
        let node =
            libinput_device_get_udev_device(raw).map { udevice in
                defer { udev_device_unref(udevice) }
                return udev_device_get_devnode(udevice).map { String(cString: $0) } ?? ""
            } ?? ""
        let kind = Self.kind(of: raw)
        var pressure: TouchPressure?
        var pressurePad = false
        if kind == .touchscreen || kind == .touchpad {
            if let fd = context.openFiles[node] {
                let state = EvdevState(fd: fd)
                // libinput does not read a pressure pad's force (1.22 does not know the property
                // and takes its pressure for contact size, 1.30 disables it): we read the force.
                pressurePad = kind == .touchpad && state.hasProperty(inputPropPressurePad)
                pressure = TouchPressure(state: state, quirks: quirks(node), pressurePad: pressurePad)
                if pressure == nil { pressurePad = false }
            } else {
                logger.warning("\(name): no fd for \(node); its contacts use the long-press fallback")
            }
        }
        let id = DeviceID(nextDevice)
        nextDevice += 1
        let device = Device(id: id, seat: seat, name: name, kind: kind, pressure: pressure, pressurePad: pressurePad)
        if kind == .touchpad, haptics != .off {
            // A descriptor of its own, close-on-exec from its open: no child keeps the pad in host mode.
            device.haptic = HapticPad(node: node, name: name, intensity: haptics, logger: logger)
        }
        devices[raw] = device
        let hasForce = kind == .pen || pressure != nil
        let origin =
            (kind == .pen ? "libinput tablet pressure" : pressure?.origin ?? "none (long press)")
            + (pressurePad ? ", pressure pad: the finger is the contact" : "")
        logger.info("device added: \(name) (\(node)) as \(kind) \(id), force: \(origin)")
        emit(.deviceAdded(BackendDevice(id: id, name: name, kind: kind, hasForce: hasForce, forceOrigin: origin)))
    }

    static func kind(of raw: OpaquePointer) -> DeviceKind {
        if libinput_device_has_capability(raw, LIBINPUT_DEVICE_CAP_TABLET_TOOL) != 0 { return .pen }
        if libinput_device_has_capability(raw, LIBINPUT_DEVICE_CAP_TOUCH) != 0 { return .touchscreen }
        if libinput_device_has_capability(raw, LIBINPUT_DEVICE_CAP_POINTER) != 0 {
            return libinput_device_config_tap_get_finger_count(raw) > 0 ? .touchpad : .pointer
        }
        if libinput_device_has_capability(raw, LIBINPUT_DEVICE_CAP_KEYBOARD) != 0 { return .keyboard }
        return .other
    }

    // MARK: Pens

    private func tablet(
        _ event: OpaquePointer, _ type: libinput_event_type, _ device: Device, _ emit: (BackendEvent) -> Void
    ) {
        guard let tool = libinput_event_get_tablet_tool_event(event) else { return }
        let time = Timestamp(microseconds: Int64(clamping: libinput_event_tablet_tool_get_time_usec(tool)))
        device.lastEventTime = time
        let handle = libinput_event_tablet_tool_get_tool(tool)
        let hasPressure = handle.map { libinput_tablet_tool_has_pressure($0) != 0 } ?? false
        let axes = PenAxes(
            tool: handle.map { Self.penTool(libinput_tablet_tool_get_type($0)) } ?? .pen,
            distance: handle.flatMap {
                libinput_tablet_tool_has_distance($0) != 0 ? libinput_event_tablet_tool_get_distance(tool) : nil
            },
            tiltX: handle.flatMap {
                libinput_tablet_tool_has_tilt($0) != 0 ? libinput_event_tablet_tool_get_tilt_x(tool) : nil
            },
            tiltY: handle.flatMap {
                libinput_tablet_tool_has_tilt($0) != 0 ? libinput_event_tablet_tool_get_tilt_y(tool) : nil
            })
        // libinput's transformed coordinates over a 1×1 output: the tablet area, 0...1.
        let position = NormalisedPoint(
            x: libinput_event_tablet_tool_get_x_transformed(tool, 1),
            y: libinput_event_tablet_tool_get_y_transformed(tool, 1))
        let pressure = hasPressure ? libinput_event_tablet_tool_get_pressure(tool) : 0
        let state = ToolState(
            device: device.id, time: time, position: position, pressure: hasPressure ? pressure : nil, axes: axes)
        func contact() -> DeviceContact {
            DeviceContact(
                key: device.key(0), time: time, force: pressure, hasForce: device.penHasForce, position: position,
                positioning: .absolute, source: .pen, pen: axes)
        }
        switch type {
        case LIBINPUT_EVENT_TABLET_TOOL_PROXIMITY:
            let inProximity =
                libinput_event_tablet_tool_get_proximity_state(tool) == LIBINPUT_TABLET_TOOL_PROXIMITY_STATE_IN
            // libinput sends tip-up before proximity-out; this guards odd devices.
            if !inProximity, device.penDown {
                device.penDown = false
                emit(.input(.contactEnded(device.key(0), time: time, reason: device.liftReason)))
            }
            emit(.input(.toolProximity(state, inProximity: inProximity)))
        case LIBINPUT_EVENT_TABLET_TOOL_TIP:
            if libinput_event_tablet_tool_get_tip_state(tool) == LIBINPUT_TABLET_TOOL_TIP_DOWN {
                guard !device.penDown else { return }
                device.penDown = true
                device.penHasForce = hasPressure
                emit(.input(.contactBegan(contact())))
            } else if device.penDown {
                device.penDown = false
                emit(.input(.contactEnded(device.key(0), time: time, reason: device.liftReason)))
            }
        case LIBINPUT_EVENT_TABLET_TOOL_AXIS:
            emit(.input(device.penDown ? .contactChanged(contact()) : .toolMotion(state)))
        case LIBINPUT_EVENT_TABLET_TOOL_BUTTON:
            let pressed = libinput_event_tablet_tool_get_button_state(tool) == LIBINPUT_BUTTON_STATE_PRESSED
            emit(
                .input(
                    .button(
                        KeyState(
                            device: device.id, time: time,
                            code: UInt16(truncatingIfNeeded: libinput_event_tablet_tool_get_button(tool)),
                            pressed: pressed))))
        default:
            return
        }
        emit(.input(.frame(time)))
    }

    private static func penTool(_ type: libinput_tablet_tool_type) -> PenTool {
        switch type {
        case LIBINPUT_TABLET_TOOL_TYPE_ERASER: .eraser
        case LIBINPUT_TABLET_TOOL_TYPE_BRUSH: .brush
        case LIBINPUT_TABLET_TOOL_TYPE_PENCIL: .pencil
        case LIBINPUT_TABLET_TOOL_TYPE_AIRBRUSH: .airbrush
        case LIBINPUT_TABLET_TOOL_TYPE_MOUSE: .mouse
        case LIBINPUT_TABLET_TOOL_TYPE_LENS: .lens
        default: .pen
        }
    }

    // MARK: Touchscreens

    private func touch(
        _ event: OpaquePointer, _ type: libinput_event_type, _ device: Device, _ emit: (BackendEvent) -> Void
    ) {
        guard let touch = libinput_event_get_touch_event(event) else { return }
        let time = Timestamp(microseconds: Int64(clamping: libinput_event_touch_get_time_usec(touch)))
        device.lastEventTime = time
        switch type {
        case LIBINPUT_EVENT_TOUCH_DOWN, LIBINPUT_EVENT_TOUCH_MOTION:
            let slot = max(0, libinput_event_touch_get_slot(touch))
            let contact = DeviceContact(
                key: device.key(slot), time: time, force: touchForce(device, slot: slot),
                hasForce: device.pressure != nil,
                position: NormalisedPoint(
                    x: libinput_event_touch_get_x_transformed(touch, 1),
                    y: libinput_event_touch_get_y_transformed(touch, 1)),
                positioning: .absolute, source: .touchscreen)
            if type == LIBINPUT_EVENT_TOUCH_DOWN {
                guard device.touches[slot] == nil else { return }
                device.touches[slot] = contact
                emit(.input(.contactBegan(contact)))
            } else if device.touches[slot] != nil {
                device.touches[slot] = contact
                emit(.input(.contactChanged(contact)))
            }
        case LIBINPUT_EVENT_TOUCH_UP, LIBINPUT_EVENT_TOUCH_CANCEL:
            let slot = max(0, libinput_event_touch_get_slot(touch))
            guard device.touches.removeValue(forKey: slot) != nil else { return }
            emit(
                .input(
                    .contactEnded(
                        device.key(slot), time: time,
                        reason: type == LIBINPUT_EVENT_TOUCH_UP ? device.liftReason : .system)))
        case LIBINPUT_EVENT_TOUCH_FRAME:
            emit(.input(.frame(time)))
        default:
            return
        }
    }

    private func touchForce(_ device: Device, slot: Int32) -> Double {
        guard let pressure = device.pressure, pressure.refresh() else { return 0 }
        return pressure.slotCount > 1 ? pressure.force(slot: Int(slot)) : pressure.force(slot: 0)
    }

    // MARK: Touchpads and mice

    private func pointer(
        _ event: OpaquePointer, _ type: libinput_event_type, _ device: Device, _ emit: (BackendEvent) -> Void
    ) {
        guard let pointer = libinput_event_get_pointer_event(event) else { return }
        let time = Timestamp(microseconds: Int64(clamping: libinput_event_pointer_get_time_usec(pointer)))
        device.lastEventTime = time
        switch type {
        case LIBINPUT_EVENT_POINTER_MOTION:
            // Unaccelerated: 1000-DPI mouse units, like the decoder's RelativeMotion.
            emit(
                .input(
                    .pointerMotion(
                        RelativeMotion(
                            device: device.id, time: time, dx: libinput_event_pointer_get_dx_unaccelerated(pointer),
                            dy: libinput_event_pointer_get_dy_unaccelerated(pointer)))))
        case LIBINPUT_EVENT_POINTER_BUTTON:
            let code = UInt16(truncatingIfNeeded: libinput_event_pointer_get_button(pointer))
            let pressed = libinput_event_pointer_get_button_state(pointer) == LIBINPUT_BUTTON_STATE_PRESSED
            let button = DeviceEvent.button(KeyState(device: device.id, time: time, code: code, pressed: pressed))
            emit(.input(button))
            // The click is the contact (on a pressure pad, the "force click"): the primary button
            // of a mouse; any of the three a touchpad makes (libinput maps clickpad clicks to
            // left/right/middle by finger position), like the decoder.
            let bit: UInt8? =
                switch code {
                case KeyCode.btnLeft: 1
                case KeyCode.btnRight where device.kind == .touchpad: 2
                case KeyCode.btnMiddle where device.kind == .touchpad: 4
                default: nil
                }
            // A pressure pad's button is its own force threshold, not the contact (the finger is).
            guard let bit, !device.pressurePad else { break }
            let wasDown = device.buttons != 0
            device.buttons = pressed ? device.buttons | bit : device.buttons & ~bit
            if !wasDown, device.buttons != 0, device.click == nil {
                let contact = clickContact(device, at: time)
                device.click = contact
                emit(.input(.contactBegan(contact)))
            } else if device.buttons == 0, device.click != nil {
                device.click = nil
                emit(.input(.contactEnded(device.key(0), time: time, reason: device.liftReason)))
            }
        default:
            return
        }
        emit(.input(.frame(time)))
    }

    private func clickContact(_ device: Device, at time: Timestamp) -> DeviceContact {
        let pressure = device.pressure.flatMap { $0.refresh() ? $0 : nil }
        return DeviceContact(
            key: device.key(0), time: time, force: pressure?.hardestForce() ?? 0, hasForce: device.pressure != nil,
            position: pressure?.padPosition() ?? .centre, positioning: .cursor,
            source: device.kind == .touchpad ? .touchpad : .pointer)
    }

    private func keyboard(
        _ event: OpaquePointer, _ type: libinput_event_type, _ device: Device, _ emit: (BackendEvent) -> Void
    ) {
        guard type == LIBINPUT_EVENT_KEYBOARD_KEY, let key = libinput_event_get_keyboard_event(event) else { return }
        let time = Timestamp(microseconds: Int64(clamping: libinput_event_keyboard_get_time_usec(key)))
        let pressed = libinput_event_keyboard_get_key_state(key) == LIBINPUT_KEY_STATE_PRESSED
        emit(
            .input(
                .key(
                    KeyState(
                        device: device.id, time: time,
                        code: UInt16(truncatingIfNeeded: libinput_event_keyboard_get_key(key)),
                        pressed: pressed))))
        emit(.input(.frame(time)))
    }

    // MARK: Kernel state

    /// Pressure changes without libinput telling (a finger pressing harder does not move):
    /// compare the kernel's state with what was last reported, for open contacts only.
    private func samplePressure(_ device: Device, now: Timestamp, _ emit: (BackendEvent) -> Void) {
        guard let pressure = device.pressure, device.pressurePad || !device.touches.isEmpty || device.click != nil
        else { return }
        guard pressure.refresh() else {
            logger.warning("\(device.name): evdev state unreadable; ending its contacts")
            end(device, at: now, reason: .system, emit)
            return
        }
        let time = device.lastEventTime.map { max($0, now) } ?? now
        if device.pressurePad, pressurePadContact(device, pressure, at: time, emit) { return }
        var changed = false
        for (slot, last) in device.touches {
            let force = pressure.slotCount > 1 ? pressure.force(slot: Int(slot)) : pressure.force(slot: 0)
            guard force != last.force else { continue }
            var contact = last
            contact.force = force
            contact.time = time
            device.touches[slot] = contact
            emit(.input(.contactChanged(contact)))
            changed = true
        }
        if var contact = device.click {
            let force = pressure.hardestForce()
            if force != contact.force {
                contact.force = force
                contact.time = time
                contact.position = pressure.padPosition()
                device.click = contact
                emit(.input(.contactChanged(contact)))
                changed = true
            }
        }
        if changed { emit(.input(.frame(time))) }
    }

    /// A pressure pad's contact begins when a finger is on the pad and ends when none is
    /// (libinput has no event for either on a pad it takes for a clickpad). True when it
    /// began or ended in this call (its frame is emitted).
    private func pressurePadContact(
        _ device: Device, _ pressure: TouchPressure, at time: Timestamp, _ emit: (BackendEvent) -> Void
    ) -> Bool {
        let touching = pressure.anyTouching
        if touching, device.click == nil {
            let contact = clickContact(device, at: time)
            device.click = contact
            emit(.input(.contactBegan(contact)))
        } else if !touching, device.click != nil {
            device.click = nil
            emit(.input(.contactEnded(device.key(0), time: time, reason: device.liftReason)))
        } else {
            return false
        }
        emit(.input(.frame(time)))
        return true
    }

    private func end(_ device: Device, at time: Timestamp, reason: CancelReason, _ emit: (BackendEvent) -> Void) {
        let keys = device.openContacts
        guard !keys.isEmpty else { return }
        for key in keys { emit(.input(.contactEnded(key, time: time, reason: reason))) }
        device.forgetContacts()
        emit(.input(.frame(time)))
    }
}
