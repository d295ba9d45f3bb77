import CWaylandClient
import PreviewEngine
import Testing

@testable import PreviewCompositor

/// Destroy orders and disconnects: what a client leaves behind must go, and the windows that
/// remain take the space.
@Suite("Hostile clients: lifetimes")
struct HostileLifetimeTests {
    @Test("A destroyed wl_surface frees its scene node, pixels and input region (no reference cycle)")
    func surfacesAreFreed() throws {
        let host = try LocalCompositor()
        let client = try host.connect()
        weak var node: SceneSurface?
        weak var texture: SurfaceTexture?
        for round in 0..<3 {
            let window = client.window(size: (64, 64))
            let region = wl_compositor_create_region(client.compositor)!
            wl_region_add(region, 0, 0, 10, 10)
            wl_surface_set_input_region(window.surface, region)
            let child = client.surface()
            let sub = wl_subcompositor_get_subsurface(client.subcompositor, child, window.surface)!
            wl_surface_attach(child, client.buffer(width: 8, height: 8), 0, 0)
            wl_surface_commit(child)
            wl_surface_commit(window.surface)
            client.roundtrip()
            let id = try #require(host.compositor.windows.last?.surface)
            node = host.compositor.surfaces[id]?.node
            texture = node?.texture
            #expect(node?.inputRegion != nil)
            #expect(node != nil && texture != nil, "round \(round)")
            wl_subsurface_destroy(sub)
            wl_surface_destroy(child)
            xdg_toplevel_destroy(window.toplevel)
            xdg_surface_destroy(window.xdgSurface)
            wl_surface_destroy(window.surface)
            wl_region_destroy(region)
            client.roundtrip()
            #expect(node == nil, "round \(round): the scene node of a destroyed wl_surface is still alive")
            #expect(texture == nil, "round \(round): its pixels are still alive")
        }
        #expect(host.compositor.surfaces.isEmpty)
    }

    @Test("A scene node nobody holds is freed, subsurfaces and all (it does not hold itself)")
    func nodesAreNotSelfReferencing() {
        weak var parent: SceneSurface?
        weak var child: SceneSurface?
        do {
            let strongParent = SceneSurface(id: SurfaceID(1), client: ClientID(1))
            let strongChild = SceneSurface(id: SurfaceID(2), client: ClientID(1))
            strongParent.addSubsurface(strongChild)
            strongParent.restack(strongChild, relativeTo: strongParent, above: false)
            #expect(strongParent.stack.map(\.id) == [SurfaceID(2), SurfaceID(1)])
            parent = strongParent
            child = strongChild
        }
        #expect(parent == nil)
        #expect(child == nil)
    }

    @Test("A wl_surface destroyed before its subsurface and its toplevel: unmapped at once, freed with them")
    func parentFirst() throws {
        let host = try LocalCompositor()
        let client = try host.connect()
        let window = client.window()
        client.subsurface(of: window.surface, size: (8, 8))
        weak let parentNode = host.compositor.surfaces.all.first { $0.node.role == .toplevel }?.node
        wl_surface_destroy(window.surface)
        client.roundtrip()
        #expect(host.compositor.windows.isEmpty)
        xdg_toplevel_destroy(window.toplevel)
        xdg_surface_destroy(window.xdgSurface)
        #expect(client.roundtrip())
        #expect(parentNode == nil)
    }

    @Test("The remaining windows are re-tiled when a wl_surface is destroyed before its toplevel")
    func retileOnSurfaceDestroyed() throws {
        let host = try LocalCompositor()
        let left = try host.connect()
        let right = try host.connect()
        let leaving = left.window()
        let staying = right.window()
        right.roundtrip()
        #expect(host.windowRects.count == 2)
        #expect(right.offeredSize(staying.toplevel) == .init(width: 640, height: 800))
        wl_surface_destroy(leaving.surface)
        left.roundtrip()
        right.roundtrip()
        #expect(host.compositor.windows.count == 1)
        #expect(right.offeredSize(staying.toplevel) == .init(width: 1280, height: 800))
    }

    @Test("The remaining windows are re-tiled when a client disconnects (with a toplevel never mapped, too)")
    func retileOnDisconnect() throws {
        let host = try LocalCompositor()
        var leaving: RawClient? = try host.connect()
        let staying = try host.connect()
        _ = leaving!.window()
        _ = leaving!.window(size: nil)  // configured, never mapped: it still had a column
        let window = staying.window()
        #expect(staying.offeredSize(window.toplevel)?.width == 426)
        leaving = nil
        // The survivor is offered the whole output, acks it and fills it.
        #expect(
            host.dispatch(until: {
                staying.roundtrip()
                return staying.offeredSize(window.toplevel) == .init(width: 1280, height: 800)
            }))
        staying.ackConfigure(window.xdgSurface)
        wl_surface_attach(window.surface, staying.buffer(width: 1280, height: 800), 0, 0)
        wl_surface_commit(window.surface)
        staying.roundtrip()
        #expect(host.windowRects == [Rect(x: 0, y: 0, width: 1280, height: 800)])
        #expect(
            host.compositor.scene.surface(at: Point(x: 100, y: 100))?.surface.client
                == host.compositor.windows[0].client)
    }

    @Test("Destroying an unmapped toplevel gives its column back")
    func unmappedToplevelDestroyed() throws {
        let host = try LocalCompositor()
        let client = try host.connect()
        let staying = client.window()
        let pending = client.window(size: nil)
        #expect(client.offeredSize(staying.toplevel)?.width == 640)
        xdg_toplevel_destroy(pending.toplevel)
        client.roundtrip()
        #expect(client.offeredSize(staying.toplevel)?.width == 1280)
    }
}

@Suite("Hostile clients: never reading")
struct HostileStallTests {
    @Test("A client that stops reading is disconnected after the grace: its window leaves and takes no input")
    func neverReadingClient() throws {
        let host = try LocalCompositor { $0.stalledClientMilliseconds = 100 }
        let bystander = try host.connect()
        let stuck = try host.connect()
        let mine = bystander.window()
        _ = stuck.window()
        let theirs = try #require(host.compositor.windows.last)
        #expect(host.compositor.windows.count == 2)
        // Fill its socket with answers it never reads (2 events per sync), then go quiet.
        var sent = 0
        while host.compositor.display.cloggedClients().isEmpty && sent < 1_000_000 {
            stuck.requestAnswersWithoutReading(100)
            sent += 100
        }
        #expect(host.compositor.display.cloggedClients().count == 1, "after \(sent) syncs")
        #expect(host.dispatch(until: { host.compositor.windows.count == 1 }), "the stalled client's window stayed")
        let centre = Point(x: Double(theirs.rect.x + theirs.rect.width / 2), y: Double(theirs.rect.y + 10))
        #expect(host.compositor.scene.surface(at: centre)?.surface.client != theirs.client)
        #expect(bystander.roundtrip())
        #expect(bystander.offeredSize(mine.toplevel) == .init(width: 1280, height: 800))
    }

    @Test("A client that falls behind and reads again within the grace keeps its connection")
    func slowReaderSurvives() throws {
        let host = try LocalCompositor { $0.stalledClientMilliseconds = 10_000 }
        let slow = try host.connect()
        _ = slow.window()
        var sent = 0
        while host.compositor.display.cloggedClients().isEmpty && sent < 1_000_000 {
            slow.requestAnswersWithoutReading(100)
            sent += 100
        }
        host.compositor.dispatch(timeoutMilliseconds: 50)
        #expect(slow.roundtrip())
        #expect(host.compositor.windows.count == 1)
    }
}
