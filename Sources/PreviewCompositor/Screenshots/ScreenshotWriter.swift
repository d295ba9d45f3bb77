import Glibc
import SystemLayer

/// Names screenshots in order (0001-label.png, ...) so a directory listing is a timeline.
final class ScreenshotWriter {
    let directory: String
    private(set) var count = 0

    init(directory: String) { self.directory = directory }

    func write(_ framebuffer: Framebuffer, label: String) throws(ScreenshotError) -> String {
        let path = nextPath(label)
        try framebuffer.writePNG(to: path)
        return path
    }

    /// The same picture under the next number and another label (a hard link, else a copy).
    func duplicate(_ existing: String, label: String) throws(ScreenshotError) -> String {
        let path = nextPath(label)
        if link(existing, path) == 0 { return path }
        guard let input = fopen(existing, "rb"), let output = fopen(path, "wb") else {
            throw ScreenshotError(path: path, reason: errnoText())
        }
        defer {
            fclose(input)
            fclose(output)
        }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = fread(&buffer, 1, buffer.count, input)
            if n == 0 { break }
            guard fwrite(buffer, 1, n, output) == n else { throw ScreenshotError(path: path, reason: "short write") }
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
