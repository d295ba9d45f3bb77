import InputEvents
import PreviewEngine

/// Turns one device's evdev events into `DeviceEvent`s (see InputEvents/DeviceEvent.swift for the contract).
///
/// Feed it events in order with `process(_:at:into:)` (or whole frames with `decode`); it applies
/// them to its copy of the device state and emits what changed at each `SYN_REPORT`, like a
/// kernel client. It never allocates per event once warmed up, never logs, and never traps on
/// odd input: out-of-range slots, values outside absinfo and unknown codes are ignored or clamped.
///
/// SYN_DROPPED: the partial frame and everything up to the next `SYN_REPORT` are discarded; at
/// that `SYN_REPORT` every contact the host was told about ends with `.desynchronised` and stays
/// silent until the device lifts it (a recording can't be re-queried like a live fd).
public struct EvdevDecoder: Sendable {
    public let device: DeviceID
    public let seat: UInt32
    public let kind: DeviceKind
    /// Whether contacts carry measured force (false: the engine's long-press fallback).
    public let hasForce: Bool

    // Axes, resolved once.
    let xAxis: AbsInfo?
    let yAxis: AbsInfo?
    let mtXAxis: AbsInfo?
    let mtYAxis: AbsInfo?
    let pressure: ForceNormaliser?
    let mtPressure: ForceNormaliser?
    let distanceAxis: AbsInfo?
    let tiltXAxis: AbsInfo?
    let tiltYAxis: AbsInfo?
    /// Pens with a pressure axis: libinput's tip thresholds, offset and normalisation.
    var tabletPressure: TabletPressure?
    let isButtonpad: Bool
    /// A touchpad with `INPUT_PROP_PRESSUREPAD` and a force axis: its contact is the finger on
    /// the pad with its measured force, and its click (BTN_LEFT) is only a button.
    public let isPressurePad: Bool
    /// A touchpad or touchscreen: the only kinds whose touch slots mean anything.
    let isTouch: Bool
    /// Device units per millimetre for touchpad motion (x, y).
    let unitsPerMM: (x: Double, y: Double)

    // Shared state.
    var dropping = false
    var pendingKeys: [KeyState] = []
    var absX: Int32 = 0
    var absY: Int32 = 0
    var absPressure: Int32 = 0
    var absChanged = false

    // Pens.
    var pen = PenState()
    // Touch devices.
    var touches: TouchSlots
    var reportedIDs: [Int32]
    /// Number of fingers from BTN_TOOL_FINGER...QUINTTAP (0 when none is set).
    public private(set) var fingerCount = 0
    var fingerBits: UInt8 = 0
    /// BTN_TOUCH: a finger touches the pad (BTN_TOOL_* also say "hovering" on some pads).
    var touchKey = false
    /// The device reports BTN_TOUCH: then it, not the tool bits, says whether a finger touches.
    let hasTouchKey: Bool
    // Touchpad click and cursor.
    var click = ClickState()
    var motionReference: (x: Int32, y: Int32)?
    var resetMotion = true
    // Mouse.
    var relX: Int32 = 0
    var relY: Int32 = 0
    /// Wheel in this frame: notches and 1/120 notches (hi-res wins when the device sends both).
    var wheel = (notches: Int32(0), hiRes: Int32(0), hNotches: Int32(0), hHiRes: Int32(0))
    var wheelHiResSeen = (vertical: false, horizontal: false)

    struct PenState: Sendable {
        var inProximity = false
        var sawToolEvent = false
        var tool = PenTool.pen
        var proximityChanged = false
        var tipDown = false
        var tipReported = false
        var tipTainted = false
        var distance: Int32 = 0
        var tiltX: Int32 = 0
        var tiltY: Int32 = 0
    }

    struct ClickState: Sendable {
        var mask: UInt8 = 0
        var reported = false
        var tainted = false
        var fresh = false
        var lastForce = -1.0
    }

    public init(description: DeviceDescription, device: DeviceID, seat: UInt32 = 0) {
        self.device = device
        self.seat = seat
        let kind = description.kind
        self.kind = kind
        isTouch = kind == .touchpad || kind == .touchscreen
        xAxis = description.axis(AbsCode.x)
        yAxis = description.axis(AbsCode.y)
        mtXAxis = description.axis(AbsCode.mtPositionX) ?? xAxis
        mtYAxis = description.axis(AbsCode.mtPositionY) ?? yAxis
        let pressurePad = kind == .touchpad && description.hasProperty(InputProperty.pressurepad)
        // A pressure pad's force is in grams where its axis has a resolution (PressurePad).
        let normaliser = { (axis: AbsInfo) -> ForceNormaliser? in
            pressurePad ? PressurePad.normaliser(axis) : ForceNormaliser(minimum: axis.minimum, maximum: axis.maximum)
        }
        pressure = description.axis(AbsCode.pressure).flatMap(normaliser)
        let semiMT = description.hasProperty(InputProperty.semiMT)
        mtPressure = semiMT ? nil : description.axis(AbsCode.mtPressure).flatMap(normaliser)
        distanceAxis = description.axis(AbsCode.distance)
        tiltXAxis = description.axis(AbsCode.tiltX)
        tiltYAxis = description.axis(AbsCode.tiltY)
        let distance = distanceAxis
        tabletPressure =
            kind == .pen
            ? description.axis(AbsCode.pressure).flatMap { TabletPressure(axis: $0, distance: distance) } : nil
        isButtonpad =
            description.hasProperty(InputProperty.buttonpad) || description.hasProperty(InputProperty.pressurepad)
        switch kind {
        case .pen: hasForce = pressure != nil
        case .touchpad, .touchscreen: hasForce = pressure != nil || mtPressure != nil
        case .pointer, .keyboard, .other: hasForce = false
        }
        isPressurePad = pressurePad && hasForce
        hasTouchKey = description.has(type: EventType.key, code: KeyCode.btnTouch)
        let proto: TouchSlots.MTProtocol
        if semiMT || description.axis(AbsCode.mtPositionX) == nil {
            proto = .single
        } else if description.axis(AbsCode.mtSlot) != nil {
            proto = .slots
        } else {
            proto = .anonymous
        }
        let slotCount: Int
        if let slot = description.axis(AbsCode.mtSlot), slot.maximum >= 0, slot.maximum < 64 {
            slotCount = Int(slot.maximum) + 1
        } else {
            slotCount = 16
        }
        touches = TouchSlots(proto: kind == .touchpad || kind == .touchscreen ? proto : .single, slotCount: slotCount)
        reportedIDs = Array(repeating: -1, count: touches.count)
        func perMM(_ axis: AbsInfo?) -> Double {
            guard let axis, axis.hasRange else { return 1 }
            if axis.resolution > 0 { return Double(axis.resolution) }
            return (Double(axis.maximum) - Double(axis.minimum)) / 100
        }
        unitsPerMM = (perMM(xAxis ?? mtXAxis), perMM(yAxis ?? mtYAxis))
        pendingKeys.reserveCapacity(16)
    }

    /// The touch points as the device currently reports them (slot order), for gestures and tests.
    public var touchPoints: [TouchPoint] { touches.points }

    /// Decodes one frame; appends to `output` (which the caller clears and reuses).
    public mutating func decode(_ frame: EvdevFrame, into output: inout [DeviceEvent]) {
        for event in frame.events {
            process(event, at: frame.time, into: &output)
        }
    }

    /// Applies one event; at `SYN_REPORT` appends the frame's outcome to `output`.
    public mutating func process(_ event: InputEvent, at time: Timestamp, into output: inout [DeviceEvent]) {
        if event.type == EventType.syn {
            switch event.code {
            case SynCode.report:
                if dropping {
                    dropping = false
                    desynchronise(at: time, into: &output)
                } else {
                    commit(at: time, into: &output)
                }
            case SynCode.mtReport:
                if !dropping { touches.mtReport() }
            case SynCode.dropped:
                dropping = true
                discardPartialFrame()
            default:
                break
            }
            return
        }
        guard !dropping else { return }
        switch event.type {
        case EventType.key: key(code: event.code, value: event.value, time: time)
        case EventType.abs: abs(code: event.code, value: event.value)
        case EventType.rel: rel(code: event.code, value: event.value)
        default: break
        }
    }

    /// Ends every contact the host knows about (device removed, replay over) and emits a frame.
    public mutating func endAllContacts(at time: Timestamp, reason: CancelReason, into output: inout [DeviceEvent]) {
        let before = output.count
        endReported(at: time, reason: reason, into: &output)
        if output.count > before { output.append(.frame(time)) }
    }

    // MARK: Event intake

    private mutating func key(code: UInt16, value: Int32, time: Timestamp) {
        guard value == 0 || value == 1 else { return }  // autorepeat and garbage
        let down = value == 1
        switch code {
        case KeyCode.btnTouch:
            switch kind {
            case .pen:
                // With a pressure axis libinput ignores BTN_TOUCH: the tip is the pressure's.
                guard tabletPressure == nil else { return }
                if down && pen.tipTainted && pen.tipDown { pen.tipTainted = false; pen.tipReported = false }
                pen.tipDown = down
                if !down { pen.tipTainted = false }
            case .touchpad, .touchscreen:
                touches.singleTouch(down: down)
                touchKey = down
                resetMotion = true
            case .pointer, .keyboard, .other:
                pendingKeys.append(KeyState(device: device, time: time, code: code, pressed: down))
            }
            return
        case KeyCode.btnToolPen, KeyCode.btnToolRubber, KeyCode.btnToolBrush, KeyCode.btnToolPencil,
            KeyCode.btnToolAirbrush, KeyCode.btnToolMouse, KeyCode.btnToolLens:
            guard kind == .pen else { return }
            pen.sawToolEvent = true
            if down { pen.tool = Self.tool(for: code) }
            if pen.inProximity != down {
                pen.inProximity = down
                pen.proximityChanged = true
            }
            return
        case KeyCode.btnToolFinger, KeyCode.btnToolDoubleTap, KeyCode.btnToolTripleTap, KeyCode.btnToolQuadTap,
            KeyCode.btnToolQuintTap:
            let bit: UInt8 =
                switch code {
                case KeyCode.btnToolFinger: 1
                case KeyCode.btnToolDoubleTap: 2
                case KeyCode.btnToolTripleTap: 4
                case KeyCode.btnToolQuadTap: 8
                default: 16
                }
            fingerBits = down ? fingerBits | bit : fingerBits & ~bit
            fingerCount = 8 - fingerBits.leadingZeroBitCount  // the highest finger count set
            resetMotion = true
            return
        default:
            break
        }
        if KeyCode.isButton(code) {
            if let bit = clickBit(code) {
                if down && click.mask & bit != 0 && click.tainted && !isPressurePad { click.fresh = true }
                click.mask = down ? click.mask | bit : click.mask & ~bit
                // A clickpad's other buttons are the same one switch: the click contact stands
                // for them, delivered as the primary button. Passing them on as well made one
                // physical click two presses (libinput drops them as a kernel bug).
                if code != KeyCode.btnLeft { return }
            }
            pendingKeys.append(KeyState(device: device, time: time, code: code, pressed: down))
        } else {
            pendingKeys.append(KeyState(device: device, time: time, code: code, pressed: down))
        }
    }

    /// Which buttons make the click contact: the primary button; on a clickpad every button,
    /// since the whole pad is one switch whatever the firmware calls it.
    private func clickBit(_ code: UInt16) -> UInt8? {
        switch kind {
        case .touchpad:
            switch code {
            case KeyCode.btnLeft: 1
            case KeyCode.btnRight: isButtonpad ? 2 : nil
            case KeyCode.btnMiddle: isButtonpad ? 4 : nil
            default: nil
            }
        case .pointer: code == KeyCode.btnLeft ? 1 : nil
        case .pen, .touchscreen, .keyboard, .other: nil
        }
    }

    private static func tool(for code: UInt16) -> PenTool {
        switch code {
        case KeyCode.btnToolRubber: .eraser
        case KeyCode.btnToolBrush: .brush
        case KeyCode.btnToolPencil: .pencil
        case KeyCode.btnToolAirbrush: .airbrush
        case KeyCode.btnToolMouse: .mouse
        case KeyCode.btnToolLens: .lens
        default: .pen
        }
    }

    private mutating func abs(code: UInt16, value: Int32) {
        switch code {
        case AbsCode.x:
            if absX != value { absX = value; absChanged = true }
            if isTouch { touches.singleAbs(code: code, value: value) }
        case AbsCode.y:
            if absY != value { absY = value; absChanged = true }
            if isTouch { touches.singleAbs(code: code, value: value) }
        case AbsCode.pressure:
            if absPressure != value { absPressure = value; absChanged = true }
            if isTouch { touches.singleAbs(code: code, value: value) }
        case AbsCode.distance:
            if pen.distance != value { pen.distance = value; absChanged = true }
        case AbsCode.tiltX:
            if pen.tiltX != value { pen.tiltX = value; absChanged = true }
        case AbsCode.tiltY:
            if pen.tiltY != value { pen.tiltY = value; absChanged = true }
        default:
            if code >= AbsCode.mtSlot { touches.abs(code: code, value: value) }
        }
    }

    private mutating func rel(code: UInt16, value: Int32) {
        switch code {
        case RelCode.x: relX &+= value
        case RelCode.y: relY &+= value
        case RelCode.wheel: wheel.notches &+= value
        case RelCode.hwheel: wheel.hNotches &+= value
        case RelCode.wheelHiRes:
            wheel.hiRes &+= value
            wheelHiResSeen.vertical = true
        case RelCode.hwheelHiRes:
            wheel.hHiRes &+= value
            wheelHiResSeen.horizontal = true
        default: break
        }
    }

    private mutating func discardPartialFrame() {
        pendingKeys.removeAll(keepingCapacity: true)
        touches.discardPartialFrame()
        relX = 0
        relY = 0
        wheel = (0, 0, 0, 0)
    }
}
