internal import CWaylandClient
import InputEvents
import PreviewEngine
import SystemLayer

/// The parent's seat as our window sees it: its pointer, keyboard, touch and tablet tools,
/// turned into `DeviceEvent`s by `ParentInput` and handed to `onEvent` in order.
public final class ParentSeat {
    private let proxy: OpaquePointer
    private let version: UInt32
    private var pointer: OpaquePointer?
    private var keyboard: OpaquePointer?
    private var touch: OpaquePointer?
    private var tabletSeat: OpaquePointer?
    private var tablets: [OpaquePointer] = []
    private var tabletName: String?
    /// Tool proxy → (its number, its announced type and capabilities until `done`).
    private var tools: [OpaquePointer: (number: UInt32, kind: PenTool, capabilities: Set<UInt32>)] = [:]
    private var nextTool: UInt32 = 0
    private(set) var input: ParentInput
    private var events: [DeviceEvent] = []
    /// Our window's surface: input on any other surface (a decoration's) is not ours.
    var surface: OpaquePointer?
    private var pointerOnSurface = false
    /// Each decoded event, in order (on the loop's thread).
    public var onEvent: ((DeviceEvent) -> Void)?
    /// A device got a name (the trace names each interaction's device).
    public var onDeviceNamed: ((DeviceID, String) -> Void)?
    /// Every device named so far (some are named before anyone listens).
    public private(set) var deviceNames: [DeviceID: String] = [:]

    private func name(_ device: DeviceID, _ name: String) {
        deviceNames[device] = name
        onDeviceNamed?(device, name)
    }
    /// The parent's keymap (xkb text), when it sends one.
    public var onKeymap: ((String) -> Void)?
    /// The last keymap received, for whoever starts after it came.
    public private(set) var keymapText: String?

    private let clock: () -> Timestamp

    init(proxy: OpaquePointer, version: UInt32, clock: @escaping () -> Timestamp) {
        self.proxy = proxy
        self.clock = clock
        self.version = version
        input = ParentInput(outputWidth: 1280, outputHeight: 800)
        events.reserveCapacity(16)
        wl_seat_add_listener(proxy, &ParentListeners.seatListener, listenerContext(self))
    }

    /// The logical size of our output (absolute positions are normalised over it).
    public func outputResized(width: Int32, height: Int32) { input.outputResized(width: width, height: height) }

    func useTablets(_ manager: OpaquePointer) {
        guard tabletSeat == nil, let seat = zwp_tablet_manager_v2_get_tablet_seat(manager, proxy) else { return }
        tabletSeat = seat
        zwp_tablet_seat_v2_add_listener(seat, &ParentListeners.tabletSeat, listenerContext(self))
    }

    private var now: Timestamp { clock() }
    /// The parent's time of the event being handled (events without one reuse it).
    private var eventTime: Timestamp?

    private func at(_ parentMilliseconds: UInt32) -> Timestamp {
        let time = ParentInput.eventTime(parentMilliseconds: parentMilliseconds, now: clock())
        eventTime = time
        return time
    }

    /// Events without a time of their own (enter, leave, frame, proximity): the last time the
    /// parent gave, or now.
    private var lastTime: Timestamp {
        let current = clock()
        guard let eventTime, current.microseconds - eventTime.microseconds < 1_000_000 else { return current }
        return eventTime
    }

    private func deliver() {
        guard !events.isEmpty else { return }
        for event in events { onEvent?(event) }
        events.removeAll(keepingCapacity: true)
    }

    func capabilities(_ capabilities: UInt32) {
        let hasPointer = capabilities & WL_SEAT_CAPABILITY_POINTER.rawValue != 0
        let hasKeyboard = capabilities & WL_SEAT_CAPABILITY_KEYBOARD.rawValue != 0
        let hasTouch = capabilities & WL_SEAT_CAPABILITY_TOUCH.rawValue != 0
        if hasPointer, pointer == nil, let made = wl_seat_get_pointer(proxy) {
            pointer = made
            wl_pointer_add_listener(made, &ParentListeners.pointer, listenerContext(self))
            name(ParentInput.pointerDevice, "parent pointer")
        } else if !hasPointer, let pointer {
            pointerLeft()
            release(pointer: pointer)
            self.pointer = nil
        }
        if hasKeyboard, keyboard == nil, let made = wl_seat_get_keyboard(proxy) {
            keyboard = made
            wl_keyboard_add_listener(made, &ParentListeners.keyboard, listenerContext(self))
            name(ParentInput.keyboardDevice, "parent keyboard")
        } else if !hasKeyboard, let keyboard {
            keyboardLeft()
            if version >= 3 { wl_keyboard_release(keyboard) } else { wl_keyboard_destroy(keyboard) }
            self.keyboard = nil
        }
        if hasTouch, touch == nil, let made = wl_seat_get_touch(proxy) {
            touch = made
            wl_touch_add_listener(made, &ParentListeners.touch, listenerContext(self))
            name(ParentInput.touchDevice, "parent touchscreen")
        } else if !hasTouch, let touch {
            touchCancelled()
            if version >= 3 { wl_touch_release(touch) } else { wl_touch_destroy(touch) }
            self.touch = nil
        }
    }

    private func release(pointer: OpaquePointer) {
        if version >= 3 { wl_pointer_release(pointer) } else { wl_pointer_destroy(pointer) }
    }

    // MARK: pointer

    func pointerEntered(_ surface: OpaquePointer?, x: Double, y: Double) {
        guard surface == self.surface, surface != nil else { return }
        pointerOnSurface = true
        input.pointerEntered(x: x, y: y, at: lastTime, into: &events)
        deliver()
    }

    func pointerLeft() {
        guard pointerOnSurface else { return }
        pointerOnSurface = false
        input.pointerLeft(at: now, into: &events)
        deliver()
    }

    func pointerMoved(x: Double, y: Double, time: UInt32) {
        guard pointerOnSurface else { return }
        input.pointerMoved(x: x, y: y, at: at(time), into: &events)
        deliver()
    }

    func pointerButton(_ button: UInt32, pressed: Bool, time: UInt32) {
        guard pointerOnSurface || !pressed else { return }
        input.pointerButton(button, pressed: pressed, at: at(time), into: &events)
        deliver()
    }

    private var discreteThisFrame = false

    func pointerAxis(_ axis: UInt32, pixels: Double, time: UInt32) {
        guard pointerOnSurface else { return }
        _ = at(time)
        input.pointerAxis(
            vertical: axis == WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue, pixels: pixels, hasDiscrete: discreteThisFrame)
        // Before wl_pointer v5 there is no frame: each axis event is its own.
        if version < 5 { pointerFrame() }
    }

    func pointerAxis(_ axis: UInt32, value120: Int32) {
        guard pointerOnSurface else { return }
        discreteThisFrame = true
        input.pointerAxis(vertical: axis == WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue, value120: value120)
    }

    func pointerFrame() {
        discreteThisFrame = false
        input.pointerFrame(at: lastTime, into: &events)
        deliver()
    }

    // MARK: keyboard

    func keymap(format: UInt32, fd: Int32, size: UInt32) {
        let file = Descriptor(adopting: fd)
        guard format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, size > 1, size < 1 << 24,
            let memory = try? MemoryMapping(file, length: Int(size), writable: false)
        else { return }
        let text = String(decoding: memory.bytes.prefix { $0 != 0 }, as: UTF8.self)
        keymapText = text
        onKeymap?(text)
    }

    func keyboardLeft() {
        input.keyboardLeft(at: now, into: &events)
        deliver()
    }

    func key(_ code: UInt32, pressed: Bool, time: UInt32) {
        input.key(code, pressed: pressed, at: at(time), into: &events)
        deliver()
    }

    // MARK: touch

    func touchDown(_ id: Int32, x: Double, y: Double, time: UInt32) {
        input.touchDown(id: id, x: x, y: y, at: at(time), into: &events)
    }
    func touchUp(_ id: Int32, time: UInt32) { input.touchUp(id: id, at: at(time), into: &events) }
    func touchMoved(_ id: Int32, x: Double, y: Double, time: UInt32) {
        input.touchMoved(id: id, x: x, y: y, at: at(time), into: &events)
    }

    func touchFrame() {
        if !events.isEmpty { input.touchFrame(at: lastTime, into: &events) }
        deliver()
    }

    func touchCancelled() {
        input.touchCancelled(at: now, into: &events)
        deliver()
    }

    // MARK: tablets

    func tabletAdded(_ tablet: OpaquePointer?) {
        guard let tablet else { return }
        tablets.append(tablet)
        zwp_tablet_v2_add_listener(tablet, &ParentListeners.tablet, listenerContext(self))
    }

    func tabletNamed(_ name: String?) { if let name, !name.isEmpty { tabletName = name } }

    func tabletRemoved(_ tablet: OpaquePointer?) {
        guard let tablet, let index = tablets.firstIndex(of: tablet) else { return }
        tablets.remove(at: index)
        zwp_tablet_v2_destroy(tablet)
    }

    func toolAdded(_ tool: OpaquePointer?) {
        guard let tool else { return }
        tools[tool] = (nextTool, .pen, [])
        nextTool &+= 1
        zwp_tablet_tool_v2_add_listener(tool, &ParentListeners.tool, listenerContext(self))
    }

    func toolType(_ tool: OpaquePointer?, _ type: UInt32) {
        guard let tool else { return }
        let kind: PenTool
        switch type {
        case ZWP_TABLET_TOOL_V2_TYPE_ERASER.rawValue: kind = .eraser
        case ZWP_TABLET_TOOL_V2_TYPE_BRUSH.rawValue: kind = .brush
        case ZWP_TABLET_TOOL_V2_TYPE_PENCIL.rawValue: kind = .pencil
        case ZWP_TABLET_TOOL_V2_TYPE_AIRBRUSH.rawValue: kind = .airbrush
        case ZWP_TABLET_TOOL_V2_TYPE_MOUSE.rawValue: kind = .mouse
        case ZWP_TABLET_TOOL_V2_TYPE_LENS.rawValue: kind = .lens
        default: kind = .pen
        }
        tools[tool]?.kind = kind
    }

    func toolCapability(_ tool: OpaquePointer?, _ capability: UInt32) {
        guard let tool else { return }
        tools[tool]?.capabilities.insert(capability)
    }

    func toolDone(_ tool: OpaquePointer?) {
        guard let tool, let known = tools[tool] else { return }
        let device = input.toolAdded(
            id(tool), number: known.number, kind: known.kind,
            pressure: known.capabilities.contains(ZWP_TABLET_TOOL_V2_CAPABILITY_PRESSURE.rawValue),
            distance: known.capabilities.contains(ZWP_TABLET_TOOL_V2_CAPABILITY_DISTANCE.rawValue),
            tilt: known.capabilities.contains(ZWP_TABLET_TOOL_V2_CAPABILITY_TILT.rawValue))
        name(device, "\(tabletName ?? "parent tablet") \(known.kind.rawValue)")
    }

    func toolRemoved(_ tool: OpaquePointer?) {
        guard let tool else { return }
        input.toolRemoved(id(tool), at: now, into: &events)
        tools[tool] = nil
        zwp_tablet_tool_v2_destroy(tool)
        deliver()
    }

    private func id(_ tool: OpaquePointer) -> UInt32 { wl_proxy_get_id(tool) }

    func toolProximityIn(_ tool: OpaquePointer?, _ surface: OpaquePointer?) {
        guard let tool, surface == self.surface, surface != nil else { return }
        input.toolProximity(id(tool), inProximity: true)
    }

    func toolProximityOut(_ tool: OpaquePointer?) {
        guard let tool else { return }
        input.toolProximity(id(tool), inProximity: false)
    }

    func toolTip(_ tool: OpaquePointer?, down: Bool) { if let tool { input.toolTip(id(tool), down: down) } }
    func toolMotion(_ tool: OpaquePointer?, x: Double, y: Double) {
        if let tool { input.toolMotion(id(tool), x: x, y: y) }
    }
    func toolPressure(_ tool: OpaquePointer?, _ value: UInt32) { if let tool { input.toolPressure(id(tool), value) } }
    func toolDistance(_ tool: OpaquePointer?, _ value: UInt32) { if let tool { input.toolDistance(id(tool), value) } }
    func toolTilt(_ tool: OpaquePointer?, x: Double, y: Double) { if let tool { input.toolTilt(id(tool), x: x, y: y) } }

    func toolButton(_ tool: OpaquePointer?, _ button: UInt32, pressed: Bool) {
        if let tool { input.toolButton(id(tool), button, pressed: pressed) }
    }

    func toolFrame(_ tool: OpaquePointer?, time: UInt32) {
        guard let tool else { return }
        input.toolFrame(id(tool), at: at(time), into: &events)
        deliver()
    }

    // MARK: teardown

    func destroy() {
        if let pointer { release(pointer: pointer) }
        pointer = nil
        if let keyboard { if version >= 3 { wl_keyboard_release(keyboard) } else { wl_keyboard_destroy(keyboard) } }
        keyboard = nil
        if let touch { if version >= 3 { wl_touch_release(touch) } else { wl_touch_destroy(touch) } }
        touch = nil
        for tool in tools.keys { zwp_tablet_tool_v2_destroy(tool) }
        tools.removeAll()
        for tablet in tablets { zwp_tablet_v2_destroy(tablet) }
        tablets.removeAll()
        if let tabletSeat { zwp_tablet_seat_v2_destroy(tabletSeat) }
        tabletSeat = nil
        onEvent = nil
    }
}
