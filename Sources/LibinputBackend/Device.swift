import CLibinput
import PreviewEngine

/// What the backend tracks for one libinput device.
final class Device {
    enum Kind {
        case tablet
        case touchscreen
        case touchpad
        case pointer
        /// Keyboards, switches, tablet pads: nothing to preview with.
        case other
    }

    let id: DeviceID
    let name: String
    let kind: Kind
    /// Touch devices only: pressure from the kernel state; nil means long-press fallback.
    let pressure: TouchPressure?
    /// A touchpad whose click is the bottom of a pressure-sensed press.
    let isPressurePad: Bool

    // Pen: the tip is contact 0.
    var penDown = false
    var penHasForce = false
    // Touchscreen: active slots (libinput's touch slots), last reported force per slot.
    var touches: [Int32: Double] = [:]
    var touchLocations: [Int32: Point] = [:]
    // Touchpad: kernel slots with a finger, last reported force, and the click.
    var padFingers: [Int32: Double] = [:]
    var clickHeld = false
    var holdActive = false
    // Pointer fallback: the left button is contact `Int32(btnLeft)`.
    var buttonDown = false
    /// Time of this device's latest libinput event, for samples read from the kernel state.
    var lastEventTime: Timestamp?

    init(id: DeviceID, name: String, kind: Kind, pressure: TouchPressure?, isPressurePad: Bool) {
        self.id = id
        self.name = name
        self.kind = kind
        self.pressure = pressure
        self.isPressurePad = isPressurePad
    }

    var source: InputSource {
        switch kind {
        case .tablet: .pen
        case .touchscreen: .touchscreen
        case .touchpad: .touchpad
        case .pointer, .other: .pointer
        }
    }

    func key(_ contact: Int32) -> ContactKey { ContactKey(device: id, contact: contact) }
}
