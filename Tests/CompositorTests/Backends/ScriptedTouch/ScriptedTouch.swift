import InputEvents
import PreviewCompositor
import PreviewEngine
import WaylandServer

/// A backend from outside the compositor's library, in nothing but this folder: once a window
/// is mapped, one touchscreen contact goes down at the scripted point and lifts again.
final class ScriptedTouch: InputBackend, WindowMapObserver, FiniteInput {
    static let descriptor = InputBackendDescriptor(
        name: "scripted-touch", help: "One touch at a scripted point once a window is mapped.",
        options: [BackendOption("touch-at", value: .one("x,y"), help: "Where the touch goes (output pixels).")]
    ) { arguments throws(BackendUsageError) in
        let parts = (arguments.value("touch-at") ?? "0,0").split(separator: ",").compactMap { Double($0) }
        guard parts.count == 2 else { throw BackendUsageError("--touch-at must look like 100,75") }
        let point = Point(x: parts[0], y: parts[1])
        return CompositorConfiguration.InputSelection(name: "scripted-touch") { context in
            ScriptedTouch(at: point, clock: context.clock)
        }
    }

    private let point: Point
    private let clock: MonotonicClock
    private weak var sink: InputSink?
    private(set) var finished = false
    private let device = DeviceID(7)

    init(at point: Point, clock: MonotonicClock) {
        self.point = point
        self.clock = clock
    }

    func attach(to sink: InputSink, loop: EventLoop) {
        self.sink = sink
        sink.deviceAdded(device, name: "scripted touchscreen")
    }

    func windowMapped() {
        guard let sink, !finished else { return }
        finished = true
        let output = sink.output
        let position = NormalisedPoint(x: point.x / Double(output.width), y: point.y / Double(output.height))
        let key = ContactKey(device: device)
        let time = Timestamp(microseconds: clock.microseconds())
        sink.handle(
            .contactBegan(
                DeviceContact(
                    key: key, time: time, force: 0, hasForce: false, position: position, positioning: .absolute,
                    source: .touchscreen)))
        sink.handle(.frame(time))
        sink.handle(.contactEnded(key, time: time, reason: .lifted))
        sink.handle(.frame(time))
        sink.inputFinished()
    }

    func stop() { sink = nil }
}
