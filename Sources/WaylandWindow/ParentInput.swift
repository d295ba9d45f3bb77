import InputEvents
import PreviewEngine

/// The parent compositor's input, as the nested window receives it (wl_pointer, wl_keyboard,
/// wl_touch, zwp_tablet_tool_v2, all surface-local), turned into the same `DeviceEvent`s the
/// evdev decoder and libinput produce. Pure: every call takes the time, and events are appended
/// to the caller's buffer (reused, so the per-event path does not allocate).
///
/// What each kind of device gives (docs/compositor.md, "Nested"): the pointer is a mouse
/// (long press; the parent sends clicks, never a touchpad's force), touch points have no
/// pressure (long press), tablet tools carry their real pressure, distance and tilt.
public struct ParentInput: Sendable {
    /// The parent's devices get numbers far above a recording's (which count from 0), so both can
    /// drive one compositor.
    public static let pointerDevice = DeviceID(0x7000_0000)
    public static let keyboardDevice = DeviceID(0x7000_0001)
    public static let touchDevice = DeviceID(0x7000_0002)
    /// Tablet tools: `toolDeviceBase + n`, n in the order the parent announced them.
    public static let toolDeviceBase: UInt32 = 0x7000_0010

    /// Our output's logical size: absolute positions (touch, pens) are normalised over it.
    public private(set) var outputWidth: Double
    public private(set) var outputHeight: Double
    /// Where the cursor is, as the seat sees it (motion is relative in `DeviceEvent`s: the
    /// difference is sent and clamped the way `Seat.pointerWarped` clamps).
    public private(set) var cursor: (x: Double, y: Double)
    private var pointerInside = false
    private var buttons: Set<UInt16> = []
    /// Wheel in 1/120 notches collected until wl_pointer.frame.
    private var wheel = (vertical: Int32(0), horizontal: Int32(0))
    private var keys: Set<UInt16> = []
    private var touchPoints: [Int32: NormalisedPoint] = [:]
    private var tools: [UInt32: Tool] = [:]

    public static let buttonLeft = EventCode.buttonLeft

    /// When the parent says an event happened: its `time` argument (milliseconds, 32 bits) is on
    /// CLOCK_MONOTONIC in practice (weston, wlroots, mutter, KWin and our own compositor), so it
    /// is placed on our clock nearest to `now`; a time more than a second away from `now` is
    /// from another clock, and the event gets `now`. The parent's times keep the device's
    /// rhythm (what the engine's filters and dwell see) however late we read the events.
    public static func eventTime(parentMilliseconds: UInt32, now: Timestamp) -> Timestamp {
        let nowMilliseconds = now.microseconds / 1000
        let wrap: Int64 = 1 << 32
        var candidate = (nowMilliseconds & ~(wrap - 1)) | Int64(parentMilliseconds)
        if candidate - nowMilliseconds > wrap / 2 { candidate -= wrap }
        if nowMilliseconds - candidate > wrap / 2 { candidate += wrap }
        guard abs(candidate - nowMilliseconds) <= 1000 else { return now }
        return Timestamp(microseconds: candidate * 1000)
    }

    public init(outputWidth: Int32, outputHeight: Int32) {
        self.outputWidth = Double(max(1, outputWidth))
        self.outputHeight = Double(max(1, outputHeight))
        cursor = (self.outputWidth / 2, self.outputHeight / 2)
    }

    public mutating func outputResized(width: Int32, height: Int32) {
        outputWidth = Double(max(1, width))
        outputHeight = Double(max(1, height))
        cursor = clamped(cursor.x, cursor.y)
    }

    private func clamped(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        guard x.isFinite, y.isFinite else { return cursor }
        return (min(max(x, 0), outputWidth - 1), min(max(y, 0), outputHeight - 1))
    }

    private func normalised(_ x: Double, _ y: Double) -> NormalisedPoint {
        let point = clamped(x, y)
        return NormalisedPoint(x: point.x / outputWidth, y: point.y / outputHeight)
    }

    // MARK: wl_pointer: a mouse

    public mutating func pointerEntered(x: Double, y: Double, at time: Timestamp, into events: inout [DeviceEvent]) {
        pointerInside = true
        pointerMoved(x: x, y: y, at: time, into: &events)
    }

    public mutating func pointerMoved(x: Double, y: Double, at time: Timestamp, into events: inout [DeviceEvent]) {
        let target = clamped(x, y)
        let (dx, dy) = (target.x - cursor.x, target.y - cursor.y)
        guard dx != 0 || dy != 0 else { return }
        cursor = target
        let before = events.count
        events.append(.pointerMotion(RelativeMotion(device: Self.pointerDevice, time: time, dx: dx, dy: dy)))
        // A held primary button moves its contact (the engine's long-press slop watches it).
        if buttons.contains(Self.buttonLeft) { events.append(.contactChanged(pointerContact(at: time))) }
        if events.count > before { events.append(.frame(time)) }
    }

    /// The pointer left the window: a held button's contact is cancelled (the release will
    /// never come to us), and every held button is let go.
    public mutating func pointerLeft(at time: Timestamp, into events: inout [DeviceEvent]) {
        pointerInside = false
        guard !buttons.isEmpty else { return }
        for code in buttons.sorted() {
            events.append(.button(KeyState(device: Self.pointerDevice, time: time, code: code, pressed: false)))
            if code == Self.buttonLeft {
                events.append(.contactEnded(ContactKey(device: Self.pointerDevice), time: time, reason: .system))
            }
        }
        buttons.removeAll()
        events.append(.frame(time))
    }

    public mutating func pointerButton(
        _ code: UInt32, pressed: Bool, at time: Timestamp, into events: inout [DeviceEvent]
    ) {
        guard code <= UInt32(UInt16.max) else { return }
        let button = UInt16(code)
        if pressed {
            guard pointerInside, buttons.insert(button).inserted else { return }
        } else {
            guard buttons.remove(button) != nil else { return }
        }
        // As the decoder orders a click: the button first, then the contact.
        events.append(.button(KeyState(device: Self.pointerDevice, time: time, code: button, pressed: pressed)))
        if button == Self.buttonLeft {
            events.append(
                pressed
                    ? .contactBegan(pointerContact(at: time))
                    : .contactEnded(ContactKey(device: Self.pointerDevice), time: time, reason: .lifted))
        }
        events.append(.frame(time))
    }

    private func pointerContact(at time: Timestamp) -> DeviceContact {
        DeviceContact(
            key: ContactKey(device: Self.pointerDevice), time: time, force: 0, hasForce: false,
            position: .centre, positioning: .cursor, source: .pointer)
    }

    /// wl_pointer.axis (in surface pixels; a notch is 15, as libinput and our seat make it).
    public mutating func pointerAxis(vertical: Bool, pixels: Double, hasDiscrete: Bool) {
        guard !hasDiscrete, pixels.isFinite else { return }
        let value = Int32(clamping: Int64((pixels * 8).rounded()))
        if vertical { wheel.vertical = wheel.vertical &+ value } else { wheel.horizontal = wheel.horizontal &+ value }
    }

    /// wl_pointer.axis_value120 (or axis_discrete × 120): the wheel's own steps, preferred.
    public mutating func pointerAxis(vertical: Bool, value120: Int32) {
        if vertical {
            wheel.vertical = wheel.vertical &+ value120
        } else {
            wheel.horizontal = wheel.horizontal &+ value120
        }
    }

    public mutating func pointerFrame(at time: Timestamp, into events: inout [DeviceEvent]) {
        guard wheel != (0, 0) else { return }
        events.append(
            .scroll(
                ScrollMotion(
                    device: Self.pointerDevice, time: time, vertical120: wheel.vertical, horizontal120: wheel.horizontal
                )))
        events.append(.frame(time))
        wheel = (0, 0)
    }

    // MARK: wl_keyboard

    public mutating func key(_ code: UInt32, pressed: Bool, at time: Timestamp, into events: inout [DeviceEvent]) {
        guard code <= UInt32(UInt16.max) else { return }
        let key = UInt16(code)
        if pressed {
            guard keys.insert(key).inserted else { return }
        } else {
            guard keys.remove(key) != nil else { return }
        }
        events.append(.key(KeyState(device: Self.keyboardDevice, time: time, code: key, pressed: pressed)))
        events.append(.frame(time))
    }

    /// Keyboard focus left the window: every held key is released, so none sticks.
    public mutating func keyboardLeft(at time: Timestamp, into events: inout [DeviceEvent]) {
        guard !keys.isEmpty else { return }
        for code in keys.sorted() {
            events.append(.key(KeyState(device: Self.keyboardDevice, time: time, code: code, pressed: false)))
        }
        keys.removeAll()
        events.append(.frame(time))
    }

    // MARK: wl_touch: a touchscreen without pressure

    private func touchContact(_ id: Int32, at point: NormalisedPoint, time: Timestamp) -> DeviceContact {
        DeviceContact(
            key: ContactKey(device: Self.touchDevice, contact: id), time: time, force: 0, hasForce: false,
            position: point, positioning: .absolute, source: .touchscreen)
    }

    public mutating func touchDown(
        id: Int32, x: Double, y: Double, at time: Timestamp, into events: inout [DeviceEvent]
    ) {
        guard touchPoints[id] == nil else { return }
        let point = normalised(x, y)
        touchPoints[id] = point
        events.append(.contactBegan(touchContact(id, at: point, time: time)))
    }

    public mutating func touchMoved(
        id: Int32, x: Double, y: Double, at time: Timestamp, into events: inout [DeviceEvent]
    ) {
        guard let old = touchPoints[id] else { return }
        let point = normalised(x, y)
        guard point != old else { return }
        touchPoints[id] = point
        events.append(.contactChanged(touchContact(id, at: point, time: time)))
    }

    public mutating func touchUp(id: Int32, at time: Timestamp, into events: inout [DeviceEvent]) {
        guard touchPoints.removeValue(forKey: id) != nil else { return }
        events.append(.contactEnded(ContactKey(device: Self.touchDevice, contact: id), time: time, reason: .lifted))
    }

    public mutating func touchFrame(at time: Timestamp, into events: inout [DeviceEvent]) {
        events.append(.frame(time))
    }

    /// wl_touch.cancel: the parent took the touch points (a gesture of its own): all end, cancelled.
    public mutating func touchCancelled(at time: Timestamp, into events: inout [DeviceEvent]) {
        guard !touchPoints.isEmpty else { return }
        for id in touchPoints.keys.sorted() {
            events.append(.contactEnded(ContactKey(device: Self.touchDevice, contact: id), time: time, reason: .system))
        }
        touchPoints.removeAll()
        events.append(.frame(time))
    }

    // MARK: zwp_tablet_tool_v2: pens with their real pressure

    /// One tool's state, and what changed since its last tablet frame.
    private struct Tool: Sendable {
        var device: DeviceID
        var kind: PenTool
        var hasPressure: Bool
        var hasDistance: Bool
        var hasTilt: Bool
        var inProximity = false
        var tipDown = false
        var tipReported = false
        /// The parent said `up` (a real lift) rather than taking the tool out of the window.
        var lifted = false
        var proximityChanged = false
        var moved = false
        var x = 0.0
        var y = 0.0
        var pressure = 0.0
        var distance = 0.0
        var tiltX = 0.0
        var tiltY = 0.0
        var buttons: [(code: UInt16, pressed: Bool)] = []
    }

    /// A tool the parent announced (zwp_tablet_seat_v2.tool_added … done). Returns its device.
    @discardableResult
    public mutating func toolAdded(
        _ tool: UInt32, number: UInt32, kind: PenTool, pressure: Bool, distance: Bool, tilt: Bool
    ) -> DeviceID {
        let device = DeviceID(Self.toolDeviceBase &+ number)
        tools[tool] = Tool(device: device, kind: kind, hasPressure: pressure, hasDistance: distance, hasTilt: tilt)
        return device
    }

    /// zwp_tablet_tool_v2.removed: a tip still down ends with `deviceRemoved`.
    public mutating func toolRemoved(_ tool: UInt32, at time: Timestamp, into events: inout [DeviceEvent]) {
        guard var state = tools.removeValue(forKey: tool) else { return }
        if state.tipReported {
            events.append(.contactEnded(ContactKey(device: state.device), time: time, reason: .deviceRemoved))
        }
        if state.inProximity {
            state.inProximity = false
            events.append(.toolProximity(toolState(state, at: time), inProximity: false))
        }
        events.append(.frame(time))
    }

    public mutating func toolProximity(_ tool: UInt32, inProximity: Bool) {
        guard tools[tool] != nil, tools[tool]!.inProximity != inProximity else { return }
        tools[tool]!.inProximity = inProximity
        tools[tool]!.proximityChanged = true
        if !inProximity { tools[tool]!.tipDown = false }
    }

    public mutating func toolTip(_ tool: UInt32, down: Bool) {
        tools[tool]?.tipDown = down
        if !down { tools[tool]?.lifted = true }
    }

    public mutating func toolMotion(_ tool: UInt32, x: Double, y: Double) {
        guard x.isFinite, y.isFinite else { return }
        tools[tool]?.x = x
        tools[tool]?.y = y
        tools[tool]?.moved = true
    }

    /// 0…65535 as tablet-v2 carries it.
    public mutating func toolPressure(_ tool: UInt32, _ value: UInt32) {
        tools[tool]?.pressure = Double(min(value, 65535)) / 65535
        tools[tool]?.moved = true
    }

    public mutating func toolDistance(_ tool: UInt32, _ value: UInt32) {
        tools[tool]?.distance = Double(min(value, 65535)) / 65535
        tools[tool]?.moved = true
    }

    /// Degrees, as tablet-v2 carries them.
    public mutating func toolTilt(_ tool: UInt32, x: Double, y: Double) {
        guard x.isFinite, y.isFinite else { return }
        tools[tool]?.tiltX = min(max(x, -90), 90)
        tools[tool]?.tiltY = min(max(y, -90), 90)
        tools[tool]?.moved = true
    }

    public mutating func toolButton(_ tool: UInt32, _ code: UInt32, pressed: Bool) {
        guard code <= UInt32(UInt16.max) else { return }
        tools[tool]?.buttons.append((UInt16(code), pressed))
    }

    private func axes(_ tool: Tool) -> PenAxes {
        PenAxes(
            tool: tool.kind, distance: tool.hasDistance ? tool.distance : nil, tiltX: tool.hasTilt ? tool.tiltX : nil,
            tiltY: tool.hasTilt ? tool.tiltY : nil)
    }

    private func toolState(_ tool: Tool, at time: Timestamp) -> ToolState {
        ToolState(
            device: tool.device, time: time, position: normalised(tool.x, tool.y),
            pressure: tool.hasPressure ? tool.pressure : nil, axes: axes(tool))
    }

    private func penContact(_ tool: Tool, at time: Timestamp) -> DeviceContact {
        DeviceContact(
            key: ContactKey(device: tool.device), time: time, force: tool.hasPressure ? tool.pressure : 0,
            hasForce: tool.hasPressure, position: normalised(tool.x, tool.y), positioning: .absolute, source: .pen,
            pen: axes(tool))
    }

    /// zwp_tablet_tool_v2.frame: what the tool did since its last frame, in the decoder's order
    /// (proximity in, contact begin/change or hover, buttons, contact end, proximity out).
    /// A tool that leaves the window with its tip down ends its contact cancelled (`system`):
    /// the parent will not tell us where it was lifted.
    public mutating func toolFrame(_ tool: UInt32, at time: Timestamp, into events: inout [DeviceEvent]) {
        guard var state = tools[tool] else { return }
        let before = events.count
        if state.proximityChanged && state.inProximity {
            events.append(.toolProximity(toolState(state, at: time), inProximity: true))
        }
        if state.inProximity && state.tipDown && !state.tipReported {
            state.tipReported = true
            events.append(.contactBegan(penContact(state, at: time)))
        } else if state.tipReported && state.tipDown && state.moved {
            events.append(.contactChanged(penContact(state, at: time)))
        } else if state.inProximity && !state.tipReported && state.moved && !state.proximityChanged {
            events.append(.toolMotion(toolState(state, at: time)))
        }
        for button in state.buttons {
            events.append(
                .button(KeyState(device: state.device, time: time, code: button.code, pressed: button.pressed)))
        }
        if state.tipReported && !state.tipDown {
            state.tipReported = false
            let reason: CancelReason = state.lifted ? .lifted : .system
            events.append(.contactEnded(ContactKey(device: state.device), time: time, reason: reason))
        }
        if state.proximityChanged && !state.inProximity {
            events.append(.toolProximity(toolState(state, at: time), inProximity: false))
        }
        state.proximityChanged = false
        state.lifted = false
        state.moved = false
        state.buttons.removeAll(keepingCapacity: true)
        tools[tool] = state
        if events.count > before { events.append(.frame(time)) }
    }
}
