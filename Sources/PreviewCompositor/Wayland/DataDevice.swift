import CWaylandServer
import WaylandServer

/// wl_data_device_manager, accepted and inert: clients such as wev require the global, but
/// this compositor has no clipboard or drag and drop (docs/compositor.md).
final class DataDeviceManagerResource: ResourceObject {
    init?(client: Client, version: UInt32, id: UInt32) {
        super.init(
            client: client, interface: cwl_interface_wl_data_device_manager(), version: version, id: id,
            implementation: DataDeviceManagerResource.implementation)
    }

    nonisolated(unsafe) static let implementation: UnsafeRawPointer = {
        var impl = cwl_wl_data_device_manager_impl()
        impl.create_data_source = { client, resource, id in
            guard let manager = resolve(resource, as: DataDeviceManagerResource.self) else { return }
            _ = InertDataResource(
                client: manager.client, interface: cwl_interface_wl_data_source(), version: manager.version, id: id,
                implementation: InertDataResource.sourceImplementation)
        }
        impl.get_data_device = { client, resource, id, _ in
            guard let manager = resolve(resource, as: DataDeviceManagerResource.self) else { return }
            _ = InertDataResource(
                client: manager.client, interface: cwl_interface_wl_data_device(), version: manager.version, id: id,
                implementation: InertDataResource.deviceImplementation)
        }
        return makeImplementation(impl)
    }()
}

/// A wl_data_source or wl_data_device whose requests are accepted and ignored.
final class InertDataResource: ResourceObject {
    nonisolated(unsafe) static let sourceImplementation: UnsafeRawPointer = {
        var impl = cwl_wl_data_source_impl()
        impl.offer = { _, _, _ in }
        impl.destroy = destroyResourceRequest
        impl.set_actions = { _, _, _ in }
        return makeImplementation(impl)
    }()

    nonisolated(unsafe) static let deviceImplementation: UnsafeRawPointer = {
        var impl = cwl_wl_data_device_impl()
        impl.start_drag = { _, _, _, _, _, _ in }
        impl.set_selection = { _, _, _, _ in }
        impl.release = destroyResourceRequest
        return makeImplementation(impl)
    }()
}
