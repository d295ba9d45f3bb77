import Foundation
import Testing

@testable import PreviewCompositor

/// The keyboard end to end: a recorded Menu-key press and hold over the focused toplevel of a
/// version 2 client (pywayland, Tests/python/v2_client.py) runs an interaction with source
/// keyboard at the client's focus point, through to completion.
@Suite struct KeyboardPreviewTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    @Test func aHeldMenuKeyCompletesWithSourceKeyboard() throws {
        let compositor = try startCompositor {
            $0.input = .replay([ReplayRunTests.recordings + "/handwritten-usb-keyboard-menu-hold.yml"])
            $0.previewProtocolVersion = 2
        }
        defer { compositor.stop() }
        let run = try runClient(
            ["python3", Self.root + "/Tests/python/v2_client.py"], socket: compositor.socketName, timeout: 60)
        #expect(run.status == 0 && !run.timedOut, "status \(run.status): \(run.output)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.contains("manager version 2"), "\(run.output)")
        #expect(lines.contains("should_begin 1 5 2"), "source keyboard, force simulated: \(run.output)")
        #expect(lines.contains("location 1 20.0 30.0"), "at the focus point: \(run.output)")
        #expect(lines.contains("preview_ended 1"), "\(run.output)")
        #expect(lines.last == "v2_client: completed", "\(run.output)")
    }
}
