import EvdevDecoder
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
        var actions = 0
        for event in events {
            while let due = timer, due <= event.time {
                timer = nil
                actions += perform(engine.timerFired(at: due))
            }
            let location: Point
            switch event {
            case .contactBegan(let contact), .contactChanged(let contact):
                location = Point(x: contact.position.x * 1920, y: contact.position.y * 1080)
            case .contactEnded, .toolProximity, .toolMotion, .pointerMotion, .scroll, .button, .key, .frame:
                location = Point(x: 0, y: 0)
            }
            actions += perform(engine.apply(event, location: location, surface: SurfaceID(1)))
        }
        events.removeAll(keepingCapacity: true)
        return actions
    }

    private mutating func perform(_ actions: Actions?) -> Int {
        guard let actions else { return 0 }
        var count = 0
        for action in actions {
            count += 1
            switch action {
            case .askShouldBegin(let update):
                count += perform(engine.clientAnswered(update.interaction, accept: true, at: update.time))
            case .scheduleTimer(let due): timer = due
            case .preview, .commit, .cancel: break
            }
        }
        return count
    }
}
