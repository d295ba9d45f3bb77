import SystemLayer

/// Names screenshots in order (0001-label.png, ...) so a directory listing is a timeline.
final class ScreenshotWriter {
    let directory: String
    private(set) var count = 0
    /// What a picture shows: the output's framebuffer, repainted from the scene.
    private let output: CompositorOutput
    private let scene: Scene

    init(directory: String, output: CompositorOutput, scene: Scene) {
        (self.directory, self.output, self.scene) = (directory, output, scene)
    }

    /// Repaints damage and writes the output now.
    func shoot(label: String) throws(ScreenshotError) -> String {
        output.framebuffer.repaint(scene.placements())
        return try write(output.framebuffer, label: label)
    }

    func write(_ framebuffer: Framebuffer, label: String) throws(ScreenshotError) -> String {
        let path = nextPath(label)
        try framebuffer.writePNG(to: path)
        return path
    }

    /// The same picture under the next number and another label (a hard link, else a copy).
    func duplicate(_ existing: String, label: String) throws(ScreenshotError) -> String {
        let path = nextPath(label)
        if FileSystem.hardLink(existing, as: path) { return path }
        do { try FileSystem.copyFile(existing, to: path) } catch {
            throw ScreenshotError(path: path, reason: "\(error)")
        }
        return path
    }

    private func nextPath(_ label: String) -> String {
        count += 1
        let safe = String(label.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "-" })
        let number = String(count)
        return directory + "/" + String(repeating: "0", count: max(0, 4 - number.count)) + number + "-" + safe + ".png"
    }
}
