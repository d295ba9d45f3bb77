import Foundation
import PreviewCompositor
import Testing
import _FixtureTestSupport

/// `listen = false` with a run command: no socket at all, the child gets its end of a
/// socketpair as WAYLAND_SOCKET (how the benchmarks start their clients).
@Test func aRunCommandWithoutASocketGetsWaylandSocket() throws {
    var configuration = CompositorConfiguration()
    configuration.listen = false
    configuration.handleSignals = false
    let output = TestRuntime.temporaryDirectory("socketless") + "/wayland-info.txt"
    configuration.runCommand = "exec wayland-info > \(output) 2>&1"
    // The compositor runs its loop on its own thread; this one waits for wayland-info's output.
    let compositor = try CompositorThread(configuration: configuration)
    defer { compositor.stop() }
    let text = FileWatch.waitForText(in: output, timeout: 20) { $0.contains("interface: 'zwp_tablet_manager_v2'") }
    #expect(text.contains("interface: 'wl_compositor'"), "\(text)")
    #expect(text.contains("interface: 'zwp_tablet_manager_v2'"), "\(text)")
}
