import EvdevDecoder
import InputEvents
import LibinputRecording
import PreviewEngine

/// What the replay does per frame once the frame is read: find its decoder, decode, feed every
/// contact event to an engine (its timers due first, should-begin answered yes at once).
/// Shared by the per-frame benchmark (RecordingBenchmarks) and perf-probe's callgrind region.
public struct FrameStep {
    private var decoders = DeviceDecoders()
    private var engine = InteractionEngine(configuration: EngineConfiguration())
    private var events: [DeviceEvent] = []
    private var timer: Timestamp?
    /// The engine's output buffers, reused for every input (the answers to should-begin get
    /// their own: they arrive while `actions` is being read).
    private var actions = Actions()
    private var answers = Actions()

    public init(devices: [RecordedDevice]) {
        for device in devices {
            decoders.set(
                EvdevDecoder(description: device.description, device: DeviceID(UInt32(device.index))), at: device.index)
        }
        events.reserveCapacity(64)
    }

    /// One frame; returns how many actions the engine asked for.
    public mutating func callAsFunction(_ frame: EvdevFrame) -> Int {
        decoders.decode(frame, into: &events)
        var performed = 0
        for index in events.indices {
            let event = events[index]
            while let due = timer, due <= event.time {
                timer = nil
                engine.timerFired(at: due, into: &actions)
                performed += perform()
            }
            let location: Point
            switch event {
            case .contactBegan(let contact), .contactChanged(let contact):
                location = Point(x: contact.position.x * 1920, y: contact.position.y * 1080)
            case .contactEnded, .toolProximity, .toolMotion, .pointerMotion, .scroll, .button, .key, .frame:
                location = Point(x: 0, y: 0)
            }
            if engine.apply(event, location: location, surface: SurfaceID(1), into: &actions) {
                performed += perform()
            }
        }
        events.removeAll(keepingCapacity: true)
        return performed
    }

    /// Performs `actions` (by index: no copy of the buffer), answering should-begin yes at once.
    private mutating func perform() -> Int {
        var performed = actions.count
        for index in actions.indices {
            switch actions[index] {
            case .askShouldBegin(let update):
                engine.clientAnswered(update.interaction, accept: true, at: update.time, into: &answers)
                performed += answers.count
                for answer in answers.indices {
                    switch answers[answer] {
                    case .scheduleTimer(let due): timer = due
                    case .askShouldBegin, .phase: break  // an answer asks nothing new
                    }
                }
            case .scheduleTimer(let due): timer = due
            case .phase: break
            }
        }
        return performed
    }
}
