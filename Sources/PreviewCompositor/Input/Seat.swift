import CWaylandServer
import PreviewEngine
import WaylandServer

/// What the seat tells the concerns that follow its input; the compositor wires them.
protocol SeatObserver: AnyObject {
    /// A button or touch went down on `surface` (nil: on none), before its client hears of it.
    func pressed(on surface: Surface?)
    /// The keyboard focus moved (to nil: to no surface).
    func keyboardFocusChanged(to surface: Surface?)
    /// xdg_toplevel.move: the window's top-left follows the cursor to `position`.
    func windowDragged(_ toplevel: XdgToplevel, to position: (x: Int32, y: Int32))
}

/// The one seat: where the cursor is, which surface has pointer, keyboard and touch
/// focus, and delivery of core input events to the focused client's objects only.
final class Seat {
    /// What is under a point.
    let scene: Scene
    /// Which surface a scene node is.
    let surfaces: SurfaceRegistry
    let serials: Serials
    private let clock: MonotonicClock
    private let keymap: Keymap
    /// Set once the concerns it tells exist (they are made after the seat).
    weak var observer: SeatObserver?
    private(set) var cursor: Point
    private var pointers: [Weak<PointerResource>] = []
    private var keyboards: [Weak<KeyboardResource>] = []
    private var touches: [Weak<TouchResource>] = []
    var tabletSeats: [Weak<TabletSeatResource>] = []
    /// The surface the pen is in proximity of over tablet-v2, and whether its tip is down there.
    weak var tabletFocus: Surface?
    var tabletTipDown = false
    private weak var pointerFocus: Surface?
    /// Where the pointer last was on `pointerFocus` as its client was told (surface-local).
    private var pointerFocusLocal: Point?
    /// A preview interaction's commit phase took the pointer away (spi_preview_interaction_v1):
    /// it has left its surface and nothing may enter it again until it is given back, however
    /// the cursor moves. A count, as a pen and a touchpad could both be in commit phases.
    private var pointerTakers = 0
    private(set) weak var keyboardFocus: Surface?
    private var pressedButtons: Set<UInt32> = []
    private var pressedKeys: [UInt32] = []
    private struct TouchPoint { weak var surface: Surface?; var origin: (x: Int32, y: Int32); var client: Client }
    private var touchPoints: [Int32: TouchPoint] = [:]
    /// Clients sent touch events since the last wl_touch.frame (an up included).
    private var touchFrameClients: [Client] = []

    init(scene: Scene, surfaces: SurfaceRegistry, serials: Serials, clock: MonotonicClock, keymap: Keymap) {
        (self.scene, self.surfaces, self.serials, self.clock, self.keymap) = (scene, surfaces, serials, clock, keymap)
        let output = scene.output
        cursor = Point(x: Double(output.width) / 2, y: Double(output.height) / 2)
    }

    // MARK: binding

    func pointerBound(_ pointer: PointerResource) {
        pointers.removeAll { $0.value?.isAlive != true }
        pointers.append(Weak(pointer))
        if let focus = pointerFocus, focus.client == pointer.client, let hit = scene.surface(at: cursor),
            hit.surface === focus.node, let resource = pointer.resource, let surface = focus.resource
        {
            wl_pointer_send_enter(
                resource, serials.next(), surface, hit.local.x.fixed, hit.local.y.fixed)
            pointer.frame()
        }
    }

    func keyboardBound(_ keyboard: KeyboardResource) {
        keyboards.removeAll { $0.value?.isAlive != true }
        keyboards.append(Weak(keyboard))
        guard let resource = keyboard.resource else { return }
        wl_keyboard_send_keymap(resource, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, keymap.fd, keymap.size)
        if keyboard.version >= 4 { wl_keyboard_send_repeat_info(resource, 25, 600) }
        if let focus = keyboardFocus, focus.client == keyboard.client {
            sendKeyboardEnter(to: keyboard, surface: focus)
        }
    }

    func touchBound(_ touch: TouchResource) {
        touches.removeAll { $0.value?.isAlive != true }
        touches.append(Weak(touch))
    }

    // MARK: pointer

    /// Relative motion (mouse, touchpad), clamped to the output.
    func pointerMoved(dx: Double, dy: Double, time: UInt32) {
        pointerWarped(to: Point(x: cursor.x + dx, y: cursor.y + dy), time: time)
    }

    /// Absolute position on the output (clamped inside it).
    func pointerWarped(to point: Point, time: UInt32) {
        let output = scene.output
        cursor = Point(
            x: min(max(point.x, 0), Double(output.width) - 1), y: min(max(point.y, 0), Double(output.height) - 1))
        if let grab = interactiveGrab, grab.moves, let toplevel = grab.toplevel.value, toplevel.isAlive {
            let x = grab.window.x + Int32((cursor.x - grab.cursor.x).rounded())
            let y = grab.window.y + Int32((cursor.y - grab.cursor.y).rounded())
            observer?.windowDragged(toplevel, to: (ClientLimits.clamp(x), ClientLimits.clamp(y)))
        }
        updatePointerFocus(time: time, sendMotion: true)
    }

    /// xdg_toplevel.move/resize: while the button that was pressed on the window is held, the
    /// pointer has left it; a move makes the window follow the cursor (out of the tiling).
    private var interactiveGrab:
        (toplevel: Weak<XdgToplevel>, cursor: Point, window: (x: Int32, y: Int32), moves: Bool)?

    func beginInteractiveGrab(_ toplevel: XdgToplevel, moves: Bool) {
        guard interactiveGrab == nil, !pressedButtons.isEmpty, let node = toplevel.node,
            let focus = pointerFocus, focus.node.root === node, let xdgSurface = toplevel.xdgSurface
        else { return }
        let geometry = xdgSurface.windowGeometry
        interactiveGrab = (Weak(toplevel), cursor, (node.position.x + geometry.x, node.position.y + geometry.y), moves)
        takePointerAway()
    }

    /// The output was resized: the cursor stays inside it, and what is under it is picked again.
    func outputChanged() {
        let output = scene.output
        cursor = Point(
            x: min(max(cursor.x, 0), Double(output.width) - 1), y: min(max(cursor.y, 0), Double(output.height) - 1))
        repick()
    }

    /// Re-evaluates what is under the cursor after the scene changed (map, unmap, move).
    func repick() {
        updatePointerFocus(time: clock.eventTime(), sendMotion: false)
    }

    private func updatePointerFocus(time: UInt32, sendMotion: Bool) {
        // Taken away: the cursor still moves (it is where the pointer enters again), no event goes out.
        guard pointerTakers == 0 else { return }
        let hit = scene.surface(at: cursor)
        // An implicit grab: while a button is held, events stay with the surface it went down on.
        if !pressedButtons.isEmpty, let focus = pointerFocus, focus.isAlive {
            if sendMotion {
                let origin = focus.node.outputOrigin
                let local = Point(x: cursor.x - Double(origin.x), y: cursor.y - Double(origin.y))
                forEachPointer(of: focus) {
                    wl_pointer_send_motion($0.resource!, time, local.x.fixed, local.y.fixed); $0.frame()
                }
            }
            return
        }
        let target = hit.flatMap { surfaces[$0.surface.id] }
        if target !== pointerFocus || (pointerFocus?.isAlive == false) {
            if let old = pointerFocus, let oldResource = old.resource {
                let serial = serials.next()
                forEachPointer(of: old) {
                    wl_pointer_send_leave($0.resource!, serial, oldResource); $0.frame()
                }
            }
            pointerFocus = target
            pointerFocusLocal = hit?.local
            if let target, let hit, let surface = target.resource {
                let serial = serials.next()
                forEachPointer(of: target) {
                    wl_pointer_send_enter($0.resource!, serial, surface, hit.local.x.fixed, hit.local.y.fixed)
                    $0.frame()
                }
            }
            return
        }
        // The surface moved or changed under a still pointer: the client learns where it is now.
        if let target, let hit, sendMotion || hit.local != pointerFocusLocal {
            pointerFocusLocal = hit.local
            forEachPointer(of: target) {
                wl_pointer_send_motion($0.resource!, time, hit.local.x.fixed, hit.local.y.fixed)
                $0.frame()
            }
        }
    }

    /// `deliver: false` updates the button state without telling the client (a release the
    /// preview protocol swallows after a commit phase).
    func pointerButton(_ button: UInt32, pressed: Bool, time: UInt32, deliver: Bool = true) {
        if pressed {
            guard pressedButtons.insert(button).inserted else { return }
        } else {
            guard pressedButtons.remove(button) != nil else { return }
            // The release that ends a move or resize is the grab's, not the client's.
            if pressedButtons.isEmpty, interactiveGrab != nil {
                interactiveGrab = nil
                givePointerBack()
                return
            }
        }
        if pressed && deliver {
            observer?.pressed(on: pointerFocus?.isAlive == true ? pointerFocus : nil)
        }
        guard deliver, let focus = pointerFocus, focus.isAlive else {
            if pressedButtons.isEmpty { updatePointerFocus(time: time, sendMotion: false) }
            return
        }
        if pressed { focusKeyboard(onClickAt: focus) }
        let serial = serials.next()
        let state = pressed ? WL_POINTER_BUTTON_STATE_PRESSED.rawValue : WL_POINTER_BUTTON_STATE_RELEASED.rawValue
        forEachPointer(of: focus) {
            wl_pointer_send_button($0.resource!, serial, time, button, state)
            $0.frame()
        }
        if pressedButtons.isEmpty { updatePointerFocus(time: time, sendMotion: false) }
    }

    /// The commit phase began: wl_pointer.leave (and frame) to the focused client; its motion,
    /// buttons and wheel go nowhere until `givePointerBack()`. Buttons keep their state, so
    /// the release that follows is tracked (and swallowed) without reaching anyone.
    func takePointerAway() {
        pointerTakers += 1
        guard pointerTakers == 1, let focus = pointerFocus else { return }
        pointerFocus = nil
        guard focus.isAlive, let surface = focus.resource else { return }
        let serial = serials.next()
        forEachPointer(of: focus) {
            wl_pointer_send_leave($0.resource!, serial, surface); $0.frame()
        }
    }

    /// The interaction that took the pointer ended: it enters the surface under the cursor
    /// again (wl_pointer.enter at the current position), with no button event.
    func givePointerBack() {
        guard pointerTakers > 0 else { return }
        pointerTakers -= 1
        guard pointerTakers == 0 else { return }
        // No focus now, so the held button's implicit grab does not apply: this is a fresh pick.
        updatePointerFocus(time: clock.eventTime(), sendMotion: false)
    }

    /// A wheel: `value` in surface pixels (15 per notch, like libinput), `discrete` in notches.
    func pointerAxis(vertical: Bool, value: Double, discrete: Int32, time: UInt32) {
        guard let focus = pointerFocus, focus.isAlive else { return }
        let axis = vertical ? WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue : WL_POINTER_AXIS_HORIZONTAL_SCROLL.rawValue
        forEachPointer(of: focus) { pointer in
            let resource = pointer.resource!
            if pointer.version >= 5 {
                wl_pointer_send_axis_source(resource, WL_POINTER_AXIS_SOURCE_WHEEL.rawValue)
                if discrete != 0 { wl_pointer_send_axis_discrete(resource, axis, discrete) }
            }
            wl_pointer_send_axis(resource, time, axis, value.fixed)
            pointer.frame()
        }
    }

    private func forEachPointer(of surface: Surface, _ body: (PointerResource) -> Void) {
        for weak in pointers {
            if let pointer = weak.value, pointer.isAlive, pointer.client == surface.client { body(pointer) }
        }
    }

    // MARK: keyboard

    private func focusKeyboard(onClickAt surface: Surface) {
        let root = surface.node.root
        guard let rootSurface = surfaces[root.id], root.role == .toplevel else { return }
        setKeyboardFocus(rootSurface)
        scene.raise(root)
    }

    func setKeyboardFocus(_ surface: Surface?) {
        guard surface !== keyboardFocus else { return }
        if let old = keyboardFocus, let oldResource = old.resource {
            let serial = serials.next()
            for keyboard in keyboards(of: old) { wl_keyboard_send_leave(keyboard.resource!, serial, oldResource) }
        }
        keyboardFocus = surface
        observer?.keyboardFocusChanged(to: surface)
        guard let surface else { return }
        for keyboard in keyboards(of: surface) { sendKeyboardEnter(to: keyboard, surface: surface) }
    }

    private func sendKeyboardEnter(to keyboard: KeyboardResource, surface: Surface) {
        guard let resource = keyboard.resource, let surfaceResource = surface.resource else { return }
        var keys = wl_array()
        wl_array_init(&keys)
        defer { wl_array_release(&keys) }
        for key in pressedKeys {
            wl_array_add(&keys, MemoryLayout<UInt32>.size)?.storeBytes(of: key, as: UInt32.self)
        }
        wl_keyboard_send_enter(resource, serials.next(), surfaceResource, &keys)
        let m = keymap.modifiers
        wl_keyboard_send_modifiers(resource, serials.next(), m.depressed, m.latched, m.locked, m.group)
    }

    /// An evdev key code (KEY_*), pressed or released.
    func key(_ key: UInt32, pressed: Bool, time: UInt32) {
        if pressed {
            guard !pressedKeys.contains(key) else { return }
            pressedKeys.append(key)
        } else {
            guard let index = pressedKeys.firstIndex(of: key) else { return }
            pressedKeys.remove(at: index)
        }
        let modifiersChanged = keymap.update(evdevKey: key, pressed: pressed)
        guard let focus = keyboardFocus, focus.isAlive else { return }
        let state = pressed ? WL_KEYBOARD_KEY_STATE_PRESSED.rawValue : WL_KEYBOARD_KEY_STATE_RELEASED.rawValue
        let serial = serials.next()
        let targets = keyboards(of: focus)
        for keyboard in targets { wl_keyboard_send_key(keyboard.resource!, serial, time, key, state) }
        if modifiersChanged {
            let m = keymap.modifiers
            let serial = serials.next()
            for keyboard in keyboards(of: focus) {
                wl_keyboard_send_modifiers(keyboard.resource!, serial, m.depressed, m.latched, m.locked, m.group)
            }
        }
    }

    func keyboards(of surface: Surface) -> [KeyboardResource] {
        keyboards.compactMap { $0.value }.filter { $0.isAlive && $0.client == surface.client }
    }

    // MARK: touch

    func touchDown(id: Int32, at point: Point, time: UInt32) {
        let hit = scene.surface(at: point)
        observer?.pressed(on: hit.flatMap { surfaces[$0.surface.id] })
        guard let hit, let surface = surfaces[hit.surface.id],
            let surfaceResource = surface.resource
        else { return }
        touchPoints[id] = TouchPoint(surface: surface, origin: surface.node.outputOrigin, client: surface.client)
        let serial = serials.next()
        for touch in touches(of: surface) {
            wl_touch_send_down(touch.resource!, serial, time, surfaceResource, id, hit.local.x.fixed, hit.local.y.fixed)
        }
        touchFrameDue(for: surface.client)
    }

    private func touchFrameDue(for client: Client) {
        if !touchFrameClients.contains(client) { touchFrameClients.append(client) }
    }

    func isTouchDown(id: Int32) -> Bool { touchPoints[id] != nil }

    func touchMotion(id: Int32, to point: Point, time: UInt32) {
        guard let touchPoint = touchPoints[id], let surface = touchPoint.surface, surface.isAlive else { return }
        let x = point.x - Double(touchPoint.origin.x)
        let y = point.y - Double(touchPoint.origin.y)
        for touch in touches(of: surface) { wl_touch_send_motion(touch.resource!, time, id, x.fixed, y.fixed) }
        touchFrameDue(for: surface.client)
    }

    func touchUp(id: Int32, time: UInt32) {
        // The up goes to the client even when its surface is gone (it names no surface).
        guard let touchPoint = touchPoints.removeValue(forKey: id) else { return }
        let serial = serials.next()
        for weak in touches {
            if let touch = weak.value, let resource = touch.resource, touch.client == touchPoint.client {
                wl_touch_send_up(resource, serial, time, id)
            }
        }
        touchFrameDue(for: touchPoint.client)
    }

    /// A preview interaction's commit phase took this touch point away: wl_touch.cancel to its
    /// client, which (as the core protocol defines it) ends all of that client's touch points;
    /// later motion and the release of any of them go nowhere.
    func touchCancel(id: Int32) {
        guard let client = touchPoints[id]?.surface?.client else {
            touchPoints[id] = nil
            return
        }
        for weak in touches {
            if let touch = weak.value, let resource = touch.resource, touch.client == client {
                wl_touch_send_cancel(resource)
            }
        }
        touchPoints = touchPoints.filter { $0.value.surface.map { $0.client != client } ?? false }
    }

    /// Ends a group of touch events (one evdev frame) for every client that got one, the
    /// last up included.
    func touchFrame() {
        guard !touchFrameClients.isEmpty else { return }
        for weak in touches {
            if let touch = weak.value, let resource = touch.resource, touchFrameClients.contains(touch.client) {
                wl_touch_send_frame(resource)
            }
        }
        touchFrameClients.removeAll(keepingCapacity: true)
    }

    private func touches(of surface: Surface) -> [TouchResource] {
        touches.compactMap { $0.value }.filter { $0.isAlive && $0.client == surface.client }
    }

    // MARK: scene changes

    /// A surface left the scene: drop focus that pointed at it or into its tree.
    func surfaceUnmapped(_ node: SceneSurface) {
        if let focus = keyboardFocus, focus.node.root === node || focus.node === node {
            setKeyboardFocus(nil)
        }
        // Touch points on a window that goes away end there: up, then frame.
        let time = clock.eventTime()
        for (id, point) in touchPoints where point.surface.map({ $0.node === node || $0.node.root === node }) ?? true {
            touchUp(id: id, time: time)
        }
        touchFrame()
        repick()
    }
}

/// A weak reference, for lists of objects other owners keep alive.
struct Weak<T: AnyObject> {
    weak var value: T?
    init(_ value: T) { self.value = value }
}
