import CWaylandServer
import PreviewEngine
import WaylandServer

/// wl_surface: only commit and destruction matter to the tests; frame callbacks are
/// answered at the next commit and buffers released at once, so ordinary clients do not hang.
final class SurfaceResource: ResourceObject {
    let surface: SurfaceID
    weak var compositor: MiniCompositor?
    var frameCallbacks: [OpaquePointer] = []

    init?(client: Client, version: UInt32, id: UInt32, surface: SurfaceID, compositor: MiniCompositor) {
        self.surface = surface
        self.compositor = compositor
        super.init(
            client: client, interface: cwl_interface_wl_surface(), version: version, id: id,
            implementation: surfaceImplementation)
    }

    override func resourceDestroyed() {
        for callback in frameCallbacks { wl_resource_destroy(callback) }
        frameCallbacks.removeAll()
        compositor?.surfaceDestroyed(surface)
    }

    func commit() {
        for callback in frameCallbacks {
            wl_callback_send_done(callback, compositor?.clock.eventTime() ?? 0)
            wl_resource_destroy(callback)
        }
        frameCallbacks.removeAll()
        compositor?.onCommit(surface)
    }
}

nonisolated(unsafe) private let surfaceImplementation: UnsafeRawPointer = {
    var implementation = cwl_wl_surface_impl()
    implementation.destroy = destroyResourceRequest
    // Buffers are never read: each is released as soon as it is attached, as a compositor that
    // copies would release it at once (EGL's software path waits for a free buffer otherwise).
    implementation.attach = { _, _, buffer, _, _ in
        if let buffer { wl_buffer_send_release(buffer) }
    }
    implementation.damage = { _, _, _, _, _, _ in }
    implementation.damage_buffer = { _, _, _, _, _, _ in }
    implementation.set_opaque_region = { _, _, _ in }
    implementation.set_input_region = { _, _, _ in }
    implementation.set_buffer_transform = { _, _, _ in }
    implementation.set_buffer_scale = { _, _, _ in }
    implementation.frame = { client, resource, id in
        guard let client, let resource, let surface = ResourceObject.owner(of: resource, as: SurfaceResource.self),
            let callback = wl_resource_create(client, cwl_interface_wl_callback(), 1, id)
        else { return }
        // The callback is destroyed by us (at commit or with the surface), never by the client.
        wl_resource_set_implementation(callback, nil, nil, nil)
        surface.frameCallbacks.append(callback)
    }
    implementation.commit = { _, resource in
        guard let resource else { return }
        ResourceObject.owner(of: resource, as: SurfaceResource.self)?.commit()
    }
    return makeImplementation(implementation)
}()
