import EvdevDecoder
import PreviewEngine
import WaylandServer

/// Devices a host program drives directly, one call per device change: the fake pointers and
/// touchscreens of a conformance suite (WLCS), or an embedding host's own input. Each call
/// becomes the same `DeviceEvent`s a recording of that device would give (a pointer's left
/// button is a contact with no force, like a mouse; a touch is an absolute contact) and goes
/// through the input path at once, on the compositor's thread (`CompositorThread.sync`):
/// whatever the caller asks the compositor next sees the input already delivered.
public final class InjectedInput: InputBackend {
    private unowned var compositor: Compositor!
    private var nextDevice: UInt32 = 0
    /// Pointers whose left button is down (a contact each).
    private var pressed: Set<DeviceID> = []
    /// Touch devices with their contact down.
    private var touching: Set<DeviceID> = []

    init() {}

    func attach(to compositor: Compositor) { self.compositor = compositor }

    func stop() {}

    /// A new device, named in traces and logs.
    public func addDevice(named name: String) -> DeviceID {
        let id = DeviceID(nextDevice)
        nextDevice &+= 1
        compositor.interaction.name(id, name)
        return id
    }

    /// The device is gone: its contacts end (cancelled, as when a real device is unplugged).
    public func removeDevice(_ device: DeviceID) {
        if pressed.remove(device) != nil || touching.remove(device) != nil {
            compositor.interaction.handle(.contactEnded(ContactKey(device: device), time: now(), reason: .deviceRemoved))
            compositor.interaction.handle(.frame(now()))
        }
        compositor.interaction.deviceRemoved(device, at: now())
    }

    // MARK: pointers (one cursor, as on a real seat)

    /// Moves the cursor to `point` in output coordinates.
    public func pointer(_ device: DeviceID, movedTo point: Point) {
        let cursor = compositor.seat.cursor
        pointer(device, movedBy: point.x - cursor.x, point.y - cursor.y)
    }

    public func pointer(_ device: DeviceID, movedBy dx: Double, _ dy: Double) {
        compositor.interaction.handle(.pointerMotion(RelativeMotion(device: device, time: now(), dx: dx, dy: dy)))
        if pressed.contains(device) { compositor.interaction.handle(.contactChanged(click(device))) }
    }

    /// `code` is the evdev button code (`BTN_LEFT` = 0x110), as wl_pointer.button carries it.
    public func pointer(_ device: DeviceID, button code: UInt16, pressed down: Bool) {
        let time = now()
        if code == Self.leftButton {
            if down, pressed.insert(device).inserted {
                compositor.interaction.handle(.contactBegan(click(device)))
            } else if !down, pressed.remove(device) != nil {
                compositor.interaction.handle(.contactEnded(ContactKey(device: device), time: time, reason: .lifted))
            }
        }
        compositor.interaction.handle(.button(KeyState(device: device, time: time, code: code, pressed: down)))
    }

    // MARK: touchscreens (one contact per device)

    public func touch(_ device: DeviceID, downAt point: Point) {
        guard touching.insert(device).inserted else { return touch(device, movedTo: point) }
        compositor.interaction.handle(.contactBegan(touchContact(device, at: point)))
        compositor.interaction.handle(.frame(now()))
    }

    public func touch(_ device: DeviceID, movedTo point: Point) {
        guard touching.contains(device) else { return }
        compositor.interaction.handle(.contactChanged(touchContact(device, at: point)))
        compositor.interaction.handle(.frame(now()))
    }

    public func touchUp(_ device: DeviceID) {
        guard touching.remove(device) != nil else { return }
        compositor.interaction.handle(.contactEnded(ContactKey(device: device), time: now(), reason: .lifted))
        compositor.interaction.handle(.frame(now()))
    }

    // MARK: the events

    private static let leftButton: UInt16 = 0x110

    private func now() -> Timestamp { Timestamp(microseconds: compositor.clock.microseconds()) }

    /// A mouse's press: at the cursor, no force (the engine's long press decides).
    private func click(_ device: DeviceID) -> DeviceContact {
        DeviceContact(
            key: ContactKey(device: device), time: now(), force: 0, hasForce: false, position: .centre,
            positioning: .cursor, source: .pointer)
    }

    private func touchContact(_ device: DeviceID, at point: Point) -> DeviceContact {
        let output = compositor.scene.output
        let position = NormalisedPoint(
            x: point.x / Double(max(1, output.width)), y: point.y / Double(max(1, output.height)))
        return DeviceContact(
            key: ContactKey(device: device), time: now(), force: 0, hasForce: false, position: position,
            positioning: .absolute, source: .touchscreen)
    }
}

extension Compositor {
    /// The injected-input backend, when the configuration chose `.injected`.
    public var injectedInput: InjectedInput? { input as? InjectedInput }
}
