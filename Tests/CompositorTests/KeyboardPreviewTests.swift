import Foundation
import Testing

@testable import PreviewCompositor

/// The keyboard end to end: a recorded Menu-key press and hold over the focused toplevel of a
/// version 2 client (pywayland, Tests/python/v2_client.py) runs an interaction with source
/// keyboard at the client's focus point, through to completion.
@Suite struct KeyboardPreviewTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    static let client = root + "/Tests/python/v2_client.py"

    /// Replays `recording` to the v2 client (with `arguments`) in an in-process compositor.
    static func run(
        _ recording: String, client arguments: [String] = [],
        _ tweak: (inout CompositorConfiguration) -> Void = { _ in }
    ) throws -> [String] {
        let compositor = try startCompositor {
            $0.input = .replay([ReplayRunTests.recordings + "/" + recording])
            $0.previewProtocolVersion = 2
            tweak(&$0)
        }
        defer { compositor.stop() }
        let run = try runClient(["/usr/bin/python3", client] + arguments, socket: compositor.socketName, timeout: 60)
        #expect(run.status == 0 && !run.timedOut, "status \(run.status): \(run.output)")
        return run.output.split(separator: "\n").map(String.init)
    }

    @Test func aHeldMenuKeyCompletesWithSourceKeyboard() throws {
        let lines = try Self.run("handwritten-usb-keyboard-menu-hold.yml")
        #expect(lines.contains("manager version 2"), "\(lines)")
        #expect(lines.contains("should_begin 1 5 2"), "source keyboard, force simulated: \(lines)")
        #expect(lines.contains("location 1 20.0 30.0"), "at the focus point: \(lines)")
        #expect(lines.contains("preview_ended 1"), "\(lines)")
        #expect(lines.last == "v2_client: completed", "\(lines)")
    }

    /// A tap of Menu is the app's key; held past the long-press duration and released before
    /// the simulated force completes, the interaction is cancelled `lifted` and the key never
    /// reaches the app.
    @Test func aMenuKeyReleasedEarlyIsCancelledLiftedAndATapIsTheApps() throws {
        let lines = try Self.run("handwritten-usb-keyboard-menu-release.yml", client: ["--keyboard"])
        let keys = lines.filter { $0.hasPrefix("key ") }
        #expect(keys == ["key 127 1", "key 127 0"], "the tap, once: \(lines)")
        let tap = lines.firstIndex(of: "key 127 0") ?? lines.count
        let asked = lines.firstIndex(of: "should_begin 1 5 2") ?? -1
        #expect(tap < asked, "the tap is delivered, then the hold begins an interaction: \(lines)")
        #expect(!lines.contains("completed 1"), "\(lines)")
        #expect(lines.contains("cancelled 1 1"), "lifted: \(lines)")
        #expect(lines.last == "v2_client: cancelled", "\(lines)")
    }

    /// Keyboard focus leaving the surface while the held key drives an interaction cancels it
    /// (`system`, 9); the key's release, later, reaches nobody.
    @Test func losingKeyboardFocusCancelsWithSystem() throws {
        let compositor = try startCompositor {
            $0.input = .replay([ReplayRunTests.recordings + "/handwritten-usb-keyboard-menu-hold.yml"])
            $0.previewProtocolVersion = 2
        }
        defer { compositor.stop() }
        let client = try startClient(["/usr/bin/python3", Self.client, "--keyboard"], socket: compositor.socketName)
        defer { _ = client.terminate() }
        #expect(client.waitForOutput("should_begin 1 5 2", timeout: 60), "\(client.output)")
        compositor.sync { $0.seat.setKeyboardFocus(nil) }
        let run = client.finish(timeout: 60)
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.contains("cancelled 1 9"), "system: \(lines)")
        #expect(!lines.contains("completed 1") && !lines.contains { $0.hasPrefix("key 127") }, "\(lines)")
        #expect(lines.last == "v2_client: cancelled", "\(lines)")
    }

    /// The user's own preview key: with only Shift+F10 chosen (in the settings file), Menu is an
    /// ordinary key again, held or not.
    @Test func aPreviewKeyTheUserDidNotChooseIsAnOrdinaryKey() throws {
        let path = TestRuntime.temporaryDirectory("settings") + "/settings"
        try "preview-key = Shift+F10\n".write(toFile: path, atomically: true, encoding: .utf8)
        let client = ["--keyboard", "--keys", "2"]
        let lines = try Self.run("handwritten-usb-keyboard-menu-hold.yml", client: client) { $0.settingsPath = path }
        // Had the hold begun an interaction, its should_begin would have come before the release.
        #expect(lines.filter { $0.hasPrefix("key ") } == ["key 127 1", "key 127 0"], "\(lines)")
        #expect(!lines.contains { $0.hasPrefix("should_begin") }, "\(lines)")
        #expect(lines.last == "v2_client: keys", "\(lines)")
    }
}
