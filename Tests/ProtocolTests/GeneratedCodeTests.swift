import Foundation
import SystemLayer
import Testing

/// The committed wayland-scanner output must be exactly what the XML produces, and every
/// XML must pass `wayland-scanner --strict`: scripts/generate-protocols --check says so.
@Test func committedScannerOutputMatchesTheXML() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let run = try ChildProcess.run(
        [root.appendingPathComponent("scripts/generate-protocols").path, "--check"], output: .discard)
    #expect(run.status == 0, "\(run.errors)")
}
