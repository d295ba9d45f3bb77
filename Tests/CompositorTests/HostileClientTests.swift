import CWaylandClient
import Testing

@testable import PreviewCompositor

/// Requests with numbers a client chooses: each one must end in a protocol error for that
/// client or be served, never trap. A well-behaved client beside it keeps working.
@Suite("Hostile clients: extreme numbers")
struct HostileNumberTests {
    static let extremes: [Int32] = [.min, .min + 1, -65_537, -1, 0, 1, 65_537, .max - 100, .max]

    /// Runs `attack` on a fresh client, then checks the compositor still serves a bystander.
    func survives(_ label: String, _ attack: (RawClient) -> Void) throws {
        let host = try LocalCompositor()
        let bystander = try host.connect()
        _ = bystander.window()
        let attacker = try host.connect()
        attack(attacker)
        attacker.roundtrip()
        host.compositor.dispatch()
        _ = bystander.window(size: (80, 60))
        #expect(bystander.roundtrip(), "\(label): the bystander lost its connection")
        #expect(host.compositor.windows.count >= 2, "\(label): the bystander's windows are gone")
        // Paint everything: placements with extreme positions must draw (clipped), not trap.
        host.compositor.framebuffer.addDamage(host.compositor.framebuffer.bounds)
        host.compositor.framebuffer.repaint(host.compositor.scene.placements())
    }

    @Test("set_window_geometry with x or y at INT32_MIN (and every other extreme), then a commit")
    func windowGeometry() throws {
        for x in Self.extremes {
            for size in [Int32(1), 100, .max] {
                try survives("geometry \(x) \(size)") { client in
                    _ = client.window { xdg_surface_set_window_geometry($0.xdgSurface, x, x, size, size) }
                    let window = client.window(size: (100, 100))
                    xdg_surface_set_window_geometry(window.xdgSurface, x, ~x, size, size)
                    wl_surface_commit(window.surface)
                }
            }
        }
    }

    @Test("set_buffer_scale(INT32_MAX) is the protocol error invalid_scale; 1 to 16 are served")
    func bufferScale() throws {
        let host = try LocalCompositor()
        let client = try host.connect()
        let window = client.window()
        wl_surface_set_buffer_scale(window.surface, 16)
        let buffer = client.buffer(width: 160, height: 160)
        wl_surface_attach(window.surface, buffer, 0, 0)
        wl_surface_damage(window.surface, 0, 0, .max, .max)
        wl_surface_damage_buffer(window.surface, .min, .min, .max, .max)
        wl_surface_commit(window.surface)
        #expect(client.roundtrip())

        try survives("scale max") { client in
            let window = client.window()
            wl_surface_set_buffer_scale(window.surface, .max)
            wl_surface_attach(window.surface, client.buffer(width: 100, height: 100), 0, 0)
            wl_surface_damage(window.surface, 0, 0, 100, 100)
            wl_surface_commit(window.surface)
            client.roundtrip()
            #expect(client.protocolError?.interface == "wl_surface")
            #expect(client.protocolError?.code == WL_SURFACE_ERROR_INVALID_SCALE.rawValue)
        }
        for scale in [Int32.min, -1, 0, 17] {
            try survives("scale \(scale)") { client in
                wl_surface_set_buffer_scale(client.surface(), scale)
                client.roundtrip()
                #expect(client.protocolError?.code == WL_SURFACE_ERROR_INVALID_SCALE.rawValue, "scale \(scale)")
            }
        }
    }

    @Test("A subsurface at set_position(INT32_MAX-100, 0) (and every extreme), then damage_buffer")
    func subsurfacePosition() throws {
        for x in Self.extremes {
            try survives("subsurface \(x)") { client in
                let window = client.window()
                let child = client.surface()
                let sub = wl_subcompositor_get_subsurface(client.subcompositor, child, window.surface)!
                wl_subsurface_set_position(sub, x, ~x)
                wl_surface_attach(child, client.buffer(width: 20, height: 20), 0, 0)
                wl_surface_damage_buffer(child, .min, .min, .max, .max)
                wl_surface_damage(child, x, x, .max, .max)
                wl_surface_commit(child)
                wl_surface_commit(window.surface)
                client.roundtrip()
                wl_surface_damage_buffer(child, 0, 0, 20, 20)
                wl_surface_commit(child)
                xdg_surface_set_window_geometry(window.xdgSurface, .min, .min, .max, .max)
                wl_surface_commit(window.surface)
                #expect(client.roundtrip(), "subsurface \(x)")
            }
        }
    }

    @Test("An xdg_positioner anchor rectangle, size and offset at the extremes, every anchor and gravity")
    func positionerExtremes() throws {
        for value in [Int32.min, .max - 100, .max] {
            for (anchor, gravity) in [(UInt32(4), UInt32(4)), (3, 3), (8, 5), (5, 8), (0, 0)] {
                try survives("positioner \(value) \(anchor) \(gravity)") { client in
                    let parent = client.window()
                    _ = client.popup(parent: parent.xdgSurface) { positioner in
                        xdg_positioner_set_anchor_rect(positioner, value, value, .max, .max)
                        xdg_positioner_set_anchor(positioner, anchor)
                        xdg_positioner_set_gravity(positioner, gravity)
                        xdg_positioner_set_offset(positioner, value, value)
                    }
                    #expect(client.roundtrip())
                }
            }
        }
    }

    @Test("PopupRules saturate: INT32_MAX anchored right, INT32_MIN anchored and growing left")
    func popupRulesSaturate() {
        var rules = PopupRules()
        rules.size = (.max, .max)
        rules.anchorRect = Rect(x: .max, y: .max, width: .max, height: .max)
        rules.anchor = .init(horizontal: 1, vertical: 1)
        rules.offset = (.max, .max)
        #expect(rules.placement.x == .max)
        rules.anchorRect = Rect(x: .min, y: .min, width: 0, height: 0)
        rules.anchor = .init(horizontal: -1, vertical: -1)
        rules.gravity = .init(horizontal: -1, vertical: -1)
        rules.offset = (.min, .min)
        #expect(rules.placement.x == .min)
    }

    @Test("Regions, transforms, min/max sizes and damage with every extreme")
    func otherNumbers() throws {
        for value in Self.extremes {
            try survives("numbers \(value)") { client in
                let window = client.window()
                let region = wl_compositor_create_region(client.compositor)!
                wl_region_add(region, value, value, .max, .max)
                wl_region_subtract(region, value, ~value, value, value)
                wl_surface_set_input_region(window.surface, region)
                wl_surface_set_opaque_region(window.surface, region)
                wl_surface_damage(window.surface, value, value, value, value)
                wl_surface_damage_buffer(window.surface, value, value, value, value)
                xdg_toplevel_set_min_size(window.toplevel, max(0, value), max(0, value))
                xdg_toplevel_set_max_size(window.toplevel, max(0, value), max(0, value))
                wl_surface_commit(window.surface)
                #expect(client.roundtrip(), "numbers \(value)")
            }
        }
        try survives("transform") { client in
            wl_surface_set_buffer_transform(client.surface(), -1)
            client.roundtrip()
            #expect(client.protocolError?.code == WL_SURFACE_ERROR_INVALID_TRANSFORM.rawValue)
        }
    }

    /// The surface keeps the buffer's size; only the part the output shows is held.
    @Test(
        "Buffers far larger than the output (1280x8317 as GTK 3 commits for a long label, 16384x16384) are served",
        arguments: [(Int32(1280), Int32(8317)), (16384, 16384)])
    func bufferLargerThanTheOutput(size: (width: Int32, height: Int32)) throws {
        let host = try LocalCompositor()
        let client = try host.connect()
        let window = client.window(size: size)
        #expect(client.roundtrip(), "the client was disconnected")
        let node = try #require(host.compositor.scene.toplevels.first)
        #expect(node.size == (size.width, size.height))
        let output = host.compositor.scene.output
        let held = try #require(node.texture?.held)
        #expect(held.width <= output.width && held.height <= output.height, "held \(held) of \(output)")
        host.compositor.framebuffer.addDamage(host.compositor.framebuffer.bounds)
        host.compositor.framebuffer.repaint(host.compositor.scene.placements())
        // RawClient paints buffers up to 64 MiB; the bottom row of the output shows the buffer.
        if Int(size.width) * Int(size.height) * 4 <= 64 << 20 {
            let x = node.outputOrigin.x + 1
            #expect(host.compositor.framebuffer.pixel(x: x, y: output.height - 1) == 0xff33_6699)
        }
        // Later commits with damage anywhere in the buffer copy only what is held.
        wl_surface_damage_buffer(window.surface, 0, 0, size.width, size.height)
        wl_surface_commit(window.surface)
        #expect(client.roundtrip())
    }

    @Test("A wl_region of 1,000,000 rectangles stops at the documented limit: the client is disconnected")
    func regionFlood() throws {
        try survives("region flood") { client in
            let window = client.window()
            let region = wl_compositor_create_region(client.compositor)!
            for index in 0..<1_000_000 {
                wl_region_add(region, Int32(index % 1000), Int32(index / 1000), 1, 1)
                // The server reads about 4 KiB a turn: keep the socket from filling.
                if index % 100 == 99 { client.connection.sendWithoutReading() }
                if index % 10_000 == 9_999, !client.roundtrip() { break }
            }
            wl_surface_set_input_region(window.surface, region)
            wl_surface_commit(window.surface)
            client.roundtrip()
            // Dropped after its error: it may have been writing too fast to read the error event.
            #expect(!client.alive)
        }
    }

    @Test("Subsurfaces nested deeper than the limit are refused, not recursed into")
    func subsurfaceDepth() throws {
        try survives("deep subsurfaces") { client in
            let window = client.window()
            var parent = window.surface
            for _ in 0..<200 {
                let child = client.surface()
                _ = wl_subcompositor_get_subsurface(client.subcompositor, child, parent)
                wl_surface_attach(child, client.buffer(width: 4, height: 4), 0, 0)
                wl_surface_commit(child)
                parent = child
            }
            wl_surface_commit(window.surface)
            client.roundtrip()
            #expect(client.protocolError?.interface == "wl_display")
        }
    }
}
