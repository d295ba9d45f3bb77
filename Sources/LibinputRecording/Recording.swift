import EvdevDecoder
import InputEvents
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
    var events: EventSource?

    public var name: String { description.name }
}

/// Where a device's events are: in the file, streamed from there (libinput's layout), or
/// already read by the general YAML reader (another layout).
enum EventSource: Sendable {
    case file(EventsLocation)
    case nodes([YAMLNode], keyLine: Int)

    var keyLine: Int {
        switch self {
        case .file(let location): location.keyLine
        case .nodes(_, let keyLine): keyLine
        }
    }
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
    /// Whether the file was read by the general YAML reader (valid YAML in another layout than
    /// libinput's, e.g. re-saved by PyYAML) instead of the streaming reader.
    public var readAsGeneralYAML: Bool { devices.contains { if case .nodes = $0.events { true } else { false } } }
    let options: ReadOptions
    let source: ByteSource

    /// Reads the header; `-` is standard input (read as it arrives). Throws for anything that is
    /// not a usable recording.
    public static func open(_ path: String, options: ReadOptions = ReadOptions()) throws(RecordingError) -> Recording {
        let source = try ByteSource.open(path)
        let recording: Recording
        do {
            recording = try libinputLayout(source, options: options)
        } catch let problem where problem.kind == .syntax {
            guard let general = try generalYAML(source, options: options, fastPathError: problem) else { throw problem }
            return general
        }
        do {
            try recording.checkLayout()
        } catch let problem {
            if let general = try generalYAML(source, options: options, fastPathError: problem) { return general }
            // Not YAML either: lenient reading skips a bad event line, strict reading stops at it.
            guard options.lenient else { throw problem }
        }
        try recording.checkEvents()
        return recording
    }

    /// Valid YAML that libinput's tools accept, in another layout (re-saved by PyYAML...): the
    /// general reader; nil when the file is not YAML either.
    private static func generalYAML(_ source: ByteSource, options: ReadOptions, fastPathError: RecordingError)
        throws(RecordingError) -> Recording?
    {
        guard let root = try GeneralYAML.document(source, fastPathError: fastPathError) else { return nil }
        var converter = HeaderConverter(source: source, options: options)
        let recording = try converter.recording(from: root)
        try recording.checkEvents()
        return recording
    }

    /// libinput's own layout, read by the streaming reader.
    private static func libinputLayout(_ source: ByteSource, options: ReadOptions) throws(RecordingError) -> Recording {
        let parser = HeaderParser(reader: LineReader(source: source))
        let root = try parser.parseDocument()
        var converter = HeaderConverter(source: source, options: options)
        return try converter.recording(from: root)
    }

    /// The streaming reader knows libinput's event lines (`- [sec, usec, type, code, value]`);
    /// the first frame of every device tells whether the file has them. Only a syntax problem
    /// counts here (for the general reader to try); others are reported as the events stream.
    private func checkLayout() throws(RecordingError) {
        for device in devices {
            guard case .file(let location) = device.events else { continue }
            let reader = DeviceFrameReader(
                source: source, device: device.index, location: location, isLastDevice: true, options: ReadOptions())
            do {
                _ = try reader.next()
            } catch let problem where problem.kind == .syntax {
                throw problem
            } catch {
                continue  // reported in order while the events stream
            }
        }
    }

    init(
        source: ByteSource, version: Int, declaredDeviceCount: Int?, libinputVersion: String?,
        system: [String: String], devices: [RecordedDevice], options: ReadOptions
    ) {
        self.source = source
        self.path = source.name
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
            switch device.events {
            case .file(let location): hasEvents = try DeviceFrameReader.hasEvents(source: source, location: location)
            case .nodes(let items, _): hasEvents = !items.isEmpty
            case nil: hasEvents = false
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
        RecordingFrames(recording: self)
    }
}
