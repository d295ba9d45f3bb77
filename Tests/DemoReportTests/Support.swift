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
