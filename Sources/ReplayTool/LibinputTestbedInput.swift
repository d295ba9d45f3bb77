import EvdevDecoder
import InputEvents
import LibinputBackend
import LibinputRecording
import PreviewEngine
import UmockdevHarness

/// A `libinput record` file through the real libinput (`--via-libinput`): the device becomes an
/// umockdev testbed, `LibinputBackend` runs on it in real time (UmockdevHarness), and its
/// `DeviceEvent`s are replayed like the decoder's. Same devices, same numbering (from 0).
public struct LibinputTestbedInput: ReplayInput {
    public let devices: [ReplayDevice]
    /// What the backend reported, device arrival and removal included.
    public let backendEvents: [BackendEvent]
    /// libinput's and the runner's log.
    public let log: String
    /// ms; see `LibinputTestbed.Run.trustworthy`.
    public let worstLag: Int64
    /// See `LibinputTestbed.Run.framesAtRisk`; nonzero means the run was starved.
    public let framesAtRisk: Int64
    private var events: [DeviceEvent]
    private var index = 0
    private var open: [ContactKey: Timestamp] = [:]

    /// Runs the testbed now (takes as long as the recording). One device per testbed: the first
    /// device with events; the others are named in a warning.
    public init(
        path: String, options: ReadOptions = ReadOptions(), testbed: LibinputTestbed.Options = .init()
    ) throws(RecordingError) {
        let recording = try Recording.open(path, options: options)
        guard let first = recording.devices.first else {
            throw RecordingError(file: path, line: 0, kind: .noEvents, reason: "no devices")
        }
        if recording.devices.count > 1 {
            options.onWarning?(
                RecordingError(
                    file: path, line: first.line, kind: .noEvents,
                    reason: "--via-libinput replays one device; using device 0 '\(first.name)'"))
        }
        var settings = testbed
        settings.deviceID = UInt32(first.index)
        let device = try TestbedDevice(recording: recording, device: first.index)
        if first.description.udevProperties["ID_INPUT"] != "1" {
            options.onWarning?(
                RecordingError(
                    file: path, line: first.line, kind: .noEvents,
                    reason:
                        "device 0 has no udev properties (recorded where udev was not reachable): libinput gets "
                        + device.udevProperties.joined(separator: " ") + ", inferred from its capabilities"))
        }
        let run: LibinputTestbed.Run
        do {
            run = try LibinputTestbed.run(device, options: settings, attempts: 3)
        } catch {
            throw RecordingError(file: path, line: 0, kind: .io, reason: "libinput testbed: \(error)")
        }
        backendEvents = run.events
        log = run.log
        worstLag = run.worstLag
        framesAtRisk = run.framesAtRisk
        if !run.trustworthy {
            options.onWarning?(
                RecordingError(
                    file: path, line: 0, kind: .io,
                    reason:
                        "the machine is too busy: \(run.framesAtRisk) frame(s) reached libinput too late for its 50 ms tablet timer"
                ))
        }
        var kind = first.description.kind
        var inputs: [DeviceEvent] = []
        for event in run.events {
            switch event {
            case .deviceAdded(let added): kind = added.kind
            case .deviceRemoved: break
            case .input(let input): inputs.append(input)
            }
        }
        guard run.events.contains(where: { if case .deviceAdded = $0 { true } else { false } }) else {
            throw RecordingError(
                file: path, line: 0, kind: .io, reason: "libinput did not accept the device:\n\(run.log)")
        }
        // The stream ran to the recording's last frame (or the removal), whether or not libinput
        // reported anything near the end (it drops what it considers kernel bugs, for one).
        let end = Timestamp(microseconds: min(device.duration, testbed.removeAt ?? device.duration))
        if end > (inputs.last?.time ?? Timestamp(microseconds: 0)) { inputs.append(.frame(end)) }
        events = inputs
        devices = [
            ReplayDevice(
                id: DeviceID(UInt32(first.index)), name: first.name, kind: kind,
                haptic: first.description.has(type: EventType.ff, code: ForceFeedbackCode.haptic))
        ]
    }

    public mutating func next(into events: inout [DeviceEvent]) throws(RecordingError) -> Bool {
        guard index < self.events.count else { return false }
        // One frame per call, like the decoder.
        while index < self.events.count {
            let event = self.events[index]
            index += 1
            events.append(event)
            switch event {
            case .contactBegan(let contact): open[contact.key] = contact.time
            case .contactEnded(let key, _, _): open[key] = nil
            case .frame: return true
            case .contactChanged, .toolProximity, .toolMotion, .pointerMotion, .scroll, .button, .key: continue
            }
        }
        return true
    }

    public mutating func finish(at time: Timestamp, into events: inout [DeviceEvent]) {
        guard !open.isEmpty else { return }
        for key in open.keys.sorted(by: { $0.contact < $1.contact }) {
            events.append(.contactEnded(key, time: time, reason: .system))
        }
        open.removeAll()
        events.append(.frame(time))
    }
}
