import LibinputBackend
import PreviewEngine
import WaylandServer

/// `--libinput`: a real seat through udev, its events on the display's loop. Device events
/// carry libinput's CLOCK_MONOTONIC times, the engine's clock already.
final class LibinputSource {
    private let backend: LibinputBackend
    private var source: EventSource?

    /// Fails with a one-line reason when libinput cannot open the seat or finds no device
    /// it may open (no /dev/input, or no permission on it).
    init(seat: String, compositor: Compositor) throws(CompositorError) {
        guard let backend = LibinputBackend(source: .udev(seat: seat), logger: compositor.logger) else {
            throw .libinputUnavailable("cannot set up libinput on udev seat \(seat)")
        }
        self.backend = backend
        var devices = 0
        backend.dispatch(now: Timestamp(microseconds: compositor.clock.microseconds())) { event in
            if case .deviceAdded(let device) = event {
                devices += 1
                compositor.interaction.name(device.id, device.name)
            }
        }
        guard devices > 0 else {
            throw .libinputUnavailable(
                "no input device on udev seat \(seat) could be opened (none present, or no permission on /dev/input/event*: join the input group or run under a seat manager)"
            )
        }
    }

    func attach(to compositor: Compositor, loop: EventLoop) {
        source = loop.addFD(backend.fileDescriptor, events: .readable) { [unowned self, unowned compositor] _ in
            backend.dispatch(now: Timestamp(microseconds: compositor.clock.microseconds())) { event in
                switch event {
                case .deviceAdded(let device):
                    compositor.interaction.name(device.id, device.name)
                    compositor.logger.info("input device added: \(device.name) (\(device.kind))")
                case .deviceRemoved(let id, let time):
                    compositor.interaction.deviceRemoved(id, at: time)
                case .input(let input):
                    compositor.interaction.handle(input)
                }
            }
        }
    }

    func stop() { source?.remove() }
}
