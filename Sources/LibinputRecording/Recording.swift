import EvdevDecoder
import PreviewEngine

/// One device of a recording: its description and where its events are.
public struct RecordedDevice: Sendable {
    /// Position in the file's `devices` list, from 0.
    public var index: Int
    /// Line of the device's entry, for messages.
    public var line: Int
    /// `/dev/input/eventN` on the recording machine (a placeholder in converted files).
    public var node: String?
    /// The evdev description and udev properties: what the decoder needs.
    public var description: DeviceDescription
    /// The HID report descriptor, when the recording has one.
    public var hidReportDescriptor: [UInt8]?
    /// libinput's quirks for the device (`ModelAppleTouchpad=1`...).
    public var quirks: [String]
    /// libinput's view of the device (`capabilities`, `size`), when recorded with libinput.
    public var libinputCapabilities: [String]
    var events: EventsLocation?

    public var name: String { description.name }
}

/// A `libinput record` file (format version 1, libinput 1.14 to today), header read eagerly;
/// events are streamed by `frames()`.
public struct Recording: Sendable {
    public var path: String
    public var version: Int
    /// `ndevices` as written (nil when missing).
    public var declaredDeviceCount: Int?
    /// `libinput.version` (`"converted-from-evemu"` in converted files).
    public var libinputVersion: String?
    /// `system:` entries (`os`, `kernel`, `dmi`).
    public var system: [String: String]
    public var devices: [RecordedDevice]
    let options: ReadOptions

    /// Reads the header. Throws for anything that is not a usable recording.
    public static func open(_ path: String, options: ReadOptions = ReadOptions()) throws(RecordingError) -> Recording {
        let parser = HeaderParser(reader: try LineReader(path: path))
        let root = try parser.parseDocument()
        var converter = HeaderConverter(file: path, options: options)
        var recording = try converter.recording(from: root)
        recording = Recording(
            path: path, version: recording.version, declaredDeviceCount: recording.declaredDeviceCount,
            libinputVersion: recording.libinputVersion, system: recording.system, devices: recording.devices,
            options: options)
        try recording.checkEvents()
        return recording
    }

    init(
        path: String, version: Int, declaredDeviceCount: Int?, libinputVersion: String?, system: [String: String],
        devices: [RecordedDevice], options: ReadOptions
    ) {
        self.path = path
        self.version = version
        self.declaredDeviceCount = declaredDeviceCount
        self.libinputVersion = libinputVersion
        self.system = system
        self.devices = devices
        self.options = options
    }

    /// A device without events is an error in a single-device file (nothing to replay) and a
    /// warning in a multi-device one (`libinput record --all` leaves idle devices empty).
    private func checkEvents() throws(RecordingError) {
        var withEvents = 0
        var firstEmpty: RecordingError?
        for device in devices {
            let hasEvents: Bool
            if let location = device.events {
                hasEvents = try DeviceFrameReader.hasEvents(path: path, location: location)
            } else {
                hasEvents = false
            }
            if hasEvents {
                withEvents += 1
                continue
            }
            let problem = RecordingError(
                file: path, line: device.events?.keyLine ?? device.line, kind: .noEvents,
                reason: "device \(device.index) '\(device.name)' has no events")
            if firstEmpty == nil { firstEmpty = problem }
            if devices.count > 1 { options.onWarning?(problem) }
        }
        if withEvents == 0, let firstEmpty {
            if options.lenient {
                options.onWarning?(firstEmpty)
            } else {
                throw firstEmpty
            }
        }
    }

    /// The events of every device as frames, merged in time order (ties: file order).
    public func frames() throws(RecordingError) -> RecordingFrames {
        try RecordingFrames(recording: self)
    }
}
