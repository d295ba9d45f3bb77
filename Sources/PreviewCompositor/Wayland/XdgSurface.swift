import CWaylandServer
import WaylandServer

/// xdg_surface: the configure/ack handshake and mapping for toplevels and popups.
final class XdgSurface: ResourceObject {
    weak var wmBase: XdgWmBase?
    weak var surface: Surface?
    /// Kept past the wl_surface, so a window whose surface goes first still leaves the scene.
    let node: SceneSurface
    weak var host: SurfaceHost?
    weak var toplevel: XdgToplevel?
    weak var popup: XdgPopup?
    /// Serials sent and not yet acknowledged (acking one drops it and the older ones).
    private var unackedSerials: [UInt32] = []
    private(set) var configured = false
    /// A configure was ever sent (a buffer may be attached from then on).
    private(set) var configureSent = false
    private var initialCommitDone = false
    private(set) var shown = false
    /// set_window_geometry: the part of the surface that is the window (no shadows).
    var geometry: Rect?
    private var pendingGeometry: Rect?

    init?(wmBase: XdgWmBase, surface: Surface, id: UInt32) {
        self.wmBase = wmBase
        self.surface = surface
        node = surface.node
        host = surface.host
        super.init(
            client: wmBase.client, interface: cwl_interface_xdg_surface(), version: wmBase.version, id: id,
            implementation: XdgSurface.implementation)
        surface.xdgSurface = self
    }

    override func resourceDestroyed() { unmap() }

    /// `toleratesBufferBeforeFirstAck`: a toplevel's or popup's buffer may come before its
    /// first configure (WLCS 1.5.0's expectations); an xdg_surface without a role never.
    var toleratesEarlyBuffer: Bool {
        host?.toleratesBufferBeforeFirstAck == true && (toplevel != nil || popup != nil)
    }

    /// The window geometry, defaulting to the surface's size. As xdg_surface.set_window_geometry
    /// says, the set geometry is clamped to the surface and its subsurfaces (so no client value
    /// reaches placement unbounded).
    var windowGeometry: Rect {
        let size = node.size
        let own = Rect(x: 0, y: 0, width: size.width, height: size.height)
        guard let geometry else { return own }
        let origin = node.outputOrigin
        let extents = host?.scene.extents(of: node).offsetBy(x: -origin.x, y: -origin.y) ?? own
        return geometry.intersection(extents) ?? own
    }

    /// Sends xdg_surface.configure after the role's own configure event.
    func sendConfigure() {
        guard let resource, let host else { return }
        let serial = host.serials.next()
        unackedSerials.append(serial)
        configureSent = true
        xdg_surface_send_configure(resource, serial)
    }

    func surfaceCommitted() {
        guard let surface, toplevel != nil || popup != nil else { return }
        if let pendingGeometry { geometry = pendingGeometry }
        pendingGeometry = nil
        if !initialCommitDone {
            if surface.node.isMapped && !toleratesEarlyBuffer {
                postError(XDG_SURFACE_ERROR_UNCONFIGURED_BUFFER.rawValue, "buffer committed before the first configure")
                return
            }
            initialCommitDone = true
            toplevel?.initialCommit()
            popup?.initialCommit()
            // Tolerated (see the option): the same commit also maps, as if the configure were acked.
            if !surface.node.isMapped { return }
        }
        if surface.node.isMapped && !shown {
            if !configured, toleratesEarlyBuffer, !unackedSerials.isEmpty {
                // Only where asked for (see the option): the configure sent counts as acked.
                configured = true
            }
            guard configured else {
                postError(XDG_SURFACE_ERROR_UNCONFIGURED_BUFFER.rawValue, "buffer committed before acking a configure")
                return
            }
            shown = true
            toplevel?.map()
            popup?.map()
        } else if !surface.node.isMapped && shown {
            unmap()
            // A null buffer resets the surface: the next commit starts over with a configure.
            initialCommitDone = false
            configured = false
        } else if shown {
            popup?.reposition()
            toplevel?.committedWhileShown()
        }
    }

    func unmap() {
        guard shown else { return }
        shown = false
        toplevel?.unmap()
        popup?.unmap()
    }

    nonisolated(unsafe) static let implementation: UnsafeRawPointer = {
        var impl = cwl_xdg_surface_impl()
        impl.destroy = { _, resource in
            guard let self_ = resolve(resource, as: XdgSurface.self) else { return }
            if self_.toplevel?.isAlive == true || self_.popup?.isAlive == true {
                self_.postError(
                    XDG_SURFACE_ERROR_DEFUNCT_ROLE_OBJECT.rawValue, "xdg_surface destroyed before its role object")
                return
            }
            self_.destroyResource()
        }
        impl.get_toplevel = { _, resource, id in
            guard let self_ = resolve(resource, as: XdgSurface.self), let surface = self_.surface else { return }
            guard self_.toplevel == nil && self_.popup == nil else {
                return self_.postError(XDG_SURFACE_ERROR_ALREADY_CONSTRUCTED.rawValue, "xdg_surface already has a role")
            }
            surface.node.role = .toplevel
            self_.toplevel = XdgToplevel.create(xdgSurface: self_, id: id)
        }
        impl.get_popup = { _, resource, id, parentResource, positionerResource in
            guard let self_ = resolve(resource, as: XdgSurface.self), let surface = self_.surface else { return }
            guard self_.toplevel == nil && self_.popup == nil else {
                return self_.postError(XDG_SURFACE_ERROR_ALREADY_CONSTRUCTED.rawValue, "xdg_surface already has a role")
            }
            guard let positioner = resolve(positionerResource, as: XdgPositioner.self), positioner.rules.isComplete
            else {
                return self_.postError(XDG_WM_BASE_ERROR_INVALID_POSITIONER.rawValue, "incomplete xdg_positioner")
            }
            // A null parent is allowed by the protocol for other shells; without one we cannot place it.
            guard let parent = resolve(parentResource, as: XdgSurface.self) else {
                return self_.postError(
                    XDG_WM_BASE_ERROR_INVALID_POPUP_PARENT.rawValue, "popups need an xdg_surface parent")
            }
            surface.node.role = .popup
            self_.popup = XdgPopup.create(xdgSurface: self_, parent: parent, rules: positioner.rules, id: id)
        }
        impl.set_window_geometry = { _, resource, x, y, width, height in
            guard let self_ = resolve(resource, as: XdgSurface.self) else { return }
            guard width > 0, height > 0 else {
                return self_.postError(XDG_SURFACE_ERROR_INVALID_SIZE.rawValue, "window geometry must be positive")
            }
            self_.pendingGeometry = Rect(x: x, y: y, width: width, height: height).clampedToClientLimits
        }
        impl.ack_configure = { _, resource, serial in
            guard let self_ = resolve(resource, as: XdgSurface.self) else { return }
            guard let index = self_.unackedSerials.firstIndex(of: serial) else {
                return self_.postError(XDG_SURFACE_ERROR_INVALID_SERIAL.rawValue, "serial \(serial) was never sent")
            }
            self_.unackedSerials.removeFirst(index + 1)
            self_.configured = true
        }
        return makeImplementation(impl)
    }()
}
