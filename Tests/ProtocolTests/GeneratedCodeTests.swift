import Foundation
import Testing

/// The committed wayland-scanner output must be exactly what the XML produces, and every
/// XML must pass `wayland-scanner --strict`: scripts/generate-protocols --check says so.
@Test func committedScannerOutputMatchesTheXML() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let process = Process()
    process.executableURL = root.appendingPathComponent("scripts/generate-protocols")
    process.arguments = ["--check"]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(message)")
}
