import EvdevDecoder
import InputEvents
import PreviewEngine

/// A device the replay knows, for naming trace lines.
public struct ReplayDevice: Hashable, Sendable {
    public var id: DeviceID
    public var name: String
    public var kind: DeviceKind
    /// The device reports `FF_HAPTIC` in `EV_FF`: a compositor would play its clicks.
    public var haptic: Bool

    public init(id: DeviceID, name: String, kind: DeviceKind, haptic: Bool = false) {
        self.id = id
        self.name = name
        self.kind = kind
        self.haptic = haptic
    }
}

/// Where replayed input comes from: decoded device events in time order. The recording decoder
/// is one source; the real libinput on an umockdev testbed (`--via-libinput`) is meant to be
/// another, producing the same `DeviceEvent`s.
public protocol ReplayInput {
    var devices: [ReplayDevice] { get }
    /// Appends the next batch of events (one frame) to `events`; false at the end of the input.
    mutating func next(into events: inout [DeviceEvent]) throws(RecordingError) -> Bool
    /// Ends every contact still down when the input ends (reason `.system`).
    mutating func finish(at time: Timestamp, into events: inout [DeviceEvent])
    /// Touch devices whose fingers touched, with the hardest finger pressure (0 without a
    /// pressure axis), for `--verbose`'s "why nothing happened"; empty when the input can't tell.
    var touchPeaks: [DeviceID: Double] { get }
}

extension ReplayInput {
    public var touchPeaks: [DeviceID: Double] { [:] }
}

/// A `libinput record` file through the evdev decoder.
public struct RecordingInput: ReplayInput {
    public let recording: Recording
    public let devices: [ReplayDevice]
    private let frames: RecordingFrames
    private var decoders = DeviceDecoders()
    public private(set) var touchPeaks: [DeviceID: Double] = [:]

    public init(path: String, options: ReadOptions = ReadOptions()) throws(RecordingError) {
        try self.init(recording: try Recording.open(path, options: options))
    }

    /// Events from the start of a recording whose header was already read.
    public init(recording: Recording) throws(RecordingError) {
        self.recording = recording
        frames = try recording.frames()
        var devices: [ReplayDevice] = []
        for device in recording.devices {
            let id = DeviceID(UInt32(device.index))
            decoders.set(EvdevDecoder(description: device.description, device: id), at: device.index)
            devices.append(
                ReplayDevice(
                    id: id, name: device.name, kind: device.description.kind,
                    haptic: device.description.has(type: EventType.ff, code: ForceFeedbackCode.haptic)))
        }
        self.devices = devices
    }

    /// Event lines read so far.
    public var eventLines: Int { frames.eventLines }

    public mutating func next(into events: inout [DeviceEvent]) throws(RecordingError) -> Bool {
        guard let frame = try frames.nextFrame() else { return false }
        decoders.decode(frame, into: &events)
        if let decoder = decoders[frame.device], decoder.kind == .touchpad || decoder.kind == .touchscreen {
            for point in decoder.touchPoints where point.down {
                // Written only when it rises: a dictionary modify per frame would allocate.
                let pressure = decoder.pressure(of: point)
                if pressure > touchPeaks[decoder.device] ?? 0 { touchPeaks[decoder.device] = pressure }
            }
        }
        return true
    }

    public mutating func finish(at time: Timestamp, into events: inout [DeviceEvent]) {
        decoders.endAllContacts(at: time, reason: .system, into: &events)
    }
}
