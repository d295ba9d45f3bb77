/// The umockdev inputs for one device, as text: the sysfs/udev description (.umockdev), the
/// ioctl table (.ioctl), the udev database entry, and the events (.events, evemu format).
/// The device is always /dev/input/event0, 13:64, under a virtual input parent.
public enum TestbedFiles {
    public static let node = "/dev/input/event0"
    public static let major = 13
    public static let minor = 64

    /// For umockdev-run -d.
    public static func description(_ device: TestbedDevice) -> String {
        let udev = device.udevProperties.map { "E: \($0)\n" }.joined()
        let id = device.id
        let product = [id.bus, id.vendor, id.product, id.version].map { String($0, radix: 16) }.joined(separator: "/")
        let name = device.name.replacingNewlines()
        return """
            P: /devices/virtual/input/input0/event0
            N: input/event0
            E: DEVNAME=\(node)
            E: MAJOR=\(major)
            E: MINOR=\(minor)
            E: SUBSYSTEM=input
            \(udev)A: dev=\(major):\(minor)

            P: /devices/virtual/input/input0
            E: NAME="\(name)"
            E: PRODUCT=\(product)
            E: SUBSYSTEM=input
            \(udev)A: name=\(name)
            A: phys=
            A: uniq=
            A: id/bustype=\(hex4(id.bus))
            A: id/vendor=\(hex4(id.vendor))
            A: id/product=\(hex4(id.product))
            A: id/version=\(hex4(id.version))

            """
    }

    /// /run/udev/data/c13:64: without it libinput says "udev device never initialized".
    public static func udevDatabase(_ device: TestbedDevice, initializedAt usec: Int64) -> String {
        "I:\(usec)\n" + device.udevProperties.map { "E:\($0)\n" }.joined() + "G:seat\nQ:seat\nV:1\n"
    }

    /// For umockdev-run -i: the answers libevdev asks for, with the buffer sizes it asks
    /// them with (a request with another size finds no entry and fails).
    public static func ioctlTable(_ device: TestbedDevice) -> String {
        var lines = ["@DEV \(node)"]
        var name = Array(device.name.utf8.prefix(254)) + [0]
        let nameLength = name.count
        name += [UInt8](repeating: 0, count: 255 - name.count)
        lines.append("EVIOCGNAME(0) \(nameLength) \(hex(name))")
        lines.append("EVIOCGPHYS(0) 1 \(hex([UInt8](repeating: 0, count: 255)))")
        lines.append("EVIOCGUNIQ(0) 1 \(hex([UInt8](repeating: 0, count: 255)))")
        let id = device.id
        lines.append("EVIOCGID 0 \(hex(littleEndian: [id.bus, id.vendor, id.product, id.version]))")
        lines.append("EVIOCGVERSION 0 01000100")
        lines.append("EVIOCGPROP(0) 8 \(hex(bits(device.properties, bytes: 8)))")
        lines.append("EVIOCGBIT(0) 8 \(hex(bits(Array(device.codes.keys), bytes: 8)))")
        for type in UInt16(1)...0x1f {
            let size = type == 0x01 ? 96 : type == 0x15 ? 16 : 8
            lines.append("EVIOCGBIT(\(type)) \(size) \(hex(bits(device.codes[type] ?? [], bytes: size)))")
        }
        lines.append("EVIOCGKEY(0) 96 \(hex([UInt8](repeating: 0, count: 96)))")
        lines.append("EVIOCGLED(0) 8 \(hex([UInt8](repeating: 0, count: 8)))")
        lines.append("EVIOCGSW(0) 8 \(hex([UInt8](repeating: 0, count: 8)))")
        for code in device.absinfo.keys.sorted() {
            let info = device.absinfo[code]!
            // The initial value: the first one the stream sets, like a kernel that was idle.
            let initial = code == 0x2f ? 0 : info.minimum
            let fields = [initial, info.minimum, info.maximum, info.fuzz, info.flat, info.resolution]
            let name = code == 0 ? "EVIOCGABS" : "EVIOCGABS(\(code))"
            lines.append("\(name) 0 \(hex(littleEndian: fields))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// evemu events, times relative to the recording (what a human can feed umockdev-run -e).
    public static func events(_ device: TestbedDevice) -> String {
        var text = "# device \(node)\n"
        text.reserveCapacity(device.events.count * 32)
        for event in device.events {
            text += "E: \(evemuTime(event.time)) \(hex4(event.type)) \(hex4(event.code)) \(event.value)\n"
        }
        return text
    }

    static func evemuTime(_ usec: Int64) -> String {
        let fraction = String(usec % 1_000_000)
        return "\(usec / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)"
    }

    static func bits(_ numbers: [UInt16], bytes: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: bytes)
        for number in numbers where Int(number) / 8 < bytes { out[Int(number) / 8] |= 1 << (number % 8) }
        return out
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xf)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func hex<T: FixedWidthInteger>(littleEndian values: [T]) -> String {
        hex(values.flatMap { value in withUnsafeBytes(of: value.littleEndian) { Array($0) } })
    }

    static func hex4(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }
}

extension String {
    fileprivate func replacingNewlines() -> String {
        String(map { $0.isNewline ? " " : $0 })
    }
}
