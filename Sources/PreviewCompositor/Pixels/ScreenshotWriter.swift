/// Names screenshots in order (0001-label.png, ...) so a directory listing is a timeline.
final class ScreenshotWriter {
    let directory: String
    private(set) var count = 0

    init(directory: String) { self.directory = directory }

    func write(_ framebuffer: Framebuffer, label: String) throws(ScreenshotError) -> String {
        count += 1
        let safe = String(label.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "-" })
        let number = String(count)
        let path = directory + "/" + String(repeating: "0", count: max(0, 4 - number.count)) + number + "-" + safe + ".png"
        try framebuffer.writePNG(to: path)
        return path
    }
}
