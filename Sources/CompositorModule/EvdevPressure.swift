import LibinputBackend
import PreviewEngine
import WaylandServer

/// A libinput device's touch pressure for the embedded library: the kernel state through
/// `HostedDevice`, watched on the host's loop so a finger pressing harder without moving
/// (a force click) still reaches the engine.
final class EvdevPressure {
    let device: HostedDevice
    private var source: EventSource?
    /// Per contact down, the time of the last frame its force was given for: a touchpad's frames
    /// reach the engine one by one at their own times, however the host's dispatches batch them.
    /// Reserved once: a contact going down allocates nothing.
    private var given: [(contact: Int32, through: Int64)] = []

    init?(_ device: HostedDevice) {
        guard device.readsPressure else { return nil }
        self.device = device
        given.reserveCapacity(Self.contactsKept)
    }

    /// Contacts of one device followed frame by frame (a touchpad's click is one).
    static let contactsKept = 16

    /// The contact went down with its force at `time` (µs).
    func began(contact: Int32, at time: Int64) {
        given.removeAll { $0.contact == contact }
        if device.keepsFrames, given.count < Self.contactsKept { given.append((contact, time)) }
    }

    func ended(contact: Int32) { given.removeAll { $0.contact == contact } }

    /// Each frame of the device after the contact's last one given, up to `time` (µs; nil: all
    /// read so far), oldest first, to `body` with its force. False when the device keeps no
    /// frames (a touchscreen, a clock other than libinput's, a contact not followed): its state
    /// is read instead.
    @discardableResult
    func catchUp(contact: Int32, through time: Int64?, _ body: (_ force: Double, _ time: Timestamp) -> Void) -> Bool {
        guard let index = given.firstIndex(where: { $0.contact == contact }) else { return false }
        let after = given[index].through
        guard
            let latest = device.forEachFrame(
                after: after, through: time ?? .max,
                { frame in
                    body(frame.force, Timestamp(microseconds: frame.time))
                })
        else { return false }
        given[index].through = max(after, min(time ?? latest, latest))
        return true
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
