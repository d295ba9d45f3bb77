/// One recorded evdev device, as much of it as a testbed needs: what the kernel would
/// answer about it (name, ids, codes, absinfo, properties), what udev would say, the
/// libinput quirks that applied, and its event stream (times relative to the recording).
public struct TestbedDevice: Hashable, Sendable, Codable {
    public struct InputID: Hashable, Sendable, Codable {
        public var bus: UInt16, vendor: UInt16, product: UInt16, version: UInt16
        public init(bus: UInt16, vendor: UInt16, product: UInt16, version: UInt16) {
            self.bus = bus
            self.vendor = vendor
            self.product = product
            self.version = version
        }
    }

    public struct AbsInfo: Hashable, Sendable, Codable {
        public var minimum: Int32, maximum: Int32, fuzz: Int32, flat: Int32, resolution: Int32
        public init(minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
            self.minimum = minimum
            self.maximum = maximum
            self.fuzz = fuzz
            self.flat = flat
            self.resolution = resolution
        }
    }

    /// One input_event; `time` in microseconds since the recording started.
    public struct Event: Hashable, Sendable, Codable {
        public var time: Int64
        public var type: UInt16
        public var code: UInt16
        public var value: Int32
        public init(time: Int64, type: UInt16, code: UInt16, value: Int32) {
            self.time = time
            self.type = type
            self.code = code
            self.value = value
        }
    }

    public var name: String
    public var id: InputID
    /// Event type → supported codes.
    public var codes: [UInt16: [UInt16]]
    public var absinfo: [UInt16: AbsInfo]
    public var properties: [UInt16]
    /// udev properties, "KEY=VALUE" (ID_INPUT=1, ID_INPUT_TABLET=1, ...).
    public var udevProperties: [String]
    /// libinput quirks lines ("AttrPressureRange=10:8").
    public var quirks: [String]
    public var events: [Event]

    public init(
        name: String, id: InputID, codes: [UInt16: [UInt16]], absinfo: [UInt16: AbsInfo], properties: [UInt16],
        udevProperties: [String], quirks: [String] = [], events: [Event]
    ) {
        self.name = name
        self.id = id
        self.codes = codes
        self.absinfo = absinfo
        self.properties = properties
        self.udevProperties = udevProperties
        self.quirks = quirks
        self.events = events
    }

    /// How long the stream lasts, in microseconds.
    public var duration: Int64 { events.last?.time ?? 0 }
}

extension TestbedDevice {
    /// Wacom's usual resolution in units/mm, for tablets recorded without one.
    public static let fallbackTabletResolution: Int32 = 200

    /// What a current system would show libinput for this device. Old recordings of tablets
    /// lack the X/Y resolution that today's kernel drivers (or udev's hwdb) provide, and
    /// libinput refuses such a tablet ("missing tablet capabilities: resolution"). Only mm
    /// sizes depend on it: pressure and output-mapped positions do not. Returns the notes.
    public mutating func adaptForLibinput() -> [String] {
        var notes: [String] = []
        if udevProperties.contains("ID_INPUT_TOUCHPAD=1") {
            // udev's 90-libinput-fuzz-override.rules moves a touchpad's kernel fuzz into
            // LIBINPUT_FUZZ_<code> and zeroes it; without that libinput logs "libinput bug:
            // kernel fuzz of N but LIBINPUT_FUZZ_00 is missing".
            for code: UInt16 in [0x00, 0x01, 0x35, 0x36] {
                guard let fuzz = absinfo[code]?.fuzz, fuzz > 0 else { continue }
                let hex = String(code, radix: 16)
                udevProperties.append("LIBINPUT_FUZZ_\(hex.count < 2 ? "0" + hex : hex)=\(fuzz)")
                absinfo[code]?.fuzz = 0
                notes.append("fuzz \(fuzz) of axis \(code) moved to LIBINPUT_FUZZ, as udev does")
            }
        }
        guard udevProperties.contains("ID_INPUT_TABLET=1") else { return notes }
        for code: UInt16 in [0, 1] where absinfo[code]?.resolution == 0 {
            absinfo[code]?.resolution = Self.fallbackTabletResolution
            notes.append(
                "axis \(code == 0 ? "ABS_X" : "ABS_Y") had no resolution: using \(Self.fallbackTabletResolution) units/mm"
            )
        }
        return notes
    }
}
