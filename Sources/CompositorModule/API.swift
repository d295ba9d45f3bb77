import CCompositorModule
import EvdevDecoder
import LibinputBackend
import PreviewEngine
import PreviewLog
import PreviewProtocolServer

// The C entry points (include/preview-interaction.h). Each one looks its handle up, checks
// the thread and its arguments, and returns a status: nothing a host passes can trap here.

/// Runs `body` on the context of `handle` (a context handle). `quiet`: a status that is no
/// misuse (logged as debug only).
func call(
    _ handle: OpaquePointer?, function: String = #function, quiet: Status? = nil,
    _ body: (EmbeddedContext) throws(Status) -> Void
) -> Int32 {
    guard let context = Handles.shared.context(handle), !context.destroyed else {
        return Status.invalidContext.rawValue
    }
    return run(context, function: function, quiet: quiet, body)
}

/// Runs `body` on the context that owns the device `handle`.
func call(
    device handle: OpaquePointer?, function: String = #function,
    _ body: (EmbeddedContext, OpaquePointer) throws(Status) -> Void
) -> Int32 {
    guard let handle, let context = Handles.shared.contextOfDevice(handle), !context.destroyed else {
        return Status.unknownDevice.rawValue
    }
    return run(context, function: function) { context throws(Status) in try body(context, handle) }
}

/// A failed call is the host's misuse: a warning naming the C function. An unknown contact
/// is only debug: hosts may pass every release on, whether its press reached us or not.
private func run(
    _ context: EmbeddedContext, function: String, quiet: Status? = nil,
    _ body: (EmbeddedContext) throws(Status) -> Void
) -> Int32 {
    guard context.onDisplayThread else { return Status.wrongThread.rawValue }
    do {
        try context.entered { () throws(Status) in try body(context) }
        return Status.ok.rawValue
    } catch {
        let reason = preview_interaction_status_string(error.rawValue).map { String(cString: $0) } ?? "\(error)"
        let message = "\(cName(function)): \(reason)"
        if error == .unknownContact || error == quiet {
            context.logger.debug(message)
        } else {
            context.logger.warning(message)
        }
        return error.rawValue
    }
}

/// `previewInteractionContactDown(_:_:...)` → `preview_interaction_contact_down`.
private func cName(_ swiftName: String) -> String {
    var name = ""
    for character in swiftName.prefix(while: { $0 != "(" }) {
        if character.isUppercase { name += "_" + character.lowercased() } else { name.append(character) }
    }
    return name
}

@_cdecl("preview_interaction_create")
public func previewInteractionCreate(
    _ display: OpaquePointer?, _ callbacks: UnsafePointer<preview_interaction_callbacks>?,
    _ userData: UnsafeMutableRawPointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    guard let out else { return Status.invalidArgument.rawValue }
    out.pointee = nil
    guard let display, let host = HostCallbacks(callbacks, userData: userData) else {
        return Status.invalidArgument.rawValue
    }
    do {
        let context = try EmbeddedContext.attach(display: display, host: host)
        out.pointee = context.handle
        return Status.ok.rawValue
    } catch {
        return error.rawValue
    }
}

@_cdecl("preview_interaction_destroy")
public func previewInteractionDestroy(_ handle: OpaquePointer?) -> Int32 {
    guard let context = Handles.shared.context(handle), !context.destroyed else {
        return Status.invalidContext.rawValue
    }
    guard context.onDisplayThread else { return Status.wrongThread.rawValue }
    context.destroy()
    return Status.ok.rawValue
}

@_cdecl("preview_interaction_set_sensitivity")
public func previewInteractionSetSensitivity(_ handle: OpaquePointer?, _ value: preview_interaction_sensitivity)
    -> Int32
{
    call(handle) { context throws(Status) in
        let sensitivity: Sensitivity
        switch value {
        case PREVIEW_INTERACTION_SENSITIVITY_LIGHT: sensitivity = .light
        case PREVIEW_INTERACTION_SENSITIVITY_MEDIUM: sensitivity = .medium
        case PREVIEW_INTERACTION_SENSITIVITY_FIRM: sensitivity = .firm
        default: throw .invalidArgument
        }
        context.configure { $0.sensitivity = sensitivity }
    }
}

@_cdecl("preview_interaction_set_long_press")
public func previewInteractionSetLongPress(_ handle: OpaquePointer?, _ value: preview_interaction_long_press)
    -> Int32
{
    call(handle) { context throws(Status) in
        let duration: LongPressDuration
        switch value {
        case PREVIEW_INTERACTION_LONG_PRESS_FAST: duration = .fast
        case PREVIEW_INTERACTION_LONG_PRESS_DEFAULT: duration = .default
        case PREVIEW_INTERACTION_LONG_PRESS_SLOW: duration = .slow
        default: throw .invalidArgument
        }
        context.configure { $0.longPress = duration }
    }
}

@_cdecl("preview_interaction_set_should_begin_timeout")
public func previewInteractionSetShouldBeginTimeout(_ handle: OpaquePointer?, _ milliseconds: UInt32) -> Int32 {
    call(handle) { context throws(Status) in
        guard (1...60_000).contains(milliseconds) else { throw .invalidArgument }
        context.configure { $0.shouldBeginTimeout = .milliseconds(Int64(milliseconds)) }
    }
}

@_cdecl("preview_interaction_set_log_level")
public func previewInteractionSetLogLevel(_ handle: OpaquePointer?, _ minimum: preview_interaction_log_level) -> Int32 {
    call(handle) { context throws(Status) in
        guard let level = LogThreshold.level(minimum) else { throw .invalidArgument }
        context.logThreshold.level = level
    }
}

@_cdecl("preview_interaction_device_add")
public func previewInteractionDeviceAdd(
    _ handle: OpaquePointer?, _ kind: preview_interaction_device_kind, _ name: UnsafePointer<CChar>?,
    _ pressureMin: Double, _ pressureMax: Double, _ seat: UInt32, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    out?.pointee = nil
    return call(handle) { context throws(Status) in
        // Since 1.3 a keyboard (5) is a device too, for its keys' phase events.
        guard let out, let source = InputSource(rawValue: UInt8(clamping: kind.rawValue)), kind.rawValue <= 5 else {
            throw .invalidArgument
        }
        guard pressureMin.isFinite, pressureMax.isFinite, pressureMin <= pressureMax else { throw .invalidArgument }
        let range = pressureMin < pressureMax && source != .keyboard ? (pressureMin, pressureMax) : nil
        // At most 256 bytes of the host's name are read (a name without its NUL stops there).
        let text = name.map { EmbeddedContext.text($0, upTo: 256) } ?? "device"
        out.pointee = try context.addDevice(
            source: source, name: text, pressure: source == .pointer ? nil : range, seat: seat)
    }
}

@_cdecl("preview_interaction_device_add_libinput")
public func previewInteractionDeviceAddLibinput(
    _ handle: OpaquePointer?, _ device: OpaquePointer?, _ seat: UInt32, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    out?.pointee = nil
    // A host may hand over every device it opens: one that presses nothing is no misuse.
    return call(handle, quiet: .unsupported) { context throws(Status) in
        guard let out, let device else { throw .invalidArgument }
        let hosted = HostedDevice(libinputDevice: device)
        if hosted.kind == .keyboard {
            out.pointee = try context.addDevice(source: .keyboard, name: hosted.name, pressure: nil, seat: seat)
            return
        }
        guard let source = hosted.kind.source else { throw .unsupported }  // a switch, a tablet pad
        let evdev = EvdevPressure(hosted)
        // Pens: libinput's normalised pressure from the host. Touch: the kernel's, read here.
        let range: (Double, Double)? = source == .pen ? (0, 1) : nil
        // A touchpad may be a haptic pad (FF_HAPTIC): played while the user has haptics on.
        out.pointee = try context.addDevice(
            source: source, name: hosted.name, pressure: range, seat: seat, evdev: evdev,
            hapticNode: hosted.kind == .touchpad && !hosted.node.isEmpty ? hosted.node : nil)
    }
}

@_cdecl("preview_interaction_device_remove")
public func previewInteractionDeviceRemove(_ device: OpaquePointer?, _ time: UInt64) -> Int32 {
    call(device: device) { context, device throws(Status) in try context.removeDevice(device, at: time) }
}

@_cdecl("preview_interaction_contact_down")
public func previewInteractionContactDown(
    _ device: OpaquePointer?, _ contact: Int32, _ surface: OpaquePointer?, _ x: Double, _ y: Double,
    _ pressure: Double, _ time: UInt64
) -> Int32 {
    call(device: device) { context, device throws(Status) in
        try context.contactDown(device, contact: contact, surface: surface, x: x, y: y, pressure: pressure, at: time)
    }
}

@_cdecl("preview_interaction_contact_motion")
public func previewInteractionContactMotion(
    _ device: OpaquePointer?, _ contact: Int32, _ x: Double, _ y: Double, _ time: UInt64
) -> Int32 {
    call(device: device) { context, device throws(Status) in
        try context.contactMotion(device, contact: contact, x: x, y: y, at: time)
    }
}

@_cdecl("preview_interaction_contact_force")
public func previewInteractionContactForce(
    _ device: OpaquePointer?, _ contact: Int32, _ pressure: Double, _ time: UInt64
)
    -> Int32
{
    call(device: device) { context, device throws(Status) in
        try context.contactForce(device, contact: contact, pressure: pressure, at: time)
    }
}

@_cdecl("preview_interaction_contact_update")
public func previewInteractionContactUpdate(
    _ device: OpaquePointer?, _ contact: Int32, _ x: Double, _ y: Double, _ pressure: Double, _ time: UInt64
) -> Int32 {
    call(device: device) { context, device throws(Status) in
        try context.contactUpdate(device, contact: contact, x: x, y: y, pressure: pressure, at: time)
    }
}

@_cdecl("preview_interaction_contact_up")
public func previewInteractionContactUp(
    _ device: OpaquePointer?, _ contact: Int32, _ time: UInt64, _ swallow: UnsafeMutablePointer<Bool>?
) -> Int32 {
    swallow?.pointee = false
    return call(device: device) { context, device throws(Status) in
        let swallowed = try context.contactEnded(device, contact: contact, at: time, reason: .lifted)
        swallow?.pointee = swallowed
    }
}

@_cdecl("preview_interaction_contact_cancel")
public func previewInteractionContactCancel(_ device: OpaquePointer?, _ contact: Int32, _ time: UInt64) -> Int32 {
    call(device: device) { context, device throws(Status) in
        _ = try context.contactEnded(device, contact: contact, at: time, reason: .system)
    }
}

@_cdecl("preview_interaction_contact_is_taken_away")
public func previewInteractionContactIsTakenAway(
    _ device: OpaquePointer?, _ contact: Int32, _ out: UnsafeMutablePointer<Bool>?
) -> Int32 {
    out?.pointee = false
    return call(device: device) { context, device throws(Status) in
        guard let out else { throw .invalidArgument }
        out.pointee = try context.isTakenAway(device, contact: contact)
    }
}

@_cdecl("preview_interaction_surface_commit")
public func previewInteractionSurfaceCommit(_ handle: OpaquePointer?, _ surface: OpaquePointer?) -> Int32 {
    call(handle) { context throws(Status) in
        guard let surface else { throw .invalidArgument }
        try context.surfaceCommitted(surface)
    }
}

@_cdecl("preview_interaction_surface_gone")
public func previewInteractionSurfaceGone(_ handle: OpaquePointer?, _ surface: OpaquePointer?, _ time: UInt64) -> Int32
{
    call(handle) { context throws(Status) in
        guard let surface else { throw .invalidArgument }
        try context.surfaceGone(surface, at: time)
    }
}

@_cdecl("preview_interaction_running_count")
public func previewInteractionRunningCount(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<UInt32>?) -> Int32 {
    out?.pointee = 0
    return call(handle) { context throws(Status) in
        guard let out else { throw .invalidArgument }
        out.pointee = UInt32(context.runningCount)
    }
}

@_cdecl("preview_interaction_awaiting_answer_count")
public func previewInteractionAwaitingAnswerCount(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<UInt32>?)
    -> Int32
{
    out?.pointee = 0
    return call(handle) { context throws(Status) in
        guard let out else { throw .invalidArgument }
        out.pointee = UInt32(context.awaitingAnswerCount)
    }
}

@_cdecl("preview_interaction_set_completion")
public func previewInteractionSetCompletion(_ handle: OpaquePointer?, _ value: preview_interaction_completion)
    -> Int32
{
    call(handle) { context throws(Status) in
        let completion: Completion
        switch value {
        case PREVIEW_INTERACTION_COMPLETION_ON_FORCE: completion = .onForce
        case PREVIEW_INTERACTION_COMPLETION_ON_RELEASE: completion = .onRelease
        default: throw .invalidArgument
        }
        context.configure { $0.completion = completion }
    }
}

@_cdecl("preview_interaction_set_haptics")
public func previewInteractionSetHaptics(_ handle: OpaquePointer?, _ value: preview_interaction_haptics) -> Int32 {
    call(handle) { context throws(Status) in
        let intensity: HapticIntensity
        switch value {
        case PREVIEW_INTERACTION_HAPTICS_OFF: intensity = .off
        case PREVIEW_INTERACTION_HAPTICS_LIGHT: intensity = .light
        case PREVIEW_INTERACTION_HAPTICS_MEDIUM: intensity = .medium
        case PREVIEW_INTERACTION_HAPTICS_STRONG: intensity = .strong
        default: throw .invalidArgument
        }
        context.setHaptics(intensity)
    }
}

/// Modifier bits the header defines (PREVIEW_INTERACTION_MODIFIER_*); others are refused.
private let knownModifiers: UInt32 = 0xf

@_cdecl("preview_interaction_keyboard_key")
public func previewInteractionKeyboardKey(
    _ handle: OpaquePointer?, _ key: UnsafePointer<preview_interaction_key>?,
    _ verdict: UnsafeMutablePointer<preview_interaction_key_verdict>?, _ pressTime: UnsafeMutablePointer<UInt64>?
) -> Int32 {
    verdict?.pointee = PREVIEW_INTERACTION_KEY_DELIVER
    pressTime?.pointee = 0
    return call(handle) { context throws(Status) in
        guard let key, let verdict else { throw .invalidArgument }
        // Only as far as the host's `size` says: an older host's struct is shorter. (The offsets
        // of a C struct's stored members always exist.)
        var event = preview_interaction_key()
        let size = key.pointee.size
        guard let focus = MemoryLayout.offset(of: \preview_interaction_key.focus), size >= focus else {
            throw .invalidArgument
        }
        withUnsafeMutableBytes(of: &event) { destination in
            destination.copyMemory(
                from: UnsafeRawBufferPointer(start: key, count: min(size, destination.count)))
        }
        guard event.keycode != 0 || event.keysym != 0, event.modifiers & ~knownModifiers == 0 else {
            throw .invalidArgument
        }
        guard event.focus_width >= 0, event.focus_height >= 0 else { throw .invalidArgument }
        // A C bool holding something other than 0 or 1 is read as the C compiler would: nonzero.
        let offset = MemoryLayout.offset(of: \preview_interaction_key.pressed) ?? 0
        let pressed = withUnsafeBytes(of: &event) { offset < $0.count && $0[offset] != 0 }
        let input = PreviewKeys.Key(
            code: event.keycode, keysym: event.keysym, modifiers: KeyModifiers(rawValue: event.modifiers),
            pressed: pressed, time: context.timestamp(event.time_usec))
        let focusSize = Point(x: Double(event.focus_width), y: Double(event.focus_height))
        // Since 1.3 (zero in an older host's shorter struct): the keyboard device it comes from.
        let device = try event.device.map { device throws(Status) in try context.keyboardDevice(device) }
        let answer = try context.keyboardKey(
            input, seat: event.seat, device: device ?? EmbeddedContext.keyboard, focus: event.focus, size: focusSize)
        switch answer {
        case .deliver: verdict.pointee = PREVIEW_INTERACTION_KEY_DELIVER
        case .consumed: verdict.pointee = PREVIEW_INTERACTION_KEY_CONSUMED
        case .deliverTap(let time):
            verdict.pointee = PREVIEW_INTERACTION_KEY_DELIVER_TAP
            pressTime?.pointee = context.timeUnit.hostTime(time)
        }
    }
}

@_cdecl("preview_interaction_keyboard_focus_lost")
public func previewInteractionKeyboardFocusLost(_ handle: OpaquePointer?, _ seat: UInt32, _ time: UInt64) -> Int32 {
    call(handle) { context throws(Status) in context.keyboardFocusLost(seat: seat, at: context.timestamp(time)) }
}

@_cdecl("preview_interaction_set_preview_keys")
public func previewInteractionSetPreviewKeys(
    _ handle: OpaquePointer?, _ keys: UnsafePointer<preview_interaction_key_binding>?, _ count: UInt32
) -> Int32 {
    call(handle) { context throws(Status) in
        guard let keys else {
            guard count == 0 else { throw .invalidArgument }
            context.setPreviewKeys(PreviewKeyBinding.defaults)
            return
        }
        guard count <= 16 else { throw .invalidArgument }
        var bindings: [PreviewKeyBinding] = []
        for key in UnsafeBufferPointer(start: keys, count: Int(count)) {
            guard key.keycode != 0 || key.keysym != 0, key.modifiers & ~knownModifiers == 0 else {
                throw .invalidArgument
            }
            bindings.append(
                PreviewKeyBinding(
                    keycode: key.keycode, keysym: key.keysym, modifiers: KeyModifiers(rawValue: key.modifiers)))
        }
        context.setPreviewKeys(bindings)
    }
}

// MARK: since 1.3

@_cdecl("preview_interaction_device_set_user_data")
public func previewInteractionDeviceSetUserData(_ device: OpaquePointer?, _ data: UnsafeMutableRawPointer?) -> Int32 {
    call(device: device) { context, device throws(Status) in try context.setUserData(data, of: device) }
}

@_cdecl("preview_interaction_device_get_user_data")
public func previewInteractionDeviceGetUserData(
    _ device: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> Int32 {
    out?.pointee = nil
    return call(device: device) { context, device throws(Status) in
        guard let out else { throw .invalidArgument }
        out.pointee = try context.device(device).userData
    }
}

@_cdecl("preview_interaction_seat")
public func previewInteractionSeat(
    _ handle: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<UInt32>?
) -> Int32 {
    out?.pointee = 0
    return call(handle) { context throws(Status) in
        guard let out, let name, (1...255).contains(EmbeddedContext.length(of: name, upTo: 256)) else {
            throw .invalidArgument
        }
        out.pointee = try context.seat(named: EmbeddedContext.text(name, upTo: 255))
    }
}

@_cdecl("preview_interaction_pointer_button")
public func previewInteractionPointerButton(
    _ device: OpaquePointer?, _ button: UInt32, _ pressed: Bool, _ surface: OpaquePointer?, _ x: Double, _ y: Double,
    _ pressure: Double, _ time: UInt64, _ swallow: UnsafeMutablePointer<Bool>?
) -> Int32 {
    swallow?.pointee = false
    return call(device: device) { context, device throws(Status) in
        let swallowed = try context.pointerButton(
            device, button: button, pressed: pressed, surface: surface, x: x, y: y, pressure: pressure, at: time)
        swallow?.pointee = swallowed
    }
}

@_cdecl("preview_interaction_set_take_away_mode")
public func previewInteractionSetTakeAwayMode(_ handle: OpaquePointer?, _ value: preview_interaction_take_away_mode)
    -> Int32
{
    call(handle) { context throws(Status) in
        switch value {
        case PREVIEW_INTERACTION_TAKE_AWAY_UNTIL_END: context.setTakeAwayMode(.untilEnd)
        case PREVIEW_INTERACTION_TAKE_AWAY_UNTIL_RELEASE: context.setTakeAwayMode(.untilRelease)
        default: throw .invalidArgument
        }
    }
}

@_cdecl("preview_interaction_set_time_unit")
public func previewInteractionSetTimeUnit(_ handle: OpaquePointer?, _ value: preview_interaction_time_unit) -> Int32 {
    call(handle) { context throws(Status) in
        switch value {
        case PREVIEW_INTERACTION_TIME_USEC: context.timeUnit = .microseconds
        case PREVIEW_INTERACTION_TIME_MSEC: context.timeUnit = .milliseconds
        default: throw .invalidArgument
        }
    }
}
