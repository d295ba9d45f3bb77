import CWaylandServer
import PreviewEngine
import PreviewLog
import WaylandServer

/// spi_preview_interaction_manager_v1: one per bind; creates the per-surface objects.
final class ManagerResource: ResourceObject {
    private let owner: Backlink<PreviewInteractionServer>
    private var server: PreviewInteractionServer? { owner.target }

    init?(client: Client, version: UInt32, id: UInt32, server: PreviewInteractionServer) {
        owner = server.backlink
        super.init(
            client: client, interface: cwl_interface_spi_preview_interaction_manager_v1(), version: version, id: id,
            implementation: managerImplementation)
    }

    override func resourceDestroyed() { server?.managerDestroyed(self) }

    func send(_ settings: PreviewSettings) {
        guard let resource else { return }
        settings.send(to: resource)
    }

    fileprivate func getInteraction(id: UInt32, surfaceResource: OpaquePointer) {
        guard let server else { return }
        guard let surface = server.host?.surfaceID(forSurfaceResource: surfaceResource) else {
            // Only possible if the host forgot a surface it created: its bug, not the client's.
            server.logger.error("get_interaction: the host does not know this wl_surface")
            client.postImplementationError("get_interaction: the compositor does not know this wl_surface")
            return
        }
        if server.interactionObject(for: surface) != nil {
            server.logger.notice("protocol error for \(client): get_interaction on a surface that has an object")
            postError(
                SPI_PREVIEW_INTERACTION_MANAGER_V1_ERROR_INTERACTION_EXISTS.rawValue,
                "get_interaction: wl_surface@\(wl_resource_get_id(surfaceResource)) already has a preview interaction object"
            )
            return
        }
        guard
            let object = InteractionResource(
                client: client, version: version, id: id, surface: surface, surfaceResource: surfaceResource,
                server: server)
        else { return }
        server.register(object)
    }
}

nonisolated(unsafe) private let managerImplementation = makeImplementation(
    cwl_spi_preview_interaction_manager_v1_impl(
        destroy: destroyResourceRequest,
        get_interaction: { _, resource, id, surface in
            guard let resource, let surface else { return }
            ResourceObject.owner(of: resource, as: ManagerResource.self)?.getInteraction(
                id: id, surfaceResource: surface)
        }))
