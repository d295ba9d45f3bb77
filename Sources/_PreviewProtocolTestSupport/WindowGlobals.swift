import CWaylandServer
import SystemLayer
import WaylandServer

/// Just what a toolkit's window needs beside wl_compositor (wl_shm, xdg_wm_base): buffers are
/// never read, every toplevel is configured at once with the size the client chooses. For
/// toolkit apps (GTK) under the scripted server.
public final class WindowGlobals {
    private var globals: [Global] = []

    public init(display: Display) {
        let add = {
            (interface: UnsafePointer<wl_interface>, version: Int32, bind: @escaping (Client, UInt32, UInt32) -> Void)
            in
            Global(display: display, interface: interface, version: version, onBind: bind)
        }
        globals = [
            add(cwl_interface_wl_shm(), 1) { client, version, id in
                guard let shm = PlainResource(client, cwl_interface_wl_shm(), version, id, shmImplementation) else {
                    return
                }
                wl_shm_send_format(shm.resource, 0)
                wl_shm_send_format(shm.resource, 1)
            },
            add(cwl_interface_xdg_wm_base(), 1) { client, version, id in
                _ = PlainResource(client, cwl_interface_xdg_wm_base(), version, id, wmBaseImplementation)
            },
        ].compactMap { $0 }
    }
}

/// A resource whose requests need no state.
final class PlainResource: ResourceObject {
    init?(
        _ client: Client, _ interface: UnsafePointer<wl_interface>, _ version: UInt32, _ id: UInt32,
        _ implementation: UnsafeRawPointer
    ) {
        super.init(client: client, interface: interface, version: version, id: id, implementation: implementation)
    }
}

private func child(
    _ client: OpaquePointer?, _ resource: OpaquePointer?, _ interface: UnsafePointer<wl_interface>, _ id: UInt32,
    _ implementation: UnsafeRawPointer
) -> OpaquePointer? {
    guard let client, let resource else { return nil }
    return PlainResource(Client(client), interface, UInt32(wl_resource_get_version(resource)), id, implementation)?
        .resource
}

nonisolated(unsafe) private let shmImplementation: UnsafeRawPointer = {
    var implementation = cwl_wl_shm_impl()
    implementation.create_pool = { client, resource, id, fd, _ in
        _ = Descriptor(adopting: fd)  // never read: closed at once
        _ = child(client, resource, cwl_interface_wl_shm_pool(), id, poolImplementation)
    }
    return makeImplementation(implementation)
}()

nonisolated(unsafe) private let poolImplementation: UnsafeRawPointer = {
    var implementation = cwl_wl_shm_pool_impl()
    implementation.create_buffer = { client, resource, id, _, _, _, _, _ in
        _ = child(client, resource, cwl_interface_wl_buffer(), id, bufferImplementation)
    }
    implementation.destroy = destroyResourceRequest
    implementation.resize = { _, _, _ in }
    return makeImplementation(implementation)
}()

nonisolated(unsafe) private let bufferImplementation: UnsafeRawPointer = {
    var implementation = cwl_wl_buffer_impl()
    implementation.destroy = destroyResourceRequest
    return makeImplementation(implementation)
}()

nonisolated(unsafe) private let wmBaseImplementation: UnsafeRawPointer = {
    var implementation = cwl_xdg_wm_base_impl()
    implementation.destroy = destroyResourceRequest
    implementation.create_positioner = { client, _, _ in
        if let client { cwl_client_post_implementation_error(client, "no positioners here") }
    }
    implementation.get_xdg_surface = { client, resource, id, _ in
        _ = child(client, resource, cwl_interface_xdg_surface(), id, xdgSurfaceImplementation)
    }
    implementation.pong = { _, _, _ in }
    return makeImplementation(implementation)
}()

nonisolated(unsafe) private let xdgSurfaceImplementation: UnsafeRawPointer = {
    var implementation = cwl_xdg_surface_impl()
    implementation.destroy = destroyResourceRequest
    implementation.get_toplevel = { client, resource, id in
        guard let resource,
            let toplevel = child(client, resource, cwl_interface_xdg_toplevel(), id, toplevelImplementation)
        else { return }
        var states = wl_array()
        wl_array_init(&states)
        xdg_toplevel_send_configure(toplevel, 0, 0, &states)
        wl_array_release(&states)
        xdg_surface_send_configure(resource, 1)
    }
    implementation.get_popup = { client, _, _, _, _ in
        if let client { cwl_client_post_implementation_error(client, "no popups here") }
    }
    implementation.set_window_geometry = { _, _, _, _, _, _ in }
    implementation.ack_configure = { _, _, _ in }
    return makeImplementation(implementation)
}()

nonisolated(unsafe) private let toplevelImplementation: UnsafeRawPointer = {
    var implementation = cwl_xdg_toplevel_impl()
    implementation.destroy = destroyResourceRequest
    implementation.set_parent = { _, _, _ in }
    implementation.set_title = { _, _, _ in }
    implementation.set_app_id = { _, _, _ in }
    implementation.show_window_menu = { _, _, _, _, _, _ in }
    implementation.move = { _, _, _, _ in }
    implementation.resize = { _, _, _, _, _ in }
    implementation.set_max_size = { _, _, _, _ in }
    implementation.set_min_size = { _, _, _, _ in }
    implementation.set_maximized = { _, _ in }
    implementation.unset_maximized = { _, _ in }
    implementation.set_fullscreen = { _, _, _ in }
    implementation.unset_fullscreen = { _, _ in }
    implementation.set_minimized = { _, _ in }
    return makeImplementation(implementation)
}()
