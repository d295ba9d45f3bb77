import CWaylandClient
internal import SystemLayer

/// A connection for small apps: connects to the compositor, binds what a plain window needs
/// (wl_compositor, wl_shm, xdg_wm_base, answering its pings) and the preview-interaction global
/// from the same registry, and runs the event loop. Larger apps keep their own connection and
/// create a `PreviewInteractionClient` from their registry instead.
public final class PreviewConnection {
    public let display: OpaquePointer
    public private(set) var compositor: OpaquePointer?
    public private(set) var shm: OpaquePointer?
    public private(set) var wmBase: OpaquePointer?
    /// Nil when the compositor has no preview interactions (`previewError` says why).
    public private(set) var previewClient: PreviewInteractionClient?
    public private(set) var previewError: PreviewInteractionError?
    private var registry: OpaquePointer?
    let globals = ConnectionGlobals()

    /// Connects to `name` (nil: $WAYLAND_DISPLAY or $WAYLAND_SOCKET) and binds the globals.
    public init(name: String? = nil) throws(PreviewInteractionError) {
        guard let display = wl_display_connect(name) else { throw .connectionFailed(errno: SystemCallError.last.code) }
        self.display = display
        registry = wl_display_get_registry(display)
        _ = withUnretained(globals) { wl_registry_add_listener(registry, &connectionRegistryListener, $0) }
        guard wl_display_roundtrip(display) >= 0 else {
            let code = wl_display_get_error(display)
            wl_display_disconnect(display)
            throw .connectionFailed(errno: code)
        }
        compositor = bind(globals.compositor, cwl_interface_wl_compositor(), 4)
        shm = bind(globals.shm, cwl_interface_wl_shm(), 1)
        wmBase = bind(globals.wmBase, cwl_interface_xdg_wm_base(), 2)
        if let wmBase { xdg_wm_base_add_listener(wmBase, &pingListener, nil) }
        if let registry, let manager = globals.manager {
            do {
                previewClient = try PreviewInteractionClient(
                    display: display, registry: registry, name: manager.name, version: manager.version,
                    compositor: compositor)
            } catch {
                previewError = error
            }
        } else {
            previewError = .unsupportedByCompositor
        }
    }

    deinit { close() }

    /// A preview interaction on `surface` (not available without the global).
    public func makeInteraction(surface: OpaquePointer) -> PreviewInteraction {
        PreviewInteraction(surface: surface, client: previewClient)
    }

    /// One turn of the event loop: sends what is queued, waits up to `timeoutMilliseconds`
    /// (-1: for ever) for events, dispatches them (delegate calls included). False once the
    /// connection failed.
    @discardableResult
    public func dispatch(timeoutMilliseconds: Int32 = -1) -> Bool {
        while wl_display_prepare_read(display) != 0 {
            guard wl_display_dispatch_pending(display) >= 0 else { return failed() }
        }
        if wl_display_flush(display) < 0 && !SystemCallError.last.wouldBlock {
            wl_display_cancel_read(display)
            return failed()
        }
        var fds = PollSet([wl_display_get_fd(display)])
        if fds.wait(timeoutMilliseconds: timeoutMilliseconds) > 0 && fds.isReady(0) {
            guard wl_display_read_events(display) >= 0 else { return failed() }
        } else {
            wl_display_cancel_read(display)
        }
        // The interactions' calls are made as their events are dispatched, in the order the
        // compositor sent them relative to core input.
        return wl_display_dispatch_pending(display) >= 0 || failed()
    }

    /// The connection failed: the running presses end (cancelled, system). Always false.
    private func failed() -> Bool {
        previewClient?.deliverPendingCalls()
        return false
    }

    /// Dispatches until `condition` turns false or the connection fails (then false).
    public func run(while condition: () -> Bool) -> Bool {
        while condition() {
            guard dispatch() else { return false }
        }
        wl_display_roundtrip(display)  // the compositor reads the last requests before we go
        return true
    }

    /// Destroys what the connection made and disconnects. Destroy your surfaces (and their
    /// interactions) first.
    public func close() {
        guard let registry else { return }
        previewClient?.close()
        previewClient = nil
        if let wmBase { xdg_wm_base_destroy(wmBase) }
        if let shm { wl_shm_destroy(shm) }
        if let compositor { wl_compositor_destroy(compositor) }
        wl_registry_destroy(registry)
        (wmBase, shm, compositor, self.registry) = (nil, nil, nil, nil)
        wl_display_flush(display)
        wl_display_disconnect(display)
    }

    private func bind(
        _ global: (name: UInt32, version: UInt32)?, _ interface: UnsafePointer<wl_interface>, _ version: UInt32
    )
        -> OpaquePointer?
    {
        guard let global, let registry else { return nil }
        return OpaquePointer(cwlc_registry_bind(registry, global.name, interface, min(global.version, version)))
    }
}
