import CPixman
internal import CWaylandClient

/// Our output as an xdg_toplevel on the parent: configure (the window's size is our output's
/// size), close, the scale of the outputs it is on, server-side decorations where the parent
/// offers xdg-decoration, and the frames: wl_shm buffers (`ShmSwapchain`) committed with their
/// damage, paced by the parent's frame callbacks.
public final class ParentWindow {
    private unowned let connection: ParentConnection
    let surface: OpaquePointer
    private let xdgSurface: OpaquePointer
    private let toplevel: OpaquePointer
    private var decoration: OpaquePointer?
    private let swapchain: ShmSwapchain
    private var frameCallback: OpaquePointer?
    private var entered: Set<OpaquePointer> = []
    /// The size the parent asked for (0: ours to choose), applied at the xdg_surface.configure.
    private var pendingSize: (width: Int32, height: Int32) = (0, 0)
    public private(set) var configured = false
    /// Our output's logical size.
    public private(set) var size: (width: Int32, height: Int32)
    public private(set) var scale: Int32 = 1
    /// Whether the window may show its first frame (see `mapWhenReady`).
    public private(set) var mayMap = true
    private var mapped = false

    public var onResize: ((Int32, Int32) -> Void)?
    public var onScale: ((Int32) -> Void)?
    public var onClose: (() -> Void)?
    /// The parent is ready for our next frame (its frame callback fired).
    public var onFrame: (() -> Void)?
    /// The parent gave a buffer back.
    public var onBufferReleased: (() -> Void)?

    public var bytesCopied: Int { swapchain.bytesCopied }
    public var waitingForParentFrame: Bool { frameCallback != nil }

    /// Opens the window and waits (round trips) for its first configure, so the output starts
    /// at the size the parent wants.
    public init(connection: ParentConnection, preferredSize: (width: Int32, height: Int32), title: String) throws(ParentError) {
        self.connection = connection
        size = preferredSize
        guard let compositor = connection.compositor, let shm = connection.shm, let wmBase = connection.wmBase,
            let surface = wl_compositor_create_surface(compositor)
        else { throw .window("no surface") }
        self.surface = surface
        guard let xdgSurface = xdg_wm_base_get_xdg_surface(wmBase, surface),
            let toplevel = xdg_surface_get_toplevel(xdgSurface)
        else { throw .window("no xdg_toplevel") }
        self.xdgSurface = xdgSurface
        self.toplevel = toplevel
        swapchain = ShmSwapchain(shm: shm)
        swapchain.onBufferCreated = { [unowned self] buffer in
            wl_buffer_add_listener(buffer, &ParentListeners.buffer, listenerContext(self))
        }
        wl_surface_add_listener(surface, &ParentListeners.surface, listenerContext(self))
        xdg_surface_add_listener(xdgSurface, &ParentListeners.xdgSurface, listenerContext(self))
        xdg_toplevel_add_listener(toplevel, &ParentListeners.toplevel, listenerContext(self))
        xdg_toplevel_set_title(toplevel, title)
        xdg_toplevel_set_app_id(toplevel, "preview-compositor")
        if let manager = connection.decorationManager,
            let decoration = zxdg_decoration_manager_v1_get_toplevel_decoration(manager, toplevel)
        {
            self.decoration = decoration
            zxdg_toplevel_decoration_v1_add_listener(decoration, &ParentListeners.decoration, listenerContext(self))
            zxdg_toplevel_decoration_v1_set_mode(decoration, ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue)
        }
        // The seat's input counts only on this surface (not on a decoration's).
        connection.seat?.surface = surface
        // The first commit has no buffer: it asks for the first configure.
        wl_surface_commit(surface)
        for _ in 0..<4 where !configured {
            guard wl_display_roundtrip(connection.display) >= 0 else { throw .window("the parent closed the connection") }
        }
        guard configured else { throw .window("the parent never configured the window") }
    }

    /// Holds the first frame back until `allowMap()` (a `--run` client's first window), so the
    /// parent never shows an empty window first (and its own input starts on our client).
    public func mapWhenReady() { if !mapped { mayMap = false } }

    public func allowMap() { mayMap = true }

    func toplevelConfigured(width: Int32, height: Int32) {
        pendingSize = (max(0, min(width, 16384)), max(0, min(height, 16384)))
    }

    func xdgSurfaceConfigured(serial: UInt32) {
        xdg_surface_ack_configure(xdgSurface, serial)
        configured = true
        let width = pendingSize.width > 0 ? pendingSize.width : size.width
        let height = pendingSize.height > 0 ? pendingSize.height : size.height
        guard (width, height) != size else { return }
        size = (width, height)
        onResize?(width, height)
    }

    func decorationConfigured(mode: UInt32) {}

    func closeRequested() { onClose?() }

    func entered(_ output: OpaquePointer?) {
        guard let output else { return }
        entered.insert(output)
        outputsChanged()
    }

    func left(_ output: OpaquePointer?) {
        guard let output else { return }
        entered.remove(output)
        outputsChanged()
    }

    /// The largest scale of the outputs the window is on, so it is sharp on the best of them.
    public func outputsChanged() {
        let new = max(1, entered.map { connection.scale(of: $0) }.max() ?? scale)
        guard new != scale else { return }
        scale = new
        onScale?(new)
    }

    // MARK: frames

    /// Records what a painted frame changed (framebuffer pixels).
    public func framePainted(damage: UnsafeMutablePointer<pixman_region32_t>) { swapchain.framePainted(damage: damage) }

    /// Shows the framebuffer (its unsent damage) if a buffer is free and the window may map.
    /// Returns false when nothing was committed.
    @discardableResult
    public func present(_ framebuffer: FramePixels) -> Bool {
        guard configured, mayMap, frameCallback == nil else { return false }
        wl_surface_set_buffer_scale(surface, scale)
        guard swapchain.attach(framebuffer, to: surface) else { return false }
        let callback = wl_surface_frame(surface)
        frameCallback = callback
        wl_callback_add_listener(callback, &ParentListeners.frame, listenerContext(self))
        wl_surface_commit(surface)
        mapped = true
        connection.flush()
        return true
    }

    func frameDone(_ callback: OpaquePointer?) {
        guard let callback, callback == frameCallback else { return }
        wl_callback_destroy(callback)
        frameCallback = nil
        onFrame?()
    }

    func bufferReleased(_ buffer: OpaquePointer?) {
        guard let buffer else { return }
        swapchain.released(buffer)
        onBufferReleased?()
    }

    public func destroy() {
        if let frameCallback { wl_callback_destroy(frameCallback) }
        frameCallback = nil
        if let decoration { zxdg_toplevel_decoration_v1_destroy(decoration) }
        decoration = nil
        xdg_toplevel_destroy(toplevel)
        xdg_surface_destroy(xdgSurface)
        swapchain.destroyAll()
        wl_surface_destroy(surface)
        connection.flush()
    }
}
