import PreviewEngine

/// Screenshots: on demand (SIGUSR1, tests) and at the phase moments (docs/compositor.md,
/// "Screenshot moments"), written by `ScreenshotWriter` as numbered PNGs.
extension Compositor {
    /// Repaints damage and writes a PNG now. Returns the path written (nil without --screenshot-dir).
    @discardableResult
    public func screenshot(label: String, log: Bool = true) throws(ScreenshotError) -> String? {
        guard let screenshots else { return nil }
        let path = try screenshots.shoot(label: label)
        if log { logger.info("screenshot \(path)") }
        return path
    }

    /// Repaints damage now and writes the output to `path` (tests, and on demand).
    public func writeScreenshot(to path: String) throws(ScreenshotError) {
        framebuffer.repaint(scene.placements())
        try framebuffer.writePNG(to: path)
    }
}
