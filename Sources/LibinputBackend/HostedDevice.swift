import CLibinput
import EvdevDecoder
import SystemLayer

/// A device another program's libinput opened (a compositor that embeds the library and
/// hands over its `struct libinput_device *`): what libinput says of it, and the touch
/// pressure libinput does not report, read from the kernel's evdev state as
/// `LibinputBackend` does, through a read-only descriptor of our own (libinput's is the host's).
public final class HostedDevice {
    public let name: String
    public let kind: DeviceKind
    public let node: String
    /// Where the force comes from, in words (for the log).
    public let origin: String
    /// Our own descriptor of the node (libinput keeps its own), closed with the device.
    private var descriptor: Descriptor?
    /// Our descriptor of the node while touch pressure is read; readable when the kernel has
    /// news for the device (then `drain()` and read the forces).
    public var fileDescriptor: Int32? { descriptor?.rawValue }
    private let pressure: TouchPressure?
    /// A touchpad's force frame by frame, from our descriptor's events (nil: the state only).
    private var history: ForceHistory?
    /// Where `drain()` reads events to, allocated once.
    private let events = UnsafeMutableBufferPointer<clibinput_evdev_event>.allocate(capacity: 64)

    public init(libinputDevice raw: OpaquePointer, quirks: PressureQuirks = PressureQuirks()) {
        name = libinput_device_get_name(raw).map { String(cString: $0) } ?? "libinput device"
        kind = LibinputBackend.kind(of: raw)
        node =
            libinput_device_get_udev_device(raw).map { udevice in
                defer { udev_device_unref(udevice) }
                return udev_device_get_devnode(udevice).map { String(cString: $0) } ?? ""
            } ?? ""
        var pressure: TouchPressure?
        var why = "none (long press)"
        if kind == .touchscreen || kind == .touchpad, !node.isEmpty {
            do {
                let file = try Descriptor(readingFrom: node)
                try file.setNonBlocking()
                let state = EvdevState(fd: file.rawValue)
                let pressurePad = kind == .touchpad && state.hasProperty(inputPropPressurePad)
                pressure = TouchPressure(state: state, quirks: quirks, pressurePad: pressurePad)
                // Kept while the pressure reads it; closed here otherwise.
                if pressure != nil { descriptor = consume file }
            } catch {
                why = "none (long press): cannot open \(node): \(error)"
            }
        }
        self.pressure = pressure
        // The events' times must be libinput's (the host's) clock to match a click's time; a
        // device that keeps another clock is caught at its first event (`drain`).
        if kind == .touchpad, let pressure, let fd = descriptor?.rawValue, pressure.refresh() {
            _ = clibinput_evdev_monotonic(fd)
            history = pressure.history(at: MonotonicTime.microseconds())
        }
        let perFrame = history == nil ? "" : ", a click's at its frame"
        origin = kind == .pen ? "libinput tablet pressure" : pressure.map { $0.origin + perFrame } ?? why
    }

    deinit {
        close()
        events.deallocate()
    }

    /// True when `force(contact:)` reads the kernel (touch devices with a pressure axis).
    public var readsPressure: Bool { pressure != nil }

    /// Reads the events queued on our descriptor: a touchpad's into its force history; the
    /// state now is read by ioctl, not from them.
    public func drain() {
        guard let fd = fileDescriptor else { return }
        while true {
            let count = clibinput_evdev_read(fd, events.baseAddress, events.count)
            guard count > 0 else { return }
            for event in events.prefix(Int(count)) {
                let now = MonotonicTime.microseconds()
                if event.time_usec < now - Self.clockTolerance || event.time_usec > now + Self.clockTolerance {
                    history = nil  // not the monotonic clock: the state only
                }
                guard history != nil else { continue }
                if event.type == ForceHistory.evSyn, event.code == ForceHistory.synDropped, let pressure,
                    pressure.refresh()
                {
                    history = pressure.history(at: event.time_usec)
                } else {
                    history?.ingest(type: event.type, code: event.code, value: event.value, time: event.time_usec)
                }
            }
        }
    }

    /// How far an event's time may be from the monotonic clock's now (a late read included).
    static let clockTolerance: Int64 = 60_000_000

    /// The force of a touch contact at `time` (µs, libinput's clock: an event's time): a
    /// touchpad's hardest finger at the last frame up to then, from the events; the state now
    /// where they do not reach back that far, and on other devices.
    public func force(contact: Int32, at time: Int64) -> Double? {
        drain()
        if let force = history?.force(at: time) { return force }
        return force(contact: contact)
    }

    /// True while a touchpad's frames are kept (its force at each frame, not only now).
    public var keepsFrames: Bool { history != nil }

    /// A touchpad's frames whose force changed after `after` up to `through` (µs, libinput's
    /// clock), oldest first, after reading what is queued. Returns the last frame's time read (nil:
    /// no frame history, the state only), the most any later call can add to.
    @discardableResult
    public func forEachFrame(after: Int64, through: Int64, _ body: (ForceHistory.Sample) -> Void) -> Int64? {
        drain()
        guard let history else { return nil }
        history.forEachFrame(after: after, through: through, body)
        return history.latest
    }

    /// The force of a touch contact now: a touchscreen's slot, a touchpad's hardest finger
    /// (its click is the contact). Nil without pressure or when the device stopped answering.
    public func force(contact: Int32) -> Double? {
        guard let pressure, pressure.refresh() else { return nil }
        switch kind {
        case .touchscreen: return pressure.slotCount > 1 ? pressure.force(slot: Int(contact)) : pressure.force(slot: 0)
        case .touchpad, .pen, .pointer, .keyboard, .other: return pressure.hardestForce()
        }
    }

    public func close() {
        descriptor = nil
    }
}
