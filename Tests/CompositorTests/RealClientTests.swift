import Foundation
import PreviewCompositor
import Testing

/// Real third-party clients against the in-process compositor.
@Suite(.serialized) struct RealClientTests {
    @Test func waylandInfoListsEveryGlobal() throws {
        let compositor = try startCompositor()
        defer { compositor.stop() }
        let run = try runClient(["wayland-info"], socket: compositor.socketName)
        #expect(run.status == 0 && !run.timedOut, "\(run.output)")
        for interface in [
            "wl_compositor", "wl_subcompositor", "wl_shm", "wl_output", "xdg_wm_base", "wl_seat",
            "spi_preview_interaction_manager_v1",
        ] {
            #expect(run.output.contains("interface: '\(interface)'"), "wayland-info does not list \(interface)")
        }
        #expect(run.output.contains("AR24") && run.output.contains("XR24"), "ARGB8888 and XRGB8888")
        // The tablet seat with its virtual tablet and pen, as wayland-info describes them.
        #expect(run.output.contains("interface: 'zwp_tablet_manager_v2'"))
        #expect(run.output.contains("tablet_seat: seat0"), "\(run.output)")
        #expect(run.output.contains("tablet_tool: pen") && run.output.contains("capabilities: tilt pressure distance"))
        #expect(run.output.contains("1280") && run.output.contains("800"), "the output's mode")
    }

    @Test func westonSimpleShmFramesShowInAScreenshot() throws {
        let compositor = try startCompositor()
        defer { compositor.stop() }
        let client = try startClient(["weston-simple-shm"], socket: compositor.socketName)
        // Wait for the client's window to be mapped and to have drawn several frames.
        _ = compositor.wait(timeout: 20) { $0.framesPainted >= 10 && $0.windows.count == 1 }
        let frames = compositor.sync { $0.framesPainted }
        let windows = compositor.sync { $0.windows }
        #expect(windows.count == 1, "weston-simple-shm maps one toplevel")
        #expect(frames >= 10, "the client keeps committing frames (paced by frame callbacks)")
        let path = TestRuntime.directory + "/simple-shm.png"
        let result = compositor.sync { compositor -> String? in
            do { try compositor.writeScreenshot(to: path) } catch { return "\(error)" }
            return nil
        }
        #expect(result == nil)
        let window = try #require(windows.first)
        // weston-simple-shm paints a moving pattern, not the background: the window's centre differs.
        let centre = compositor.sync {
            $0.framebuffer.pixel(x: window.rect.x + window.rect.width / 2, y: window.rect.y + window.rect.height / 2)
        }
        #expect(centre != Framebuffer.background)
        let run = client.terminate()
        #expect(!run.output.contains("error"), "\(run.output)")
        // For people: keep the picture.
        try? FileManager.default.copyItem(atPath: path, toPath: "/tmp/compositor-simple-shm.png")
    }
}
