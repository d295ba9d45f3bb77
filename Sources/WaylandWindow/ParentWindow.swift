import CPixman
internal import CWaylandClient
internal import CWaylandLibdecor
import SystemLayer

/// Our output as an xdg_toplevel on the parent: configure (the window's size is our output's
/// size), close, the scale of the outputs it is on, and the frames: wl_shm buffers
/// (`ShmSwapchain`) committed with their damage, paced by the parent's frame callbacks.
/// Decorations: server-side through xdg-decoration where the parent offers it (KDE, sway);
/// elsewhere (GNOME, weston) libdecor makes the toplevel and its plugin draws them (none
/// without a plugin installed: `decorations` says which happened).
/// Size: the parent's configure wins; without one, the preferred size, or with
/// `fitsParentOutput` one that fits the parent's largest output (the window asks to be
/// maximized when the preferred size would not fit, so the parent sizes it with its own
/// decorations and panels in mind).
public final class ParentWindow {
    private unowned let connection: ParentConnection
    let surface: OpaquePointer
    private enum Shell {
        /// xdg-shell ourselves, with the parent's server-side decorations if it offers them.
        case xdg(xdgSurface: OpaquePointer, toplevel: OpaquePointer, decoration: OpaquePointer?)
        /// libdecor's toplevel and client-side decorations.
        case libdecor(context: OpaquePointer, frame: OpaquePointer)
    }
    private var shell: Shell?
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
    /// The window asked the parent to maximize it (its preferred size would not fit).
    private var maximizeWanted = false
    private var maximizeRequested = false
    /// How the window is decorated, as it really is: by the parent (xdg-decoration), by
    /// libdecor's plugin (the decorations have a size), or not at all (libdecor without a
    /// plugin falls back to none; no libdecor).
    public var decorations: String {
        switch shell {
        case .xdg(_, _, .some): return "server-side (xdg-decoration)"
        case .xdg(_, _, nil), nil: return "none"
        case .libdecor:
            guard let plugin = Self.libdecorPlugin() else { return "none (libdecor found no plugin to draw them)" }
            return "client-side (libdecor, \(plugin))"
        }
    }

    /// The file name of the libdecor plugin mapped in this process, or nil: libdecor fell back to
    /// drawing nothing. libdecor does not say which plugin it chose, but it keeps only that one
    /// loaded (the others are closed again).
    private static func libdecorPlugin() -> String? {
        guard let maps = try? Descriptor(readingFrom: "/proc/self/maps").readAll() else { return nil }
        for text in String(decoding: maps, as: UTF8.self).split(separator: "\n") {
            guard let path = text.split(separator: " ", omittingEmptySubsequences: true).last else { continue }
            let name = String(path.split(separator: "/").last ?? "").filter { $0 != "\n" }
            if name.hasPrefix("libdecor-") && !name.hasPrefix("libdecor-0.") { return name }
        }
        return nil
    }

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
    /// at the size the parent wants. `libdecor` false: never libdecor (no decorations where the
    /// parent offers no xdg-decoration).
    public init(
        connection: ParentConnection, preferredSize: (width: Int32, height: Int32), fitsParentOutput: Bool = false,
        title: String, libdecor: Bool = true
    ) throws(ParentError) {
        self.connection = connection
        size = preferredSize
        if fitsParentOutput, let output = connection.largestOutput,
            output.width < preferredSize.width || output.height < preferredSize.height
        {
            size = (min(preferredSize.width, output.width), min(preferredSize.height, output.height))
            maximizeWanted = true
        }
        guard let compositor = connection.compositor, let shm = connection.shm, let wmBase = connection.wmBase,
            let surface = wl_compositor_create_surface(compositor)
        else { throw .window("no surface") }
        self.surface = surface
        swapchain = ShmSwapchain(shm: shm)
        swapchain.onBufferCreated = { [unowned self] buffer in
            wl_buffer_add_listener(buffer, &ParentListeners.buffer, listenerContext(self))
        }
        wl_surface_add_listener(surface, &ParentListeners.surface, listenerContext(self))
        // The seat's input counts only on this surface (not on a decoration's).
        connection.seat?.surface = surface
        if connection.decorationManager == nil, libdecor,
            let context = libdecor_new(connection.display, &ParentListeners.libdecorContext),
            let frame = libdecor_decorate(context, surface, &ParentListeners.libdecorFrame, listenerContext(self))
        {
            shell = .libdecor(context: context, frame: frame)
            libdecor_frame_set_title(frame, title)
            libdecor_frame_set_app_id(frame, "preview-compositor")
            libdecor_frame_map(frame)
        } else {
            guard let xdgSurface = xdg_wm_base_get_xdg_surface(wmBase, surface),
                let toplevel = xdg_surface_get_toplevel(xdgSurface)
            else { throw .window("no xdg_toplevel") }
            xdg_surface_add_listener(xdgSurface, &ParentListeners.xdgSurface, listenerContext(self))
            xdg_toplevel_add_listener(toplevel, &ParentListeners.toplevel, listenerContext(self))
            xdg_toplevel_set_title(toplevel, title)
            xdg_toplevel_set_app_id(toplevel, "preview-compositor")
            var decoration: OpaquePointer?
            if let manager = connection.decorationManager {
                decoration = zxdg_decoration_manager_v1_get_toplevel_decoration(manager, toplevel)
                zxdg_toplevel_decoration_v1_set_mode(decoration, ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue)
            }
            if maximizeWanted {
                xdg_toplevel_set_maximized(toplevel)
                maximizeRequested = true
            }
            shell = .xdg(xdgSurface: xdgSurface, toplevel: toplevel, decoration: decoration)
            // The first commit has no buffer: it asks for the first configure.
            wl_surface_commit(surface)
        }
        for _ in 0..<4 where !configured {
            guard wl_display_roundtrip(connection.display) >= 0 else {
                throw .window("the parent closed the connection")
            }
        }
        guard configured else {
            throw .window(ParentListeners.libdecorError ?? "the parent never configured the window")
        }
        // libdecor asks to be maximized at its first configure: wait for the parent's answer,
        // so the output starts at the maximized size (a parent may also ignore the request).
        if case .libdecor = shell, maximizeRequested {
            for _ in 0..<2 where wl_display_roundtrip(connection.display) < 0 {
                throw .window("the parent closed the connection")
            }
        }
    }

    /// Holds the first frame back until `allowMap()` (a `--run` client's first window), so the
    /// parent never shows an empty window first (and its own input starts on our client).
    public func mapWhenReady() { if !mapped { mayMap = false } }

    public func allowMap() { mayMap = true }

    func toplevelConfigured(width: Int32, height: Int32) {
        pendingSize = (max(0, min(width, 16384)), max(0, min(height, 16384)))
    }

    func xdgSurfaceConfigured(serial: UInt32) {
        guard case .xdg(let xdgSurface, _, _) = shell else { return }
        xdg_surface_ack_configure(xdgSurface, serial)
        applyConfigure()
    }

    /// libdecor's configure: the content size it offers (none: ours), committed back as our state.
    func libdecorConfigured(_ configuration: OpaquePointer?) {
        guard case .libdecor(_, let frame) = shell else { return }
        var width: Int32 = 0
        var height: Int32 = 0
        if !libdecor_configuration_get_content_size(configuration, frame, &width, &height) { (width, height) = (0, 0) }
        toplevelConfigured(width: width, height: height)
        let chosen = (
            pendingSize.width > 0 ? pendingSize.width : size.width,
            pendingSize.height > 0 ? pendingSize.height : size.height
        )
        let state = libdecor_state_new(chosen.0, chosen.1)
        libdecor_frame_commit(frame, state, configuration)
        libdecor_state_free(state)
        applyConfigure()
        // libdecor makes its xdg_toplevel when it maps the frame: only now can it be maximized.
        if maximizeWanted, !maximizeRequested {
            maximizeRequested = true
            libdecor_frame_set_maximized(frame)
            connection.flush()
        }
    }

    /// libdecor's decorations want our surface committed (synchronised subsurfaces).
    func libdecorWantsCommit() {
        wl_surface_commit(surface)
        connection.flush()
    }

    private func applyConfigure() {
        configured = true
        let width = pendingSize.width > 0 ? pendingSize.width : size.width
        let height = pendingSize.height > 0 ? pendingSize.height : size.height
        guard (width, height) != size else { return }
        size = (width, height)
        onResize?(width, height)
    }

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
        switch shell {
        case .xdg(let xdgSurface, let toplevel, let decoration):
            if let decoration { zxdg_toplevel_decoration_v1_destroy(decoration) }
            xdg_toplevel_destroy(toplevel)
            xdg_surface_destroy(xdgSurface)
        case .libdecor(let context, let frame):
            libdecor_frame_unref(frame)
            libdecor_unref(context)
        case nil:
            break
        }
        shell = nil
        swapchain.destroyAll()
        wl_surface_destroy(surface)
        connection.flush()
    }
}
