import EvdevDecoder
import LibinputRecording
import PreviewEngine
import PreviewTrace
import ReplayTool

/// One contact's sensor force over time (0...1 over the device's pressure range), decoded from
/// the recording: the trace carries phases and progress, not force.
public struct ForceCurve: Hashable, Sendable {
    public struct Sample: Hashable, Sendable {
        public var time: Timestamp
        public var force: Double
    }
    public var device: String
    public var hasForce: Bool
    public var samples: [Sample]
    public var start: Timestamp { samples.first?.time ?? Timestamp(microseconds: 0) }
    public var end: Timestamp { samples.last?.time ?? Timestamp(microseconds: 0) }

    /// The same curve `offset` microseconds later (the compositor's clock against the recording's).
    public func shifted(by offset: Int64) -> ForceCurve {
        var copy = self
        copy.samples = samples.map {
            Sample(time: Timestamp(microseconds: $0.time.microseconds + offset), force: $0.force)
        }
        return copy
    }
}

/// A trace interaction with the force of the contact that drove it, on the trace's clock.
public struct ForcedStory: Hashable, Sendable {
    public var story: InteractionStory
    /// Nil when no recording explains this interaction (wrong files given, or a live seat).
    public var force: ForceCurve?
}

/// What the recordings say: every contact's force, and the interactions the engine makes of
/// them on the recording's own clock (to line a trace from another clock up with the force).
public struct RecordingForces: Sendable {
    public var curves: [ForceCurve] = []
    public var reference: [InteractionStory] = []

    public init() {}

    /// Decodes each file (through the project's reader and decoder) and replays it through the
    /// engine with `configuration`.
    public init(files: [String], configuration: EngineConfiguration = EngineConfiguration()) throws(RecordingError) {
        for file in files {
            var input = try RecordingInput(path: file)
            let names = Dictionary(input.devices.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
            var open: [ContactKey: ForceCurve] = [:]
            var events: [DeviceEvent] = []
            var last = Timestamp(microseconds: 0)
            func take(_ event: DeviceEvent) {
                last = max(last, event.time)
                switch event {
                case .contactBegan(let contact), .contactChanged(let contact):
                    let sample = ForceCurve.Sample(time: contact.time, force: contact.force)
                    if open[contact.key] == nil {
                        open[contact.key] = ForceCurve(
                            device: names[contact.key.device] ?? "\(contact.key.device)", hasForce: contact.hasForce,
                            samples: [])
                    }
                    open[contact.key]!.samples.append(sample)
                case .contactEnded(let key, let time, _):
                    if var curve = open.removeValue(forKey: key) {
                        // The force drops to nothing when the contact lifts.
                        curve.samples.append(ForceCurve.Sample(time: time, force: 0))
                        curves.append(curve)
                    }
                case .pointerMotion, .toolProximity, .toolMotion, .scroll, .button, .key, .frame:
                    break
                }
            }
            while try input.next(into: &events) {
                events.forEach(take)
                events.removeAll(keepingCapacity: true)
            }
            input.finish(at: last, into: &events)
            events.forEach(take)
            var options = ReplayOptions()
            options.configuration = configuration
            let replayed = try Replay.records(input: try RecordingInput(path: file), options: options)
            reference += InteractionStory.stories(of: replayed.records)
        }
        curves.sort { $0.start < $1.start }
    }

    /// Pairs each trace interaction with its contact's force. The n-th interaction of a device
    /// in the trace is the n-th the engine makes of that device's recording; the difference of
    /// their start times moves the force onto the trace's clock (a compositor may start the
    /// replay at any time, or play several files one after another).
    public func attach(to stories: [InteractionStory]) -> [ForcedStory] {
        var unused = reference
        return stories.map { story in
            guard let index = unused.firstIndex(where: { $0.device == story.device }) else {
                return ForcedStory(story: story, force: nil)
            }
            let match = unused.remove(at: index)
            let offset = story.start.microseconds - match.start.microseconds
            let curve = curves.first { $0.device == match.device && $0.start <= match.start && match.start <= $0.end }
            return ForcedStory(story: story, force: curve?.shifted(by: offset))
        }
    }
}
