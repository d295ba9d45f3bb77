import CWaylandClient
import PeekUI
import PreviewInteraction
import SystemLayer

/// The client: one connection, one xdg toplevel with the photo grid, one PreviewInteraction for
/// its surface. Its own code runs on one thread: every listener and the interaction's delegate
/// calls back into this object (Listeners.swift, Interactions.swift), and the model (PeekUI)
/// decides what each input means. The PreviewInteraction library reads and acknowledges
/// interaction events on a thread of its own while this one draws.
final class PeekApp {
    let display: OpaquePointer
    private(set) var registry: OpaquePointer?
    var compositor: OpaquePointer?
    var shm: OpaquePointer?
    var wmBase: OpaquePointer?
    /// The preview-interaction global in the registry (bound by the library).
    var managerGlobal: (name: UInt32, version: UInt32)?
    var previewClient: PreviewInteractionClient?
    var seat: OpaquePointer?
    var seatName: UInt32 = 0
    /// tablet-v2: pens reach the app as tools, with their pressure (Input.swift).
    var tabletManager: OpaquePointer?
    var tabletSeat: OpaquePointer?
    var tools: [OpaquePointer] = []
    var pen = PenState()
    /// The "Copy" quick action's clipboard (Clipboard.swift).
    var dataDeviceManager: OpaquePointer?
    var dataDevice: OpaquePointer?
    var dataSource: OpaquePointer?
    var copiedText = ""
    /// The serial of the latest keyboard enter or button press (wl_data_device.set_selection wants one).
    var inputSerial: UInt32 = 0
    /// wl_output proxies and their scale, by registry name.
    var outputs: [UInt32: (proxy: OpaquePointer, scale: Int32)] = [:]

    // The window (Window.swift).
    var surface: OpaquePointer?
    var xdgSurface: OpaquePointer?
    var toplevel: OpaquePointer?
    var pendingSize: (width: Int32, height: Int32) = (0, 0)
    var configured = false
    var frameCallback: OpaquePointer?
    var needsRedraw = false
    /// True while events are dispatched: drawing waits until the whole batch is handled, so an
    /// answer or ack to an event read in the same batch never waits behind a (slow) frame.
    var dispatching = false
    /// The last frame drawn showed an animation (so a running one is not restarted).
    var drewAnimation = false
    /// A quiet frame was drawn: after 100 ms without events, prepare the next peek's blur.
    var idleWorkPending = false
    var buffers = BufferPool()
    var scale: Int32 = 1
    var enteredOutputs: Set<OpaquePointer> = []
    /// No xdg_wm_base or no wl_shm (a protocol test server): the surface gets no role and no
    /// buffers, but is still committed, so interactions run as with a window.
    var headless = false

    // Preview interactions (Interactions.swift).
    var interaction: PreviewInteraction?
    /// The interaction the model follows; others on the same surface are declined.
    var active: UInt32?
    var interactionsEnded = 0
    let exitAfterInteractions: Int?
    let log: Bool
    /// --draw-delay, in microseconds.
    let drawDelay: UInt32
    /// --exit-after-interactions was reached: exit once the last frame is drawn and nothing moves.
    var exitWhenSettled = false

    // Core input (Input.swift).
    var pointer: OpaquePointer?
    var keyboard: OpaquePointer?
    var touch: OpaquePointer?
    /// The touch point that acts as a click (the first one down); others are ignored.
    var touchID: Int32?
    var cursor: Cursor?
    var pointerPosition = Point(x: 0, y: 0)
    var shiftDown = false

    var model: PeekModel
    let renderer: PeekRenderer
    var running = true
    var exitStatus: Int32 = 0

    static let defaultSize = Size(width: 800, height: 600)

    init(
        items: Int, theme: Theme, exitAfterInteractions: Int?, log: Bool, drawDelay: Int = 0, open: Int? = nil
    ) throws {
        guard let display = wl_display_connect(nil) else {
            let name = Environment.value("WAYLAND_DISPLAY") ?? "wayland-0"
            throw ClientError("cannot connect to the Wayland display '\(name)' (is a compositor running?)")
        }
        self.display = display
        self.model = PeekModel(items: Item.samples(count: items), size: Self.defaultSize)
        // Before the first frame: the window maps showing the page, with the page's behaviours.
        if let open { model.openDetail(at: open) }
        self.renderer = PeekRenderer(theme: theme)
        self.exitAfterInteractions = exitAfterInteractions
        self.log = log
        self.drawDelay = UInt32(drawDelay) * 1000

        registry = wl_display_get_registry(display)
        wl_registry_add_listener(registry, &registryListener, context(self))
        guard wl_display_roundtrip(display) >= 0 else { throw connectionError() }
        guard compositor != nil else { throw ClientError("the compositor does not advertise wl_compositor") }
        if wmBase == nil || shm == nil {
            headless = true
            printError("peek-client: no \(wmBase == nil ? "xdg_wm_base" : "wl_shm"): running without a window")
        }
        if let global = managerGlobal, let registry {
            do {
                previewClient = try PreviewInteractionClient(
                    display: display, registry: registry, name: global.name, version: global.version,
                    compositor: compositor)
            } catch {
                printError("peek-client: \(error): no peek and pop, right click and keys still work")
            }
        } else {
            printError(
                "peek-client: no spi_preview_interaction_manager_v1: no peek and pop, right click and keys still work")
        }
        createWindow()
        if let tabletManager, let seat, let tablets = zwp_tablet_manager_v2_get_tablet_seat(tabletManager, seat) {
            tabletSeat = tablets
            zwp_tablet_seat_v2_add_listener(tablets, &tabletSeatListener, context(self))
        }
        // The second roundtrip brings the seat's capabilities and the first configure.
        guard wl_display_roundtrip(display) >= 0 else { throw connectionError() }
    }

    // MARK: Registry

    func global(name: UInt32, interface: String, version: UInt32) {
        switch interface {
        case "wl_compositor":
            compositor = bind(name, cwl_interface_wl_compositor(), min(version, 4))
        case "wl_shm":
            shm = bind(name, cwl_interface_wl_shm(), 1)
        case "xdg_wm_base":
            wmBase = bind(name, cwl_interface_xdg_wm_base(), min(version, 5))
            xdg_wm_base_add_listener(wmBase, &wmBaseListener, context(self))
        case PreviewInteractionClient.interfaceName:
            managerGlobal = (name, version)
        case "wl_seat" where seat == nil:
            seat = bind(name, cwl_interface_wl_seat(), min(version, 5))
            seatName = name
            wl_seat_add_listener(seat, &seatListener, context(self))
        case "zwp_tablet_manager_v2":
            tabletManager = bind(name, cwl_interface_zwp_tablet_manager_v2(), 1)
        case "wl_data_device_manager":
            dataDeviceManager = bind(name, cwl_interface_wl_data_device_manager(), min(version, 3))
        case "wl_output" where version >= 2:
            guard let output = bind(name, cwl_interface_wl_output(), 2) else { return }
            outputs[name] = (output, 1)
            wl_output_add_listener(output, &outputListener, context(self))
        default:
            break
        }
    }

    func globalRemoved(name: UInt32) {
        if let output = outputs.removeValue(forKey: name) {
            enteredOutputs.remove(output.proxy)
            wl_output_destroy(output.proxy)
            updateScale()
        } else if name == seatName, let seat {
            releaseInputDevices()
            releaseTablets()
            releaseSeat(seat)
            self.seat = nil
        }
    }

    /// wl_seat.release exists from version 5; older seats are only destroyed client-side.
    private func releaseSeat(_ seat: OpaquePointer) {
        if wl_seat_get_version(seat) >= 5 { wl_seat_release(seat) } else { wl_seat_destroy(seat) }
    }

    private func bind(_ name: UInt32, _ interface: UnsafePointer<wl_interface>, _ version: UInt32) -> OpaquePointer? {
        cwlc_registry_bind(registry, name, interface, version).map { OpaquePointer($0) }
    }

    func outputScale(_ output: OpaquePointer?, _ factor: Int32) {
        guard let output, let entry = outputs.first(where: { $0.value.proxy == output }) else { return }
        outputs[entry.key] = (output, min(max(1, factor), PeekApp.largestScale))
        updateScale()
    }

    // MARK: Main loop

    /// Dispatches until the window is closed, the interaction count is reached or the
    /// connection fails. Returns the exit status.
    func run() -> Int32 {
        let fd = wl_display_get_fd(display)
        while running {
            while wl_display_prepare_read(display) != 0 {
                guard dispatchPending() else { return fail() }
            }
            if wl_display_flush(display) < 0 && !SystemCallError.last.wouldBlock {
                wl_display_cancel_read(display)
                return fail()
            }
            // Without a window there are no frame callbacks: animations tick on a timer.
            var fds = PollSet([fd])
            let timeout: Int32 = headless && model.isAnimating ? 16 : idleWorkPending ? 100 : -1
            let ready = fds.wait(timeoutMilliseconds: timeout)
            if ready > 0 && fds.isReady(0) {
                guard wl_display_read_events(display) >= 0 else { return fail() }
            } else if ready > 0 {
                wl_display_cancel_read(display)
            } else {
                wl_display_cancel_read(display)
                if idleWorkPending {
                    // Idle (not while scrolling or typing): the next press's first frame then
                    // only composites instead of blurring the grid (BENCHMARKS.md).
                    idleWorkPending = false
                    renderer.prepareBlur(for: model, scale: Int(scale))
                }
            }
            guard dispatchPending() else { return fail() }
            if headless && model.isAnimating { _ = model.advance(to: monotonicSeconds()) }
        }
        // The last acks, answers and frame: a roundtrip makes sure the compositor has read them
        // (it drops what is unread when the connection closes).
        wl_display_roundtrip(display)
        shutdown()
        return exitStatus
    }

    /// Handles every event read, sends the answers and acks they made, then draws what they
    /// asked for.
    private func dispatchPending() -> Bool {
        dispatching = true
        // The interaction's calls are made as their events are dispatched, in the compositor's
        // order relative to core input (a cancelled preview, then the release), which the
        // model relies on.
        let status = wl_display_dispatch_pending(display)
        dispatching = false
        guard status >= 0 else {
            previewClient?.deliverPendingCalls()  // the running presses end (system)
            return false
        }
        if wl_display_flush(display) < 0 && !SystemCallError.last.wouldBlock { return false }
        if frameCallback == nil { drawIfNeeded() }
        return true
    }

    func stop(status: Int32) {
        exitStatus = status
        running = false
    }

    private func fail() -> Int32 {
        printError("peek-client: \(connectionError())")
        shutdown()
        return 1
    }

    private func connectionError() -> ClientError {
        let code = wl_display_get_error(display)
        if SystemCallError(code).isProtocolError {
            var interface: UnsafePointer<wl_interface>?
            var id: UInt32 = 0
            let error = wl_display_get_protocol_error(display, &interface, &id)
            let name = interface.map { String(cString: $0.pointee.name) } ?? "?"
            return ClientError("protocol error \(error) on \(name)@\(id)")
        }
        return ClientError("lost the connection to the compositor (\(errnoText(code)))")
    }

    /// Destroys every proxy, children before parents; the interaction before its surface (so no
    /// should_begin races with the surface's destruction).
    private func shutdown() {
        interaction?.invalidate()
        interaction = nil
        previewClient?.close()
        previewClient = nil
        releaseInputDevices()
        releaseTablets()
        if let seat { releaseSeat(seat) }
        seat = nil
        if let frameCallback { wl_callback_destroy(frameCallback) }
        frameCallback = nil
        buffers.destroyAll()
        cursor?.destroy()
        cursor = nil
        if let toplevel { xdg_toplevel_destroy(toplevel) }
        if let xdgSurface { xdg_surface_destroy(xdgSurface) }
        if let surface { wl_surface_destroy(surface) }
        (toplevel, xdgSurface, surface) = (nil, nil, nil)
        for (_, output) in outputs { wl_output_destroy(output.proxy) }
        outputs.removeAll()
        if let tabletManager { zwp_tablet_manager_v2_destroy(tabletManager) }
        tabletManager = nil
        if let wmBase { xdg_wm_base_destroy(wmBase) }
        if let shm { wl_shm_destroy(shm) }
        if let compositor { wl_compositor_destroy(compositor) }
        if let registry { wl_registry_destroy(registry) }
        (wmBase, shm, compositor, registry) = (nil, nil, nil, nil)
        wl_display_flush(display)
        wl_display_disconnect(display)
    }
}
