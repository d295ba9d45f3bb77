import CWaylandServer
import PreviewEngine
import PreviewProtocolServer
import WaylandServer

/// wl_region: the add/subtract sequence, as PreviewRegion needs it.
final class RegionResource: ResourceObject {
    var region = PreviewRegion(operations: [])

    init?(client: Client, version: UInt32, id: UInt32) {
        super.init(
            client: client, interface: cwl_interface_wl_region(), version: version, id: id,
            implementation: regionImplementation)
    }

    func append(_ operation: PreviewRegion.Operation) {
        region.operations = (region.operations ?? []) + [operation]
    }
}

nonisolated(unsafe) private let regionImplementation: UnsafeRawPointer = {
    var implementation = cwl_wl_region_impl()
    implementation.destroy = destroyResourceRequest
    implementation.add = { _, resource, x, y, width, height in
        guard let resource else { return }
        ResourceObject.owner(of: resource, as: RegionResource.self)?.append(
            .add(.init(x: x, y: y, width: width, height: height)))
    }
    implementation.subtract = { _, resource, x, y, width, height in
        guard let resource else { return }
        ResourceObject.owner(of: resource, as: RegionResource.self)?.append(
            .subtract(.init(x: x, y: y, width: width, height: height)))
    }
    return makeImplementation(implementation)
}()
