import PreviewEngine

/// One kernel `input_event` without its timestamp: the decoder takes the time separately
/// (a frame's events share the time of their `SYN_REPORT`).
public struct InputEvent: Hashable, Sendable, CustomStringConvertible {
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    @inlinable
    public init(type: UInt16, code: UInt16, value: Int32) {
        self.type = type
        self.code = code
        self.value = value
    }

    @inlinable public var isSynReport: Bool { type == EventType.syn && code == SynCode.report }

    /// Like libinput's tools: `EV_ABS / ABS_PRESSURE 512`.
    public var description: String {
        "\(EvdevNames.typeName(type)) / \(EvdevNames.codeName(type: type, code: code)) \(value)"
    }
}

/// The events of one device between two `SYN_REPORT`s, the terminating `SYN_REPORT` included.
/// Frames, not YAML list items, are the unit: libinput 1.15 split frames across items.
public struct EvdevFrame: Hashable, Sendable {
    /// Index of the device in its recording (or the host's numbering).
    public var device: Int
    /// Time of the `SYN_REPORT`, on the recording's clock.
    public var time: Timestamp
    public var events: [InputEvent]

    public init(device: Int, time: Timestamp, events: [InputEvent]) {
        self.device = device
        self.time = time
        self.events = events
    }
}
