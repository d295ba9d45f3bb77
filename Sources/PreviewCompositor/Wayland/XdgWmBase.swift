import CWaylandServer
import WaylandServer

/// xdg_wm_base: makes xdg_surfaces and positioners; ping/pong tells whether a client is alive.
final class XdgWmBase: ResourceObject {
    private(set) var surfaces: [XdgSurfaceReference] = []
    /// Serial of the ping awaiting its pong, if any.
    private(set) var pendingPing: UInt32?
    var onPong: ((XdgWmBase) -> Void)?
    /// A live client that has not answered the last ping yet.
    var awaitsPong: Bool { pendingPing != nil && isAlive }

    struct XdgSurfaceReference { weak var value: XdgSurface? }

    init?(client: Client, version: UInt32, id: UInt32) {
        super.init(
            client: client, interface: cwl_interface_xdg_wm_base(), version: version, id: id,
            implementation: XdgWmBase.implementation)
    }

    func ping(serial: UInt32) {
        guard let resource else { return }
        pendingPing = serial
        xdg_wm_base_send_ping(resource, serial)
    }

    private func destroyRequest() {
        surfaces.removeAll { $0.value == nil }
        if !surfaces.isEmpty {
            postError(XDG_WM_BASE_ERROR_DEFUNCT_SURFACES.rawValue, "xdg_wm_base destroyed before its xdg_surfaces")
            return
        }
        destroyResource()
    }

    nonisolated(unsafe) static let implementation: UnsafeRawPointer = {
        var impl = cwl_xdg_wm_base_impl()
        impl.destroy = { _, resource in resolve(resource, as: XdgWmBase.self)?.destroyRequest() }
        impl.create_positioner = { _, resource, id in
            guard let self_ = resolve(resource, as: XdgWmBase.self) else { return }
            _ = XdgPositioner(client: self_.client, version: self_.version, id: id)
        }
        impl.get_xdg_surface = { _, resource, id, surfaceResource in
            guard let self_ = resolve(resource, as: XdgWmBase.self),
                let surface = resolve(surfaceResource, as: Surface.self)
            else { return }
            if surface.node.isMapped || surface.hasPendingBuffer {
                self_.postError(
                    XDG_WM_BASE_ERROR_INVALID_SURFACE_STATE.rawValue, "wl_surface@\(surface.id) already has a buffer")
                return
            }
            guard surface.assignRole(.xdgSurface, errorResource: self_, errorCode: XDG_WM_BASE_ERROR_ROLE.rawValue)
            else { return }
            if let xdg = XdgSurface(wmBase: self_, surface: surface, id: id) {
                self_.surfaces.append(.init(value: xdg))
            }
        }
        impl.pong = { _, resource, serial in
            guard let self_ = resolve(resource, as: XdgWmBase.self) else { return }
            guard self_.pendingPing == serial else { return }  // stale pongs are harmless
            self_.pendingPing = nil
            self_.onPong?(self_)
        }
        return makeImplementation(impl)
    }()
}

/// xdg_positioner: the rules that place a popup relative to its parent.
final class XdgPositioner: ResourceObject {
    var rules = PopupRules()

    init?(client: Client, version: UInt32, id: UInt32) {
        super.init(
            client: client, interface: cwl_interface_xdg_positioner(), version: version, id: id,
            implementation: XdgPositioner.implementation)
    }

    private func invalidInput(_ message: String) {
        postError(XDG_POSITIONER_ERROR_INVALID_INPUT.rawValue, message)
    }

    nonisolated(unsafe) static let implementation: UnsafeRawPointer = {
        var impl = cwl_xdg_positioner_impl()
        impl.destroy = destroyResourceRequest
        impl.set_size = { _, resource, width, height in
            guard let self_ = resolve(resource, as: XdgPositioner.self) else { return }
            guard width > 0, height > 0 else { return self_.invalidInput("positioner size must be positive") }
            self_.rules.size = (ClientLimits.clampSize(width), ClientLimits.clampSize(height))
        }
        impl.set_anchor_rect = { _, resource, x, y, width, height in
            guard let self_ = resolve(resource, as: XdgPositioner.self) else { return }
            guard width >= 0, height >= 0 else { return self_.invalidInput("anchor rect size must not be negative") }
            self_.rules.anchorRect = Rect(x: x, y: y, width: width, height: height).clampedToClientLimits
        }
        impl.set_anchor = { _, resource, anchor in
            guard let self_ = resolve(resource, as: XdgPositioner.self) else { return }
            guard let edges = PopupRules.Edges(anchor) else { return self_.invalidInput("invalid anchor \(anchor)") }
            self_.rules.anchor = edges
        }
        impl.set_gravity = { _, resource, gravity in
            guard let self_ = resolve(resource, as: XdgPositioner.self) else { return }
            guard let edges = PopupRules.Edges(gravity) else { return self_.invalidInput("invalid gravity \(gravity)") }
            self_.rules.gravity = edges
        }
        impl.set_constraint_adjustment = { _, _, _ in }  // popups are not kept on screen (docs/compositor.md)
        impl.set_offset = { _, resource, x, y in
            resolve(resource, as: XdgPositioner.self)?.rules.offset = (ClientLimits.clamp(x), ClientLimits.clamp(y))
        }
        impl.set_reactive = { _, _ in }
        impl.set_parent_size = { _, _, _, _ in }
        impl.set_parent_configure = { _, _, _ in }
        return makeImplementation(impl)
    }()
}
