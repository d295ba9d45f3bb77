import EvdevDecoder
import InputEvents
import PreviewEngine

/// What the backend tracks for one libinput device.
final class Device {
    let id: DeviceID
    let seat: UInt32
    let name: String
    let kind: DeviceKind
    /// Touch devices only: pressure from the kernel state; nil means long-press fallback.
    let pressure: TouchPressure?
    /// A pressure pad: the finger on the pad is the contact (its force from the kernel state),
    /// not the click, which is the pad's own force threshold.
    let pressurePad: Bool

    // Pen: the tip is contact 0.
    var penDown = false
    var penHasForce = false
    // Touchscreen: active libinput slots → the last reported contact.
    var touches: [Int32: DeviceContact] = [:]
    // Touchpads and mice: the click (BTN_LEFT) is contact 0, like the decoder's.
    var click: DeviceContact?
    /// Buttons held that make the click (bit 0 left, 1 right, 2 middle).
    var buttons: UInt8 = 0
    /// libinput is removing the device: what it lifts now ends with `.deviceRemoved`.
    var removing = false
    var liftReason: CancelReason { removing ? .deviceRemoved : .lifted }
    /// Haptic pad in host mode (the user's setting on, the device has FF_HAPTIC): it plays the
    /// moments the host core decides.
    var haptic: HapticPad?
    /// Time of this device's latest libinput event, for samples read from the kernel state.
    var lastEventTime: Timestamp?

    init(
        id: DeviceID, seat: UInt32, name: String, kind: DeviceKind, pressure: TouchPressure?, pressurePad: Bool = false
    ) {
        self.pressurePad = pressurePad
        self.id = id
        self.seat = seat
        self.name = name
        self.kind = kind
        self.pressure = pressure
    }

    func key(_ contact: Int32) -> ContactKey { ContactKey(seat: seat, device: id, contact: contact) }

    /// Every open contact, for removal and shutdown.
    var openContacts: [ContactKey] {
        var keys: [ContactKey] = []
        if penDown { keys.append(key(0)) }
        keys += touches.keys.sorted().map { key($0) }
        if click != nil { keys.append(key(0)) }
        return keys
    }

    func forgetContacts() {
        penDown = false
        touches.removeAll()
        click = nil
        buttons = 0
    }
}
