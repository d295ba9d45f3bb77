import CWaylandServer
import Logging
import WaylandServer

/// xdg_toplevel: a window, tiled in columns with the others and activated when focused.
final class XdgToplevel: ResourceObject {
    weak var xdgSurface: XdgSurface?
    /// Held here too: on a disconnect the xdg_surface or wl_surface may be destroyed first,
    /// and the window must still leave its column.
    weak var host: SurfaceHost?
    private let sceneNode: SceneSurface
    var node: SceneSurface? { sceneNode }
    /// Its xdg-decoration object, if the client made one (one per toplevel).
    weak var decoration: ToplevelDecorationResource?
    private(set) var title = ""
    private(set) var appID = ""
    /// The size last offered in a configure (0: let the client choose).
    private(set) var offered: (width: Int32, height: Int32) = (0, 0)
    var activated = false

    /// Makes the xdg_toplevel of `xdgSurface`: its new wl_resource owns it (Ownership.swift),
    /// the caller keeps a weak reference.
    static func create(xdgSurface: XdgSurface, id: UInt32) -> XdgToplevel? {
        XdgToplevel(xdgSurface: xdgSurface, id: id)
    }

    private init?(xdgSurface: XdgSurface, id: UInt32) {
        self.xdgSurface = xdgSurface
        host = xdgSurface.host
        sceneNode = xdgSurface.node
        super.init(
            client: xdgSurface.client, interface: cwl_interface_xdg_toplevel(), version: xdgSurface.version, id: id,
            implementation: XdgToplevel.implementation)
    }

    override func resourceDestroyed() { withdraw() }

    /// The window is gone for good (its toplevel, its wl_surface or its client): it leaves the
    /// scene and its column, and the others are re-tiled.
    func withdraw() {
        xdgSurface?.unmap()
        host?.toplevelUnmapped(self)
    }

    func initialCommit() {
        host?.toplevelAppeared(self)
    }

    /// Sends configure(size, states) + xdg_surface.configure.
    func configure(size: (width: Int32, height: Int32), activated: Bool) {
        guard let resource else { return }
        offered = size
        self.activated = activated
        var states = wl_array()
        wl_array_init(&states)
        defer { wl_array_release(&states) }
        var list: [UInt32] = [XDG_TOPLEVEL_STATE_MAXIMIZED.rawValue]  // tiled: no decorations, no resizing
        if activated { list.append(XDG_TOPLEVEL_STATE_ACTIVATED.rawValue) }
        if version >= 2 {
            list += [
                XDG_TOPLEVEL_STATE_TILED_LEFT.rawValue, XDG_TOPLEVEL_STATE_TILED_RIGHT.rawValue,
                XDG_TOPLEVEL_STATE_TILED_TOP.rawValue, XDG_TOPLEVEL_STATE_TILED_BOTTOM.rawValue,
            ]
        }
        for state in list {
            if let slot = wl_array_add(&states, MemoryLayout<UInt32>.size) {
                slot.storeBytes(of: state, as: UInt32.self)
            }
        }
        xdg_toplevel_send_configure(resource, size.width, size.height, &states)
        xdgSurface?.sendConfigure()
    }

    /// Asks the client to close the window (xdg_toplevel.close); it decides.
    func requestClose() {
        guard let resource else { return }
        xdg_toplevel_send_close(resource)
    }

    func map() { host?.toplevelMapped(self) }
    func unmap() { host?.toplevelUnmapped(self) }
    func committedWhileShown() { host?.toplevelCommitted(self) }

    nonisolated(unsafe) static let implementation: UnsafeRawPointer = {
        var impl = cwl_xdg_toplevel_impl()
        impl.destroy = destroyResourceRequest
        impl.set_parent = { _, _, _ in }
        impl.set_title = { _, resource, title in
            guard let self_ = resolve(resource, as: XdgToplevel.self), let title else { return }
            self_.title = String(cString: title)
        }
        impl.set_app_id = { _, resource, appID in
            guard let self_ = resolve(resource, as: XdgToplevel.self), let appID else { return }
            self_.appID = String(cString: appID)
        }
        // Window menus and window-state requests don't apply to tiled windows; the protocol
        // lets the compositor ignore them. A move takes the window out of the tiling and it
        // follows the cursor; a resize only holds the pointer until the button is released.
        impl.show_window_menu = { _, _, _, _, _, _ in }
        impl.move = { _, resource, _, _ in
            guard let self_ = resolve(resource, as: XdgToplevel.self) else { return }
            self_.xdgSurface?.host?.interactiveGrabRequested(self_, moves: true)
        }
        impl.resize = { _, resource, _, _, _ in
            guard let self_ = resolve(resource, as: XdgToplevel.self) else { return }
            self_.xdgSurface?.host?.interactiveGrabRequested(self_, moves: false)
        }
        impl.set_max_size = { _, resource, width, height in
            if width < 0 || height < 0 {
                resolve(resource, as: XdgToplevel.self)?.postError(
                    XDG_TOPLEVEL_ERROR_INVALID_SIZE.rawValue, "negative max size")
            }
        }
        impl.set_min_size = { _, resource, width, height in
            if width < 0 || height < 0 {
                resolve(resource, as: XdgToplevel.self)?.postError(
                    XDG_TOPLEVEL_ERROR_INVALID_SIZE.rawValue, "negative min size")
            }
        }
        impl.set_maximized = { _, _ in }
        impl.unset_maximized = { _, _ in }
        impl.set_fullscreen = { _, _, _ in }
        impl.unset_fullscreen = { _, _ in }
        impl.set_minimized = { _, _ in }
        return makeImplementation(impl)
    }()
}
