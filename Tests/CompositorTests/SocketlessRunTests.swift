import Foundation
import PreviewCompositor
import Testing

/// `listen = false` with a run command: no socket at all, the child gets its end of a
/// socketpair as WAYLAND_SOCKET (how the benchmarks start their clients).
@Test func aRunCommandWithoutASocketGetsWaylandSocket() throws {
    var configuration = CompositorConfiguration()
    configuration.listen = false
    configuration.handleSignals = false
    let output = TestRuntime.temporaryDirectory("socketless") + "/wayland-info.txt"
    configuration.runCommand = "exec wayland-info > \(output) 2>&1"
    let compositor = try Compositor(configuration: configuration)
    compositor.start()
    let deadline = Date().addingTimeInterval(20)
    var text = ""
    while Date() < deadline && !text.contains("interface: 'zwp_tablet_manager_v2'") {
        compositor.dispatch(timeoutMilliseconds: 20)
        text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    }
    #expect(text.contains("interface: 'wl_compositor'"), "\(text)")
    #expect(text.contains("interface: 'zwp_tablet_manager_v2'"), "\(text)")
    compositor.stop()
}
