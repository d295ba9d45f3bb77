import CWaylandClient
import CWaylandServer
import SystemLayer
import WaylandServer
import _PreviewProtocolTestSupport

@testable import PreviewCompositor

/// The compositor in-process without a socket, driven on the test's thread: every client is a
/// real libwayland client on a socketpair, and `Connection.roundtrip()` turns both ends, so
/// hostile request sequences run deterministically (no threads, no sleeps).
final class LocalCompositor {
    let compositor: Compositor

    init(_ tweak: (inout CompositorConfiguration) -> Void = { _ in }) throws {
        var configuration = CompositorConfiguration()
        configuration.listen = false
        configuration.handleSignals = false
        tweak(&configuration)
        compositor = try Compositor(configuration: configuration)
        compositor.start()
    }

    // Clients first, as `run()` ends: their destroy listeners need the compositor alive.
    deinit { wl_display_destroy_clients(compositor.display.raw) }

    func connect() throws -> RawClient { try RawClient(try Connection(to: compositor.display)) }

    /// Turns the event loop until `condition` holds, for at most `timeout` seconds.
    @discardableResult
    func dispatch(until condition: () -> Bool, timeout: Double = 10) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
        while ContinuousClock.now < deadline {
            if condition() { return true }
            compositor.dispatch(timeoutMilliseconds: 10)
        }
        return condition()
    }

    /// Mapped toplevels' output rectangles, left to right.
    var windowRects: [Rect] { compositor.windows.map(\.rect).sorted { $0.x < $1.x } }
}

/// One client speaking wl_compositor, wl_subcompositor, wl_shm and xdg-shell with whatever
/// numbers a test chooses; it acks configures and answers pings like a toolkit would.
final class RawClient {
    let connection: Connection
    let compositor: OpaquePointer
    let subcompositor: OpaquePointer
    let shm: OpaquePointer
    let wmBase: OpaquePointer
    private let state: UnsafeMutablePointer<ClientState>

    struct ClientState {
        var lastConfigure: [OpaquePointer: UInt32] = [:]
        /// The size each toplevel was last offered.
        var offered: [OpaquePointer: Size] = [:]
    }

    struct Size: Equatable {
        var width: Int32
        var height: Int32
    }

    init(_ connection: Connection) throws {
        self.connection = connection
        guard let compositor = connection.bind(cwl_interface_wl_compositor(), version: 4),
            let subcompositor = connection.bind(cwl_interface_wl_subcompositor(), version: 1),
            let shm = connection.bind(cwl_interface_wl_shm(), version: 1),
            let wmBase = connection.bind(cwl_interface_xdg_wm_base(), version: 2)
        else { throw WaylandServerError("the compositor lacks a core global") }
        self.compositor = compositor
        self.subcompositor = subcompositor
        self.shm = shm
        self.wmBase = wmBase
        state = .allocate(capacity: 1)
        state.initialize(to: ClientState())
        xdg_wm_base_add_listener(wmBase, &wmBaseListener, nil)
    }

    deinit { state.deinitialize(count: 1).deallocate() }

    @discardableResult
    func roundtrip() -> Bool { connection.roundtrip() }

    /// Whether the client still has a working connection (no protocol error, not dropped).
    var alive: Bool { !connection.disconnected && wl_display_get_error(connection.display) == 0 }

    var protocolError: (interface: String, code: UInt32)? { connection.protocolError }

    func surface() -> OpaquePointer { wl_compositor_create_surface(compositor)! }

    /// A wl_shm buffer of `width`×`height` ARGB pixels, all `argb`; nil if memory runs out.
    func buffer(width: Int32, height: Int32, argb: UInt32 = 0xff33_6699) -> OpaquePointer? {
        let stride = width * 4
        let size = Int(stride) * Int(height)
        guard let file = try? SharedMemory.anonymousFile(length: size) else { return nil }
        if size <= 64 << 20, let pixels = try? MemoryMapping(file, length: size, writable: true) {
            pixels.base.initializeMemory(as: UInt32.self, repeating: argb, count: size / 4)
        }
        return cwlc_shm_buffer_create(
            shm, file.rawValue, Int32(clamping: size), width, height, stride, WL_SHM_FORMAT_ARGB8888.rawValue)
    }

    /// An xdg toplevel: created, configured (acked) and, with `size`, mapped with a buffer.
    struct Window {
        let surface: OpaquePointer
        let xdgSurface: OpaquePointer
        let toplevel: OpaquePointer
    }

    func window(size: (Int32, Int32)? = (200, 150), beforeFirstCommit: (Window) -> Void = { _ in }) -> Window {
        let surface = surface()
        let xdg = xdg_wm_base_get_xdg_surface(wmBase, surface)!
        xdg_surface_add_listener(xdg, &xdgSurfaceListener, state)
        let toplevel = xdg_surface_get_toplevel(xdg)!
        xdg_toplevel_add_listener(toplevel, &toplevelListener, state)
        let window = Window(surface: surface, xdgSurface: xdg, toplevel: toplevel)
        beforeFirstCommit(window)
        wl_surface_commit(surface)
        roundtrip()
        ackConfigure(xdg)
        if let size, let buffer = buffer(width: size.0, height: size.1) {
            wl_surface_attach(surface, buffer, 0, 0)
            wl_surface_damage_buffer(surface, 0, 0, size.0, size.1)
            wl_surface_commit(surface)
            roundtrip()
        }
        return window
    }

    /// The size the compositor last offered `toplevel` (after a roundtrip).
    func offeredSize(_ toplevel: OpaquePointer) -> Size? { state.pointee.offered[toplevel] }

    /// A subsurface of `parent` with a `size` buffer, committed along with the parent.
    @discardableResult
    func subsurface(of parent: OpaquePointer, size: (Int32, Int32)) -> (
        surface: OpaquePointer, subsurface: OpaquePointer
    ) {
        let child = surface()
        let subsurface = wl_subcompositor_get_subsurface(subcompositor, child, parent)!
        wl_surface_attach(child, buffer(width: size.0, height: size.1), 0, 0)
        wl_surface_commit(child)
        wl_surface_commit(parent)
        roundtrip()
        return (child, subsurface)
    }

    /// Asks for `count` answers (wl_display.sync: done and delete_id) and sends the requests
    /// without reading anything: the answers pile up in its socket. Only the client's proxies
    /// are freed at once (the compositor still answers each).
    func requestAnswersWithoutReading(_ count: Int) {
        for _ in 0..<count { wl_callback_destroy(wl_display_sync(connection.display)) }
        connection.sendWithoutReading()
    }

    /// Acks the last configure of `xdgSurface`, if one came.
    func ackConfigure(_ xdgSurface: OpaquePointer) {
        if let serial = state.pointee.lastConfigure[xdgSurface] { xdg_surface_ack_configure(xdgSurface, serial) }
    }

    /// A popup of `parent` placed by a positioner the caller sets up, committed with a buffer.
    func popup(parent: OpaquePointer, size: (Int32, Int32) = (50, 40), positioner setUp: (OpaquePointer) -> Void)
        -> OpaquePointer
    {
        let surface = surface()
        let xdg = xdg_wm_base_get_xdg_surface(wmBase, surface)!
        xdg_surface_add_listener(xdg, &xdgSurfaceListener, state)
        let positioner = xdg_wm_base_create_positioner(wmBase)!
        xdg_positioner_set_size(positioner, size.0, size.1)
        setUp(positioner)
        _ = xdg_surface_get_popup(xdg, parent, positioner)
        xdg_positioner_destroy(positioner)
        wl_surface_commit(surface)
        roundtrip()
        ackConfigure(xdg)
        if let buffer = buffer(width: size.0, height: size.1) {
            wl_surface_attach(surface, buffer, 0, 0)
            wl_surface_damage_buffer(surface, 0, 0, size.0, size.1)
            wl_surface_commit(surface)
            roundtrip()
        }
        return surface
    }
}

nonisolated(unsafe) private var xdgSurfaceListener = xdg_surface_listener(configure: { data, xdg, serial in
    guard let xdg else { return }
    data?.assumingMemoryBound(to: RawClient.ClientState.self).pointee.lastConfigure[xdg] = serial
})

nonisolated(unsafe) private var wmBaseListener = xdg_wm_base_listener(ping: { _, base, serial in
    xdg_wm_base_pong(base, serial)
})

nonisolated(unsafe) private var toplevelListener = xdg_toplevel_listener(
    configure: { data, toplevel, width, height, _ in
        guard let toplevel else { return }
        data?.assumingMemoryBound(to: RawClient.ClientState.self).pointee.offered[toplevel] = .init(
            width: width, height: height)
    },
    close: { _, _ in }, configure_bounds: { _, _, _, _ in }, wm_capabilities: { _, _, _ in })
