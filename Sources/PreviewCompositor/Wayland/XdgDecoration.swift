import CWaylandServer
import WaylandServer

/// zxdg_decoration_manager_v1: our windows are tiled and drawn without decorations, so every
/// toplevel is told "server side" (as tiling compositors do): clients draw no title bar, and a
/// nested preview-compositor uses this instead of libdecor.
final class DecorationManagerResource: ResourceObject {
    init?(client: Client, version: UInt32, id: UInt32) {
        super.init(
            client: client, interface: cwl_interface_zxdg_decoration_manager_v1(), version: version, id: id,
            implementation: DecorationManagerResource.implementation)
    }

    nonisolated(unsafe) static let implementation: UnsafeRawPointer = {
        var impl = cwl_zxdg_decoration_manager_v1_impl()
        impl.destroy = destroyResourceRequest
        impl.get_toplevel_decoration = { _, resource, id, toplevelResource in
            guard let self_ = resolve(resource, as: DecorationManagerResource.self),
                let toplevel = resolve(toplevelResource, as: XdgToplevel.self)
            else { return }
            if toplevel.decoration?.isAlive == true {
                toplevel.postError(
                    ZXDG_TOPLEVEL_DECORATION_V1_ERROR_ALREADY_CONSTRUCTED.rawValue,
                    "the xdg_toplevel already has a decoration")
                return
            }
            toplevel.decoration = ToplevelDecorationResource.create(
                toplevel: toplevel, client: self_.client, version: self_.version, id: id)
        }
        return makeImplementation(impl)
    }()
}

/// zxdg_toplevel_decoration_v1: whatever mode the client asks for, server side.
final class ToplevelDecorationResource: ResourceObject {
    private weak var toplevel: XdgToplevel?

    /// Makes the decoration object of `toplevel`: its new wl_resource owns it (Ownership.swift),
    /// the caller keeps a weak reference.
    static func create(toplevel: XdgToplevel, client: Client, version: UInt32, id: UInt32)
        -> ToplevelDecorationResource?
    {
        ToplevelDecorationResource(toplevel: toplevel, client: client, version: version, id: id)
    }

    private init?(toplevel: XdgToplevel, client: Client, version: UInt32, id: UInt32) {
        self.toplevel = toplevel
        super.init(
            client: client, interface: cwl_interface_zxdg_toplevel_decoration_v1(), version: version, id: id,
            implementation: ToplevelDecorationResource.implementation)
        configure()
    }

    /// The mode, then (if the window was configured already) an xdg_surface.configure, which
    /// the protocol says follows it.
    private func configure() {
        guard let resource else { return }
        zxdg_toplevel_decoration_v1_send_configure(resource, ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue)
        if let xdg = toplevel?.xdgSurface, xdg.configured { xdg.sendConfigure() }
    }

    nonisolated(unsafe) static let implementation: UnsafeRawPointer = {
        var impl = cwl_zxdg_toplevel_decoration_v1_impl()
        impl.destroy = destroyResourceRequest
        impl.set_mode = { _, resource, _ in resolve(resource, as: ToplevelDecorationResource.self)?.configure() }
        impl.unset_mode = { _, resource in resolve(resource, as: ToplevelDecorationResource.self)?.configure() }
        return makeImplementation(impl)
    }()
}
