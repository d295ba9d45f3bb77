import CWaylandServer
import WaylandServer

/// wl_subcompositor: turns a surface into a child of another.
final class SubcompositorResource: ResourceObject {
    init?(client: Client, version: UInt32, id: UInt32) {
        super.init(
            client: client, interface: cwl_interface_wl_subcompositor(), version: version, id: id,
            implementation: SubcompositorResource.implementation)
    }

    nonisolated(unsafe) static let implementation: UnsafeRawPointer = {
        var impl = cwl_wl_subcompositor_impl()
        impl.destroy = destroyResourceRequest
        impl.get_subsurface = { _, resource, id, surfaceResource, parentResource in
            guard let self_ = resolve(resource, as: SubcompositorResource.self),
                let surface = resolve(surfaceResource, as: Surface.self),
                let parent = resolve(parentResource, as: Surface.self)
            else { return }
            let badSurface = WL_SUBCOMPOSITOR_ERROR_BAD_SURFACE.rawValue
            if surface === parent || parent.node.root === surface.node {
                self_.postError(badSurface, "wl_surface@\(surface.id) cannot be its own ancestor")
                return
            }
            if parent.node.depth + 1 + surface.node.subtreeHeight > ClientLimits.subsurfaceDepth {
                self_.client.postImplementationError("subsurfaces nested deeper than \(ClientLimits.subsurfaceDepth)")
                return
            }
            guard surface.assignRole(.subsurface, errorResource: self_, errorCode: badSurface) else { return }
            if surface.subsurface != nil {
                self_.postError(badSurface, "wl_surface@\(surface.id) already is a subsurface")
                return
            }
            _ = Subsurface(surface: surface, parent: parent, client: self_.client, version: self_.version, id: id)
        }
        return makeImplementation(impl)
    }()
}

/// wl_subsurface. Position and stacking are applied on the parent's commit; in sync mode (the
/// default) the surface's own commits are cached until then (`Surface.isEffectivelySynchronized`).
final class Subsurface: ResourceObject {
    weak var surface: Surface?
    weak var parent: Surface?
    /// set_sync/set_desync; a new subsurface is synchronised.
    private(set) var isSync = true
    private var pendingPosition: (x: Int32, y: Int32)?
    private let parentGone: Listener

    init?(surface: Surface, parent: Surface, client: Client, version: UInt32, id: UInt32) {
        self.surface = surface
        self.parent = parent
        var detach: (() -> Void)?
        parentGone = Listener { _ in detach?() }
        super.init(
            client: client, interface: cwl_interface_wl_subsurface(), version: version, id: id,
            implementation: Subsurface.implementation)
        detach = { [unowned self] in self.detach() }
        if let parentResource = parent.resource { parentGone.listen(toDestroyOfResource: parentResource) }
        surface.subsurface = self
        parent.node.addSubsurface(surface.node)
        if surface.node.isMapped, let host = surface.host { host.damage(extentsOf: surface.node) }
    }

    override func resourceDestroyed() { detach() }

    /// The subsurface stops being shown (its object or its parent went away).
    private func detach() {
        parentGone.remove()
        guard let surface, let parent else { return }
        if let host = surface.host, surface.node.isMapped {
            host.damage(extentsOf: surface.node)
            host.scheduleFrame()
        }
        parent.node.removeSubsurface(surface.node)
        self.parent = nil
    }

    func applyPendingPosition() {
        guard let position = pendingPosition, let surface else { return }
        pendingPosition = nil
        surface.node.offset = position
    }

    private func restack(sibling: OpaquePointer?, above: Bool) {
        guard let surface, let parent, let siblingSurface = resolve(sibling, as: Surface.self),
            siblingSurface !== surface, parent.node.stack.contains(where: { $0 === siblingSurface.node })
        else {
            postError(WL_SUBSURFACE_ERROR_BAD_SURFACE.rawValue, "the reference surface is not a sibling or the parent")
            return
        }
        parent.restackOnCommit(surface.node, relativeTo: siblingSurface.node, above: above)
    }

    private func setSync(_ sync: Bool) {
        isSync = sync
        // Leaving sync mode applies what was cached, unless an ancestor still holds it.
        if let surface, !surface.isEffectivelySynchronized { surface.applyCached() }
    }

    nonisolated(unsafe) static let implementation: UnsafeRawPointer = {
        var impl = cwl_wl_subsurface_impl()
        impl.destroy = destroyResourceRequest
        impl.set_position = { _, resource, x, y in
            resolve(resource, as: Subsurface.self)?.pendingPosition = (ClientLimits.clamp(x), ClientLimits.clamp(y))
        }
        impl.place_above = { _, resource, sibling in
            resolve(resource, as: Subsurface.self)?.restack(sibling: sibling, above: true)
        }
        impl.place_below = { _, resource, sibling in
            resolve(resource, as: Subsurface.self)?.restack(sibling: sibling, above: false)
        }
        impl.set_sync = { _, resource in resolve(resource, as: Subsurface.self)?.setSync(true) }
        impl.set_desync = { _, resource in resolve(resource, as: Subsurface.self)?.setSync(false) }
        return makeImplementation(impl)
    }()
}
