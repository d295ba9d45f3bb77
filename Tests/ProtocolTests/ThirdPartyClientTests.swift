import Foundation
import Testing

/// wayland-info (Debian package wayland-utils), a client that knows nothing of our protocol,
/// sees the global with its name and version on a real named socket.
@Test func waylandInfoListsTheGlobal() throws {
    let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let runtime = FileManager.default.temporaryDirectory.appendingPathComponent("spi-wayland-info-\(getpid())")
    try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: runtime) }

    let server = Process()
    server.executableURL = products.appendingPathComponent("preview-protocol-test-server")
    server.arguments = ["wayland-info-test"]
    server.environment = ["XDG_RUNTIME_DIR": runtime.path]
    let ready = Pipe()
    server.standardOutput = ready
    try server.run()
    defer { if server.isRunning { server.terminate() } }
    // The server prints WAYLAND_DISPLAY=<name> once it listens.
    var line = Data()
    while let byte = try ready.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
        line.append(byte)
    }
    #expect(String(decoding: line, as: UTF8.self) == "WAYLAND_DISPLAY=wayland-info-test")

    let info = Process()
    info.executableURL = URL(fileURLWithPath: "/usr/bin/wayland-info")
    info.environment = ["XDG_RUNTIME_DIR": runtime.path, "WAYLAND_DISPLAY": "wayland-info-test"]
    let output = Pipe()
    info.standardOutput = output
    info.standardError = output
    try info.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    info.waitUntilExit()
    #expect(info.terminationStatus == 0, "\(text)")
    let entry = text.split(separator: "\n").first { $0.contains("'spi_preview_interaction_manager_v1'") }
    #expect(entry?.replacingOccurrences(of: " ", with: "").contains("version:2,") == true, "\(text)")
    guard info.terminationStatus == 0 else { return }  // (the defer stops the server)
    server.waitUntilExit()  // it exits by itself once its clients have gone
    #expect(server.terminationStatus == 0)
}
