import PreviewCompositor
import Testing

/// Each way of failing to start is one line the user can act on, and nothing is left behind.
@Suite struct StartupFailureTests {
    @Test func unreadableRecordingIsNamedWithItsReason() {
        var configuration = CompositorConfiguration()
        configuration.listen = false
        configuration.input = .replay(["/nonexistent/pen.yml"])
        #expect(
            throws: CompositorError.backend(
                ReplayError.unreadableRecording("/nonexistent/pen.yml", "No such file or directory"))
        ) {
            _ = try Compositor(configuration: configuration)
        }
        configuration.input = .replay(["/tmp"])
        #expect(throws: CompositorError.backend(ReplayError.unreadableRecording("/tmp", "is a directory"))) {
            _ = try Compositor(configuration: configuration)
        }
    }

    @Test func absurdOutputSizeIsAnErrorNotACrash() {
        var configuration = CompositorConfiguration()
        configuration.listen = false
        configuration.outputWidth = 1 << 30
        configuration.outputHeight = 1 << 30
        #expect(throws: CompositorError.outputTooLarge(1 << 30, 1 << 30)) {
            _ = try Compositor(configuration: configuration)
        }
    }

    @Test func failureReasonsAreOneLine() {
        let errors: [CompositorError] = [
            .noRuntimeDirectory, .socketInUse("wayland-0"),
            .backend(ReplayError.unreadableRecording("a.yml", "Permission denied")),
            .backend(LibinputUnavailable(reason: "permission denied on /dev/input/event3")),
        ]
        for error in errors { #expect(!error.description.contains("\n")) }
        #expect(CompositorError.socketInUse("wayland-7").description.contains("wayland-7"))
    }
}
