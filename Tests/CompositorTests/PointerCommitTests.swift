import Foundation
import InputEvents
import PreviewEngine
import Testing

/// The protocol's core-input rule for the pointer: at preview_ended the pointer leaves the
/// surface, nothing of it reaches the client during the commit phase, and once the interaction
/// ends it enters again where the cursor is, its release never delivered. A real client
/// (Tests/python/tablet_client.py --pointer: no tablet-v2, so the pen is an emulated pointer)
/// while the compositor replays a pen recording whose long press completes.
@Suite(.serialized) struct PointerCommitTests {
    /// Replays `recording` to a `tablet_client.py --pointer --preview` client; returns its event
    /// log once it has read everything the replay caused.
    func replay(_ recording: String) throws -> [Substring] {
        let compositor = try startCompositor {
            $0.input = .replay([ReplayRunTests.recordings + "/" + recording], fast: true)
            // A generous should-begin wait: the client is Python on a machine shared with other tests.
            $0.engine.shouldBeginTimeout = .milliseconds(2000)
        }
        defer { compositor.stop() }
        let log = TestRuntime.temporaryDirectory("pointer-commit") + "/events.log"
        // The replay starts when the window is mapped.
        let client = try startClient(
            ["/usr/bin/python3", TabletTests.client, "--pointer", "--preview", log], socket: compositor.socketName)
        defer { _ = client.terminate() }
        #expect(compositor.wait(timeout: 60) { $0.replayFinishedAll == true }, "\(client.output)")
        // A marker after everything the replay caused: once the client logs it, it has read all
        // that came before (a release included, had one been sent).
        compositor.sync {
            $0.inject(.button(KeyState(device: DeviceID(99), time: TouchCommitTests.now(), code: 0x111, pressed: true)))
        }
        let text = TouchCommitTests.waitFor("pointer button 273 1", in: log)
        #expect(text.hasSuffix("pointer button 273 1\n"), "\(client.output)")
        return text.split(separator: "\n")
    }

    /// Checks the order around the commit phase of interaction `id`; `end` is the line that ends it.
    func expectTakenAwayAndGivenBack(_ all: [Substring], id: Int = 1, end: String) throws {
        let lines = all.filter {
            !$0.hasPrefix("pointer motion") && !$0.hasPrefix("preview preview ") && !$0.hasPrefix("preview commit ")
        }
        let ended = try #require(lines.firstIndex(of: "preview preview_ended \(id)"), "\(lines)")
        let press = try #require(lines[..<ended].lastIndex(of: "pointer button 272 1"), "\(lines)")
        let finished = try #require(lines.firstIndex(of: Substring(end)), "\(lines)")
        #expect(press < ended && ended < finished)
        #expect(lines[ended + 1] == "pointer leave", "\(lines[ended...])")
        #expect(ended + 2 == finished, "nothing of the pointer between leave and the end: \(lines[ended...])")
        #expect(lines[finished + 1].hasPrefix("pointer enter "), "\(lines[finished...])")
        #expect(!lines[press...].contains("pointer button 272 0"), "the release is never delivered: \(lines[press...])")
        #expect(lines.last == "pointer button 273 1", "\(lines[finished...])")
        // Nothing of the pointer during the commit phase, motion included.
        let leave = try #require(all.firstIndex(of: "pointer leave"))
        let done = try #require(all.firstIndex(of: Substring(end)))
        #expect(
            !all[leave..<done].contains { $0.hasPrefix("pointer ") && $0 != "pointer leave" }, "\(all[leave..<done])")
        // It enters where the pen is, inside the 1280x800 window.
        let enter = lines[finished + 1].split(separator: " ").dropFirst(2).compactMap { Double($0) }
        #expect(enter.count == 2 && (1..<1280).contains(enter[0]) && (1..<800).contains(enter[1]), "\(enter)")
    }

    @Test func aCompletedCommitTakesThePointerAwayAndItEntersAgainWithoutTheRelease() throws {
        // The Dell Canvas pen's long press completes before the pen lifts (its second
        // interaction: a 47 ms stroke comes first, see the test below).
        let lines = try replay("dell-canvas-isdv4-pen.yml")
        // The short stroke is an ordinary click: pressed and released, never taken away.
        let first = lines.prefix { !$0.hasPrefix("preview should_begin 2 ") }
        #expect(first.contains("preview cancelled 1 1") && first.contains("pointer button 272 0"), "\(lines)")
        #expect(!first.contains("pointer leave"), "\(first)")
        try expectTakenAwayAndGivenBack(lines, id: 2, end: "preview completed 2")
    }

    @Test func aCancelledCommitGivesThePointerBackToo() throws {
        // The Cintiq pen lifts during the commit phase: cancelled (reason 1, lifted).
        try expectTakenAwayAndGivenBack(try replay("wacom-cintiq13hd-pen.yml"), end: "preview cancelled 1 1")
    }
}
