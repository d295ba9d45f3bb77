import CWaylandServer
import PreviewEngine
import PreviewProtocolServer
import WaylandServer

/// The smallest wl_compositor that lets the protocol be tested without the real
/// compositor: surfaces (numbered as SurfaceIDs, commit forwarded) and regions. No
/// buffers are ever read.
public final class MiniCompositor {
    private var global: Global?
    var nextSurface: UInt64 = 1
    /// Called on every wl_surface.commit.
    public var onCommit: (SurfaceID) -> Void = { _ in }
    /// Called when a wl_surface is destroyed.
    public var onSurfaceDestroyed: (SurfaceID) -> Void = { _ in }
    public private(set) var liveSurfaces = 0
    /// The display's clock (frame callbacks' time).
    let clock: MonotonicClock

    public init(display: Display) throws {
        clock = display.clock
        global = Global(display: display, interface: cwl_interface_wl_compositor(), version: 4) {
            [weak self] client, version, id in
            guard let self else { return }
            _ = CompositorResource(client: client, version: version, id: id, compositor: self)
        }
        guard global != nil else { throw WaylandServerError("cannot create the wl_compositor global") }
    }

    func surfaceCreated() { liveSurfaces += 1 }
    func surfaceDestroyed(_ surface: SurfaceID) {
        liveSurfaces -= 1
        onSurfaceDestroyed(surface)
    }

    /// The SurfaceID of a wl_surface resource made by this compositor.
    public func surfaceID(of resource: OpaquePointer) -> SurfaceID? {
        ResourceObject.owner(of: resource, as: SurfaceResource.self)?.surface
    }

    public func region(of resource: OpaquePointer) -> PreviewRegion? {
        ResourceObject.owner(of: resource, as: RegionResource.self)?.region
    }
}

/// wl_compositor.
final class CompositorResource: ResourceObject {
    weak var compositor: MiniCompositor?

    init?(client: Client, version: UInt32, id: UInt32, compositor: MiniCompositor) {
        self.compositor = compositor
        super.init(
            client: client, interface: cwl_interface_wl_compositor(), version: version, id: id,
            implementation: compositorImplementation)
    }
}

nonisolated(unsafe) private let compositorImplementation: UnsafeRawPointer = {
    var implementation = cwl_wl_compositor_impl()
    implementation.create_surface = { client, resource, id in
        guard let client, let resource,
            let compositor = ResourceObject.owner(of: resource, as: CompositorResource.self)?.compositor
        else { return }
        let surface = SurfaceID(compositor.nextSurface)
        compositor.nextSurface += 1
        if SurfaceResource(
            client: Client(client), version: wl_resource_get_version(resource).magnitude, id: id, surface: surface,
            compositor: compositor) != nil
        {
            compositor.surfaceCreated()
        }
    }
    implementation.create_region = { client, resource, id in
        guard let client, let resource else { return }
        _ = RegionResource(client: Client(client), version: wl_resource_get_version(resource).magnitude, id: id)
    }
    return makeImplementation(implementation)
}()
