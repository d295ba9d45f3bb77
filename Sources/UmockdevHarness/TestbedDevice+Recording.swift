import EvdevDecoder
import InputEvents
import LibinputBackend
import LibinputRecording
import PreviewEngine

extension TestbedDevice {
    /// The device at `index` of a `libinput record` file, events and all. Frames carry their
    /// SYN_REPORT time, which every event of the frame gets (as the kernel stamps them).
    public init(recording: Recording, device index: Int = 0) throws(RecordingError) {
        guard let recorded = recording.devices.first(where: { $0.index == index }) else {
            throw RecordingError(
                file: recording.path, line: 1, kind: .noEvents, reason: "no device \(index) in the recording")
        }
        let description = recorded.description
        var events: [Event] = []
        let frames = try recording.frames()
        while let frame = try frames.nextFrame() {
            guard frame.device == index else { continue }
            for event in frame.events {
                events.append(
                    Event(time: frame.time.microseconds, type: event.type, code: event.code, value: event.value))
            }
        }
        let identity = description.identity
        self.init(
            name: description.name,
            id: InputID(
                bus: identity?.bus ?? 3, vendor: identity?.vendor ?? 0, product: identity?.product ?? 0,
                version: identity?.version ?? 0),
            codes: description.codes.mapValues { $0.sorted() },
            absinfo: description.absinfo.mapValues {
                AbsInfo(
                    minimum: $0.minimum, maximum: $0.maximum, fuzz: $0.fuzz, flat: $0.flat, resolution: $0.resolution)
            },
            properties: description.properties.sorted(),
            udevProperties: description.udevProperties["ID_INPUT"] == "1"
                ? description.udevProperties.keys.sorted().map { "\($0)=\(description.udevProperties[$0]!)" }
                : Self.udevProperties(inferredFrom: description),
            quirks: recorded.quirks, events: events)
    }
}

extension TestbedDevice {
    /// What udev's input_id builtin would tag a device with, from its capabilities (the kind the
    /// decoder infers): recordings made where udev was not reachable (a container, an old
    /// `libinput record`) have no udev section, and libinput refuses a device without ID_INPUT
    /// ("not tagged as supported input device"). Properties the file does have are kept.
    public static func udevProperties(inferredFrom description: DeviceDescription) -> [String] {
        var properties = description.udevProperties
        properties["ID_INPUT"] = "1"
        switch description.kind {
        case .pen: properties["ID_INPUT_TABLET"] = "1"
        case .touchpad: properties["ID_INPUT_TOUCHPAD"] = "1"
        case .touchscreen: properties["ID_INPUT_TOUCHSCREEN"] = "1"
        case .pointer: properties["ID_INPUT_MOUSE"] = "1"
        case .keyboard:
            properties["ID_INPUT_KEY"] = "1"
            properties["ID_INPUT_KEYBOARD"] = "1"
        case .other: break
        }
        return properties.keys.sorted().map { "\($0)=\(properties[$0]!)" }
    }
}

extension BackendEvent {
    /// The same event with every time moved by `shift` µs (libinput's clock → the recording's).
    public func shifted(by shift: Int64) -> BackendEvent {
        switch self {
        case .deviceAdded: self
        case .deviceRemoved(let id, let time): .deviceRemoved(id, at: time.moved(shift))
        case .input(let event): .input(event.shifted(by: shift))
        }
    }
}

extension Timestamp {
    fileprivate func moved(_ shift: Int64) -> Timestamp { Timestamp(microseconds: microseconds + shift) }
}
