internal import CWaylandClient
import PreviewEngine
import SystemLayer

/// Our connection to the parent compositor (WAYLAND_SOCKET or WAYLAND_DISPLAY of our own
/// environment, as libwayland reads them): its globals, our window and our view of its seat.
/// Its events are read on our display's event loop; everything runs on that thread.
public final class ParentConnection {
    let display: OpaquePointer
    private let registry: OpaquePointer
    private(set) var compositor: OpaquePointer?
    private(set) var shm: OpaquePointer?
    private(set) var wmBase: OpaquePointer?
    private(set) var decorationManager: OpaquePointer?
    private var seatProxy: (name: UInt32, proxy: OpaquePointer)?
    private var tabletManager: OpaquePointer?
    /// wl_output name → (proxy, scale, current mode in pixels).
    private(set) var outputs: [UInt32: (proxy: OpaquePointer, scale: Int32, mode: (width: Int32, height: Int32))] = [:]
    public private(set) var seat: ParentSeat?
    /// Stamps input events (CLOCK_MONOTONIC, the compositor's one clock).
    let clock: () -> Timestamp
    /// Called once when the parent closes the connection or a protocol error ends it.
    public var onLost: ((String) -> Void)?
    /// Called when an output's scale changed (the window re-evaluates its scale).
    public var onOutputsChanged: (() -> Void)?
    private var lost = false

    /// Connects and learns the parent's globals, seat capabilities, keymap and tablet tools
    /// (three round trips). Throws a one-line reason.
    /// `name`: a socket name or path; nil: WAYLAND_SOCKET or WAYLAND_DISPLAY, as libwayland reads them.
    public init(display name: String? = nil, clock: @escaping () -> Timestamp) throws(ParentError) {
        self.clock = clock
        let connected = name.map { wl_display_connect($0) } ?? wl_display_connect(nil)
        guard let display = connected else {
            let name = name ?? Environment.value("WAYLAND_DISPLAY") ?? "wayland-0"
            throw .cannotConnect(name, errnoText())
        }
        self.display = display
        guard let registry = wl_display_get_registry(display) else {
            wl_display_disconnect(display)
            throw .cannotConnect("-", "no registry")
        }
        self.registry = registry
        wl_registry_add_listener(registry, &ParentListeners.registry, listenerContext(self))
        for _ in 0..<3 {
            guard wl_display_roundtrip(display) >= 0 else {
                let reason = errnoText(wl_display_get_error(display))
                destroy()
                throw .cannotConnect("-", reason)
            }
        }
        guard compositor != nil, shm != nil, wmBase != nil else {
            let missing = [("wl_compositor 4", compositor), ("wl_shm", shm), ("xdg_wm_base", wmBase)]
                .filter { $0.1 == nil }.map(\.0).joined(separator: ", ")
            destroy()
            throw .missingGlobals(missing)
        }
    }

    func global(name: UInt32, interface: String, version: UInt32) {
        func bind(_ table: UnsafePointer<wl_interface>, _ highest: UInt32) -> OpaquePointer? {
            OpaquePointer(cwlc_registry_bind(registry, name, table, min(version, highest)))
        }
        switch interface {
        case "wl_compositor" where version >= 4:
            compositor = bind(cwl_interface_wl_compositor(), 4)
        case "wl_shm":
            shm = bind(cwl_interface_wl_shm(), 1)
        case "xdg_wm_base":
            wmBase = bind(cwl_interface_xdg_wm_base(), 2)
            xdg_wm_base_add_listener(wmBase, &ParentListeners.wmBase, nil)
        case "zxdg_decoration_manager_v1":
            decorationManager = bind(cwl_interface_zxdg_decoration_manager_v1(), 1)
        case "wl_output":
            guard let output = bind(cwl_interface_wl_output(), 2) else { return }
            outputs[name] = (output, 1, (0, 0))
            wl_output_add_listener(output, &ParentListeners.output, listenerContext(self))
        case "wl_seat" where seatProxy == nil:
            guard let proxy = bind(cwl_interface_wl_seat(), 8) else { return }
            seatProxy = (name, proxy)
            let seat = ParentSeat(proxy: proxy, version: min(version, 8), clock: clock)
            self.seat = seat
            if let tabletManager { seat.useTablets(tabletManager) }
        case "zwp_tablet_manager_v2":
            tabletManager = bind(cwl_interface_zwp_tablet_manager_v2(), 1)
            if let seat, let tabletManager { seat.useTablets(tabletManager) }
        default:
            break
        }
    }

    func globalRemoved(name: UInt32) {
        if let output = outputs.removeValue(forKey: name) {
            wl_output_destroy(output.proxy)
            onOutputsChanged?()
        }
    }

    func outputScale(_ proxy: OpaquePointer?, _ factor: Int32) {
        guard let key = outputs.first(where: { $0.value.proxy == proxy })?.key else { return }
        outputs[key]?.scale = min(max(factor, 1), 8)
    }

    func outputMode(_ proxy: OpaquePointer?, width: Int32, height: Int32) {
        guard let key = outputs.first(where: { $0.value.proxy == proxy })?.key else { return }
        outputs[key]?.mode = (min(max(0, width), 16384), min(max(0, height), 16384))
    }

    func outputDone(_ proxy: OpaquePointer?) { onOutputsChanged?() }

    /// The logical size of the parent's largest output (its current mode over its scale), or
    /// nil before any output said its mode: the most a window can show at once.
    var largestOutput: (width: Int32, height: Int32)? {
        outputs.values.filter { $0.mode.width > 0 && $0.mode.height > 0 }
            .map { (width: $0.mode.width / $0.scale, height: $0.mode.height / $0.scale) }
            .max { Int($0.width) * Int($0.height) < Int($1.width) * Int($1.height) }
    }

    /// The scale of an output the window entered (1 for one we do not know).
    func scale(of proxy: OpaquePointer) -> Int32 { outputs.values.first { $0.proxy == proxy }?.scale ?? 1 }

    // MARK: the event loop

    /// The socket to watch: call `readEvents()` when it is readable, `hangUp()` on hangup or error.
    public var fileDescriptor: Int32 { wl_display_get_fd(display) }

    public func hangUp() { connectionLost("the parent compositor closed the connection") }

    /// Reads and dispatches what the parent sent.
    public func readEvents() {
        guard !lost else { return }
        read()
    }

    private func read() {
        while wl_display_prepare_read(display) != 0 {
            guard wl_display_dispatch_pending(display) >= 0 else { return failed() }
        }
        guard wl_display_read_events(display) >= 0 else { return failed() }
        guard wl_display_dispatch_pending(display) >= 0 else { return failed() }
        flush()
    }

    /// Sends our requests now (after every batch of requests: the loop does not do it for us).
    public func flush() {
        guard !lost else { return }
        if wl_display_flush(display) < 0 && !SystemCallError.last.wouldBlock { failed() }
    }

    private func failed() {
        let code = wl_display_get_error(display)
        connectionLost(
            SystemCallError(code).isProtocolError
                ? "protocol error from the parent compositor" : "lost the parent compositor (\(errnoText(code)))")
    }

    private func connectionLost(_ reason: String) {
        guard !lost else { return }
        lost = true
        onLost?(reason)
    }

    /// Destroys every proxy and disconnects (the teardown's last step for this backend).
    public func destroy() {
        seat?.destroy()
        seat = nil
        for output in outputs.values { wl_output_destroy(output.proxy) }
        outputs.removeAll()
        if let seatProxy { wl_seat_destroy(seatProxy.proxy) }
        seatProxy = nil
        if let tabletManager { zwp_tablet_manager_v2_destroy(tabletManager) }
        tabletManager = nil
        if let decorationManager { zxdg_decoration_manager_v1_destroy(decorationManager) }
        decorationManager = nil
        if let wmBase { xdg_wm_base_destroy(wmBase) }
        wmBase = nil
        if let shm { wl_shm_destroy(shm) }
        shm = nil
        if let compositor { wl_compositor_destroy(compositor) }
        compositor = nil
        wl_registry_destroy(registry)
        if !lost { wl_display_flush(display) }
        wl_display_disconnect(display)
    }
}

/// Why the window backend cannot start: one line each.
public enum ParentError: Error, CustomStringConvertible, Sendable {
    case cannotConnect(String, String)
    case missingGlobals(String)
    case window(String)

    public var description: String {
        switch self {
        case .cannotConnect(let name, let reason): "cannot connect to the Wayland compositor \(name): \(reason)"
        case .missingGlobals(let names): "the parent Wayland compositor lacks \(names)"
        case .window(let reason): "cannot open a window on the parent compositor: \(reason)"
        }
    }
}
