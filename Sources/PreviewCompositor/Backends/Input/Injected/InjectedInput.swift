import InputEvents
import PreviewEngine
import WaylandServer

/// Devices a host program drives directly, one call per device change: the fake pointers and
/// touchscreens of a conformance suite (WLCS), or an embedding host's own input. Each call
/// becomes the same `DeviceEvent`s a recording of that device would give (a pointer's left
/// button is a contact with no force, like a mouse; a touch is an absolute contact) and goes
/// through the input path at once, on the compositor's thread (`CompositorThread.sync`):
/// whatever the caller asks the compositor next sees the input already delivered.
public final class InjectedInput: InputBackend {
    /// The compositor's input path; calls before `attach` reach nothing.
    private weak var sink: InputSink?
    private let clock: MonotonicClock
    private var nextDevice: UInt32 = 0
    /// Pointers whose left button is down (a contact each).
    private var pressed: Set<DeviceID> = []
    /// Touch devices with their contact down.
    private var touching: Set<DeviceID> = []

    init(clock: MonotonicClock) { self.clock = clock }

    public func attach(to sink: InputSink, loop: EventLoop) { self.sink = sink }

    public func stop() {}

    /// A new device, named in traces and logs.
    public func addDevice(named name: String) -> DeviceID {
        let id = DeviceID(nextDevice)
        nextDevice &+= 1
        sink?.deviceAdded(id, name: name)
        return id
    }

    /// The device is gone: its contacts end (cancelled, as when a real device is unplugged).
    public func removeDevice(_ device: DeviceID) {
        if pressed.remove(device) != nil || touching.remove(device) != nil {
            sink?.handle(.contactEnded(ContactKey(device: device), time: now(), reason: .deviceRemoved))
            sink?.handle(.frame(now()))
        }
        sink?.deviceRemoved(device, at: now())
    }

    // MARK: pointers (one cursor, as on a real seat)

    /// Moves the cursor to `point` in output coordinates.
    public func pointer(_ device: DeviceID, movedTo point: Point) {
        guard let cursor = sink?.cursor else { return }
        pointer(device, movedBy: point.x - cursor.x, point.y - cursor.y)
    }

    public func pointer(_ device: DeviceID, movedBy dx: Double, _ dy: Double) {
        sink?.handle(.pointerMotion(RelativeMotion(device: device, time: now(), dx: dx, dy: dy)))
        if pressed.contains(device) { sink?.handle(.contactChanged(click(device))) }
    }

    /// `code` is the evdev button code (`EventCode.buttonLeft`, `BTN_LEFT`), as wl_pointer.button carries it.
    public func pointer(_ device: DeviceID, button code: UInt16, pressed down: Bool) {
        let time = now()
        if code == Self.leftButton {
            if down, pressed.insert(device).inserted {
                sink?.handle(.contactBegan(click(device)))
            } else if !down, pressed.remove(device) != nil {
                sink?.handle(.contactEnded(ContactKey(device: device), time: time, reason: .lifted))
            }
        }
        sink?.handle(.button(KeyState(device: device, time: time, code: code, pressed: down)))
    }

    // MARK: touchscreens (one contact per device)

    public func touch(_ device: DeviceID, downAt point: Point) {
        guard touching.insert(device).inserted else { return touch(device, movedTo: point) }
        sink?.handle(.contactBegan(touchContact(device, at: point)))
        sink?.handle(.frame(now()))
    }

    public func touch(_ device: DeviceID, movedTo point: Point) {
        guard touching.contains(device) else { return }
        sink?.handle(.contactChanged(touchContact(device, at: point)))
        sink?.handle(.frame(now()))
    }

    public func touchUp(_ device: DeviceID) {
        guard touching.remove(device) != nil else { return }
        sink?.handle(.contactEnded(ContactKey(device: device), time: now(), reason: .lifted))
        sink?.handle(.frame(now()))
    }

    // MARK: the events

    private static let leftButton = EventCode.buttonLeft

    private func now() -> Timestamp { Timestamp(microseconds: clock.microseconds()) }

    /// A mouse's press: at the cursor, no force (the engine's long press decides).
    private func click(_ device: DeviceID) -> DeviceContact {
        DeviceContact(
            key: ContactKey(device: device), time: now(), force: 0, hasForce: false, position: .centre,
            positioning: .cursor, source: .pointer)
    }

    private func touchContact(_ device: DeviceID, at point: Point) -> DeviceContact {
        let width = sink?.output.width ?? 1
        let height = sink?.output.height ?? 1
        let position = NormalisedPoint(x: point.x / Double(max(1, width)), y: point.y / Double(max(1, height)))
        return DeviceContact(
            key: ContactKey(device: device), time: now(), force: 0, hasForce: false, position: position,
            positioning: .absolute, source: .touchscreen)
    }
}

extension CompositorConfiguration.InputSelection {
    /// Devices the host drives itself through `Compositor.injectedInput` (WLCS). Not on the
    /// command line: nothing there would drive them.
    public static let injected = Self(name: "injected") { context in InjectedInput(clock: context.clock) }
}

extension Compositor {
    /// The injected-input backend, when the configuration chose `.injected`.
    public var injectedInput: InjectedInput? { input.backend(as: InjectedInput.self) }
}
