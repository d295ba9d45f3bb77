import LibinputBackend
import PreviewEngine
import WaylandServer

/// A libinput device's touch pressure for the embedded library: the kernel state through
/// `HostedDevice`, watched on the host's loop so a finger pressing harder without moving
/// (a force click) still reaches the engine.
final class EvdevPressure {
    let device: HostedDevice
    private var source: EventSource?

    init?(_ device: HostedDevice) {
        guard device.readsPressure else { return nil }
        self.device = device
    }

    var origin: String { device.origin }

    func force(contact: Int32) -> Double? { device.force(contact: contact) }

    /// The force at an event's time (`time` its last microsecond: a host's milliseconds cover a
    /// thousand), not the state's now, which a late dispatch has already moved past the event.
    func force(contact: Int32, at time: Timestamp) -> Double? {
        device.force(contact: contact, at: time.microseconds)
    }

    func watch(on loop: EventLoop, _ changed: @escaping () -> Void) {
        guard let fd = device.fileDescriptor else { return }
        // Unretained: the source is ours alone, removed in `stop()` or when we go.
        source = loop.addFD(fd, events: .readable) { [unowned(unsafe) self] _ in
            device.drain()
            changed()
        }
    }

    func stop() {
        source?.remove()
        source = nil
        device.close()
    }
}
