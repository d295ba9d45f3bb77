import CCairo
import Foundation
import LibinputRecording
import PreviewEngine
import PreviewTrace
import ReplayTool
import _FixtureTestSupport

/// The trace `preview-replay --format json` prints for a fixture, as records and as text.
func replayTrace(_ name: String) throws -> (records: [TraceRecord], text: String) {
    let records = try Replay.records(input: try RecordingInput(path: Fixtures.path(name)), options: ReplayOptions())
        .records
    return (records, records.map(\.jsonLine).joined(separator: "\n") + "\n")
}

/// A fresh empty folder under the system's temporary directory.
func scratchDirectory(_ name: String = #function) -> String {
    let safe = String(name.map { $0.isLetter || $0.isNumber ? $0 : "-" })
    let path = NSTemporaryDirectory() + "demo-report-\(safe)-\(UUID().uuidString.prefix(8))"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// A PNG read back through cairo: size and ARGB pixels.
struct Picture {
    var width: Int
    var height: Int
    var pixels: [UInt32]

    init?(path: String) {
        let surface = cairo_image_surface_create_from_png(path)
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else { return nil }
        width = Int(cairo_image_surface_get_width(surface))
        height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface) else { return nil }
        var pixels: [UInt32] = []
        pixels.reserveCapacity(width * height)
        for y in 0..<height {
            let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width { pixels.append(row[x] & 0xFF_FFFF) }
        }
        self.pixels = pixels
    }

    /// How many pixels are within `tolerance` per channel of `rgb`.
    func count(near rgb: UInt32, tolerance: Int = 12) -> Int {
        var matches = 0
        for pixel in pixels {
            var close = true
            for shift: UInt32 in [0, 8, 16] {
                let a = Int((pixel >> shift) & 0xFF)
                let b = Int((rgb >> shift) & 0xFF)
                if abs(a - b) > tolerance { close = false }
            }
            if close { matches += 1 }
        }
        return matches
    }
}

/// Writes a small solid PNG (a stand-in screenshot).
func writeSolidPNG(_ path: String, rgb: UInt32) {
    let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 64, 40)
    let cairo = cairo_create(surface)
    cairo_set_source_rgb(
        cairo, Double((rgb >> 16) & 0xFF) / 255, Double((rgb >> 8) & 0xFF) / 255, Double(rgb & 0xFF) / 255)
    cairo_paint(cairo)
    cairo_surface_write_to_png(surface, path)
    cairo_destroy(cairo)
    cairo_surface_destroy(surface)
}
