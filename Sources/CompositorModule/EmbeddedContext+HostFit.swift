import CWaylandServer
import InputEvents
import PreviewEngine
import PreviewProtocolServer

/// The unit of the times a host passes (`preview_interaction_set_time_unit`).
enum HostTimeUnit {
    /// Microseconds of the host's monotonic clock.
    case microseconds
    /// The 32-bit milliseconds input events carry (wlroots, libinput), on the same clock.
    case milliseconds

    /// `time` (nonzero) on the library's clock, whose reading is `now`. Milliseconds are placed
    /// within 2^31 ms (24.8 days) of now, so a wrap of the 32 bits since an event is undone.
    func timestamp(_ time: UInt64, now: Timestamp) -> Timestamp {
        switch self {
        case .microseconds: return Timestamp(microseconds: Int64(clamping: time))
        case .milliseconds:
            let nowMilliseconds = now.microseconds / 1000
            let behind = Int32(
                bitPattern: UInt32(truncatingIfNeeded: time) &- UInt32(truncatingIfNeeded: nowMilliseconds))
            let (milliseconds, overflow) = nowMilliseconds.addingReportingOverflow(Int64(behind))
            return Timestamp(milliseconds: overflow ? .max : max(0, milliseconds))
        }
    }

    /// A time the library reports to the host in the host's unit (DELIVER_TAP's press).
    func hostTime(_ time: Timestamp) -> UInt64 {
        let microseconds = max(0, time.microseconds)
        switch self {
        case .microseconds: return UInt64(microseconds)
        case .milliseconds: return UInt64(UInt32(truncatingIfNeeded: microseconds / 1000))
        }
    }
}

/// How long a contact stays taken away (`preview_interaction_set_take_away_mode`).
enum TakeAwayMode {
    /// Given back when its interaction ends, down or not.
    case untilEnd
    /// Given back once the contact is up: the host drops its events until then.
    case untilRelease
}

/// What a real compositor needed of the API (since 1.3): the host's data on devices, seats by
/// name, the click buttons, keyboard devices, and commits seen without the host.
extension EmbeddedContext {
    static let maximumSeatNames = 64

    // MARK: the host's data, seats

    func setUserData(_ data: UnsafeMutableRawPointer?, of handle: OpaquePointer) throws(Status) {
        let device = try device(handle)
        devices[device.id]?.userData = data
    }

    /// The number of the seat `name` (numbered in the order names are first asked for).
    func seat(named name: String) throws(Status) -> UInt32 {
        if let index = seatNames.firstIndex(of: name) { return UInt32(index) }
        guard seatNames.count < Self.maximumSeatNames else { throw .limit }
        seatNames.append(name)
        return UInt32(seatNames.count - 1)
    }

    /// The length of the C string `text`, reading at most `limit` bytes.
    static func length(of text: UnsafePointer<CChar>, upTo limit: Int) -> Int {
        var count = 0
        while count < limit && text[count] != 0 { count += 1 }
        return count
    }

    /// The host's C string as text, from at most `limit` bytes (invalid UTF-8 repaired).
    static func text(_ text: UnsafePointer<CChar>, upTo limit: Int) -> String {
        let bytes = UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self)
        return String(decoding: UnsafeBufferPointer(start: bytes, count: length(of: text, upTo: limit)), as: UTF8.self)
    }

    // MARK: take-away

    func setTakeAwayMode(_ mode: TakeAwayMode) {
        takeAwayMode = mode
        // Held give-backs of contacts still down go now, as the other mode would have.
        if mode == .untilEnd { giveBackHeld { _ in true } }
    }

    // MARK: the click

    /// Evdev codes of the buttons that can be a click.
    private static let leftButton = UInt32(EventCode.buttonLeft), rightButton = UInt32(EventCode.buttonRight),
        middleButton = UInt32(EventCode.buttonMiddle)

    /// The bit of `button` in the device's click: BTN_LEFT on pointers and touchpads; a touchpad's
    /// BTN_RIGHT and BTN_MIDDLE too (libinput names a clickpad's one click by the fingers on it).
    /// Other devices have no click buttons (their contacts are their own).
    private static func clickBit(_ button: UInt32, of source: InputSource) -> UInt8 {
        guard source == .pointer || source == .touchpad else { return 0 }
        if button == leftButton { return 1 }
        guard source == .touchpad else { return 0 }
        return button == rightButton ? 2 : button == middleButton ? 4 : 0
    }

    /// A button of the device: the click's first down is contact 0 going down, its last up the
    /// release. Returns whether that release must be swallowed.
    func pointerButton(
        _ handle: OpaquePointer, button: UInt32, pressed: Bool, surface: OpaquePointer?, x: Double, y: Double,
        pressure: Double, at time: UInt64
    ) throws(Status) -> Bool {
        let device = try pressingDevice(handle)
        let bit = Self.clickBit(button, of: device.source)
        let was = device.clickButtons
        let buttons = pressed ? was | bit : was & ~bit
        guard bit != 0, buttons != was else { return false }
        if was == 0 {
            try contactDown(handle, contact: 0, surface: surface, x: x, y: y, pressure: pressure, at: time)
            devices[device.id]?.clickButtons = buttons
            return false
        }
        devices[device.id]?.clickButtons = buttons
        guard buttons == 0 else { return false }
        return try contactEnded(handle, contact: 0, at: time, reason: .lifted)
    }

    // MARK: keyboard devices

    /// The id of a keyboard device of this context (for a key that names one).
    func keyboardDevice(_ handle: OpaquePointer) throws(Status) -> DeviceID {
        let device = try device(handle)
        guard device.source == .keyboard else { throw .invalidArgument }
        return device.id
    }

    // MARK: commits

    /// wl_surface.commit's opcode (wayland.xml: the seventh request).
    private static let commitOpcode: Int32 = 6

    /// Watches every request of the display's clients for wl_surface.commit, as it is dispatched,
    /// so the host needs no commit listener. Only surfaces the library knows (those with an
    /// interaction object, or a contact) are looked at further.
    static func hookCommits(of display: OpaquePointer, context: OpaquePointer) -> OpaquePointer? {
        wl_display_add_protocol_logger(
            display,
            { data, direction, message in
                guard direction == WL_PROTOCOL_LOGGER_REQUEST, let message,
                    message.pointee.message_opcode == EmbeddedContext.commitOpcode,
                    let resource = message.pointee.resource, let name = wl_resource_get_class(resource),
                    String(cString: name) == "wl_surface",
                    let context = Handles.shared.context(OpaquePointer(data)), !context.destroyed
                else { return }
                context.requestedCommit(resource)
            }, UnsafeMutableRawPointer(context))
    }

    private func requestedCommit(_ resource: OpaquePointer) {
        guard let id = knownSurface(resource) else { return }
        entered { driver.surfaceCommitted(id) }
    }
}
