import DemoReport
import Testing

/// The compositor command line `preview-demo run` builds: `--should-begin-timeout` is passed
/// through only when given, so the compositor's default (150 ms) stays the user's default.
@Suite struct CompositorArgumentsTests {
    static func run() -> CompositorRun {
        CompositorRun(
            tools: Tools(directory: "/opt/spi"), recordings: ["/r/pen.yml"], directory: "/out",
            screenshots: "/out/shots",
            fast: true, timeout: 60)
    }

    @Test func shouldBeginTimeoutIsPassedThroughWhenGiven() {
        var run = Self.run()
        #expect(!run.arguments(trace: "/t").contains("--should-begin-timeout"))
        run.shouldBeginTimeout = 2000
        let arguments = run.arguments(trace: "/t")
        let at = arguments.firstIndex(of: "--should-begin-timeout")
        #expect(at.map { arguments[$0 + 1] } == "2000", "\(arguments)")
        #expect(arguments.first == "/opt/spi/preview-compositor" && arguments.contains("--fast"))
    }

    /// The demo is headless even when run from a desktop session (WAYLAND_DISPLAY set), where the
    /// compositor would otherwise open a window.
    @Test func theDemoIsHeadlessWhateverTheEnvironment() {
        let arguments = Self.run().arguments(trace: "/t")
        let at = arguments.firstIndex(of: "--backend")
        #expect(at.map { arguments[$0 + 1] } == "headless", "\(arguments)")
    }
}
