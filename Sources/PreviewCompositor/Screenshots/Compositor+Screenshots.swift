import PreviewEngine

/// Screenshots: on demand (SIGUSR1, tests) and at the phase moments (docs/compositor.md,
/// "Screenshot moments"), written by `ScreenshotWriter` as numbered PNGs.
extension Compositor {
    /// Repaints damage and writes a PNG now. Returns the path written (nil without --screenshot-dir).
    @discardableResult
    public func screenshot(label: String, log: Bool = true) throws(ScreenshotError) -> String? {
        guard let screenshots else { return nil }
        framebuffer.repaint(scene.placements())
        let path = try screenshots.write(framebuffer, label: label)
        if log { logger.info("screenshot \(path)") }
        return path
    }

    /// A phase moment happened (before its event goes to the client); the shot follows the
    /// client's acknowledgement and redraw.
    func phaseMoment(_ moment: ScreenshotMoments.Moment, interaction: InteractionID, surface: SurfaceID) {
        phaseScreenshots?.occurred(moment, interaction: interaction, surface: surface)
    }

    /// Another name for a screenshot just written (several moments due on one commit).
    func duplicateScreenshot(_ path: String, label: String) throws(ScreenshotError) -> String? {
        try screenshots?.duplicate(path, label: label)
    }

    /// Repaints damage now and writes the output to `path` (tests, and on demand).
    public func writeScreenshot(to path: String) throws(ScreenshotError) {
        framebuffer.repaint(scene.placements())
        try framebuffer.writePNG(to: path)
    }
}
