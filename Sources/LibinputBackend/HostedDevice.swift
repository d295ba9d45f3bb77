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
        origin = kind == .pen ? "libinput tablet pressure" : pressure?.origin ?? why
    }

    deinit { close() }

    /// True when `force(contact:)` reads the kernel (touch devices with a pressure axis).
    public var readsPressure: Bool { pressure != nil }

    /// Discards the events queued on our descriptor: the state is read by ioctl, not from them.
    public func drain() {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { buffer.deallocate() }
        // Until EAGAIN (nothing queued), an error, or no descriptor.
        while let count = try? descriptor?.read(into: buffer), count > 0 {}
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
