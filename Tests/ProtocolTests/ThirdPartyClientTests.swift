import Foundation
import SystemLayer
import Testing

/// wayland-info (Debian package wayland-utils), a client that knows nothing of our protocol,
/// sees the global with its name and version on a real named socket.
@Test func waylandInfoListsTheGlobal() throws {
    let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let runtime = FileManager.default.temporaryDirectory.appendingPathComponent("spi-wayland-info-\(getpid())")
    try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: runtime) }

    let server = try ChildProcess(
        [products.appendingPathComponent("preview-protocol-test-server").path, "wayland-info-test"],
        environment: ["XDG_RUNTIME_DIR": runtime.path], inheritingEnvironment: false, output: .pipe)
    // The server prints WAYLAND_DISPLAY=<name> once it listens (the child is stopped when it goes).
    #expect(server.waitForOutput(containing: "\n", timeout: 20))
    #expect(server.standardOutput == "WAYLAND_DISPLAY=wayland-info-test\n")

    let info = try ChildProcess.run(
        ["/usr/bin/wayland-info"],
        environment: ["XDG_RUNTIME_DIR": runtime.path, "WAYLAND_DISPLAY": "wayland-info-test"],
        inheritingEnvironment: false, errors: nil)
    let text = info.output
    #expect(info.status == 0, "\(text)")
    let entry = text.split(separator: "\n").first { $0.contains("'spi_preview_interaction_manager_v1'") }
    #expect(entry?.replacingOccurrences(of: " ", with: "").contains("version:3,") == true, "\(text)")
    guard info.status == 0 else { return }
    // It exits by itself once its clients have gone.
    #expect(server.wait(timeout: 60) == 0)
}
