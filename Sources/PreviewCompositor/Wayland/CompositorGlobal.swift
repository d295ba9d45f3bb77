import CWaylandServer
import WaylandServer

/// wl_compositor: makes surfaces and regions.
final class CompositorResource: ResourceObject {
    weak var host: SurfaceHost?

    init?(host: SurfaceHost, client: Client, version: UInt32, id: UInt32) {
        self.host = host
        super.init(
            client: client, interface: cwl_interface_wl_compositor(), version: version, id: id,
            implementation: CompositorResource.implementation)
    }

    nonisolated(unsafe) static let implementation: UnsafeRawPointer = {
        var impl = cwl_wl_compositor_impl()
        impl.create_surface = { _, resource, id in
            guard let self_ = resolve(resource, as: CompositorResource.self), let host = self_.host else { return }
            _ = Surface(host: host, client: self_.client, version: self_.version, id: id)
        }
        impl.create_region = { _, resource, id in
            guard let self_ = resolve(resource, as: CompositorResource.self) else { return }
            _ = RegionResource(client: self_.client, version: 1, id: id)
        }
        return makeImplementation(impl)
    }()
}

/// wl_region: a client-built set of rectangles, copied into surfaces on use.
final class RegionResource: ResourceObject {
    var region = Region()

    init?(client: Client, version: UInt32, id: UInt32) {
        super.init(
            client: client, interface: cwl_interface_wl_region(), version: version, id: id,
            implementation: RegionResource.implementation)
    }

    /// Past `ClientLimits.regionRectangles` the client is disconnected: every pointer event
    /// hit-tests the region, so its size is the per-event cost.
    private func append(_ operation: Region.Operation) {
        guard region.operations.count < ClientLimits.regionRectangles else {
            client.postImplementationError("a wl_region of more than \(ClientLimits.regionRectangles) rectangles")
            return
        }
        switch operation {
        case .add(let rect): region.add(rect)
        case .subtract(let rect): region.subtract(rect)
        }
    }

    nonisolated(unsafe) static let implementation: UnsafeRawPointer = {
        var impl = cwl_wl_region_impl()
        impl.destroy = destroyResourceRequest
        impl.add = { _, resource, x, y, width, height in
            resolve(resource, as: RegionResource.self)?.append(.add(Rect(x: x, y: y, width: width, height: height)))
        }
        impl.subtract = { _, resource, x, y, width, height in
            resolve(resource, as: RegionResource.self)?.append(
                .subtract(Rect(x: x, y: y, width: width, height: height)))
        }
        return makeImplementation(impl)
    }()
}

/// wl_callback: no requests; the compositor sends `done` once and destroys it.
final class Callback: ResourceObject {
    init?(client: Client, id: UInt32) {
        super.init(client: client, interface: cwl_interface_wl_callback(), version: 1, id: id, implementation: nil)
    }

    func done(milliseconds: UInt32) {
        guard let resource else { return }
        wl_callback_send_done(resource, milliseconds)
        wl_resource_destroy(resource)
    }
}
