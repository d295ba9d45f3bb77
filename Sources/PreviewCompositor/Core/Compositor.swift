import Glibc
import Logging
import PreviewEngine

/// The compositor as a library: tests create one, hand it client sockets, run it and
/// stop it; the executable is a thin shell over this class.
public final class Compositor {
    public let configuration: CompositorConfiguration
    let logger: Logger
    public let framebuffer: Framebuffer
    public let scene: Scene
    public let keymap: Keymap
    var engine: InteractionEngine
    let screenshots: ScreenshotWriter?

    /// Checks everything that can fail for reasons outside our control, then builds the
    /// output. Throws a one-line `CompositorError`.
    public init(configuration: CompositorConfiguration, logger: Logger = Logger(label: "preview-compositor"))
        throws(CompositorError)
    {
        self.configuration = configuration
        self.logger = logger
        if configuration.listen { _ = try Preflight.runtimeDirectory() }
        if case .replay(let paths) = configuration.input { try Preflight.recordingsReadable(paths) }
        if let directory = configuration.screenshotDirectory {
            try Preflight.screenshotDirectory(directory)
            screenshots = ScreenshotWriter(directory: directory)
        } else {
            screenshots = nil
        }
        guard let framebuffer = Framebuffer(width: configuration.outputWidth, height: configuration.outputHeight)
        else { throw .outputTooLarge(configuration.outputWidth, configuration.outputHeight) }
        self.framebuffer = framebuffer
        scene = Scene(output: framebuffer.bounds)
        do {
            keymap = try Keymap(layout: configuration.keyboardLayout)
        } catch {
            throw .keymap(error.description)
        }
        engine = InteractionEngine(configuration: configuration.engine)
    }

    /// Runs until stopped (signal, `stop()`, or done with --exit-when-done). Returns the exit status.
    public func run() -> Int32 {
        logger.error("the Wayland display is not wired yet")
        return 1
    }

    /// Repaints damage and writes a PNG now. Returns the path written.
    @discardableResult
    public func screenshot(label: String) throws(ScreenshotError) -> String? {
        guard let screenshots else { return nil }
        framebuffer.repaint(scene.placements())
        return try screenshots.write(framebuffer, label: label)
    }
}
