import Foundation
import Testing

/// Replay pacing with clients that are slow in one way each (the pywayland test client's
/// delay options). `--fast` skips idle time only once the clients have caught up (every frame
/// acknowledged, no phase screenshot waiting); every replay waits for should-begin answers;
/// `--exit-when-done` waits until each client has handled its last input.
@Suite struct FastPacingTests {
    /// Replays `recording` with the test client (`clientOptions`, logging to a file) and
    /// returns the client's log lines.
    func run(_ recording: String, client clientOptions: String, _ options: [String] = []) throws -> [Substring] {
        let log = TestRuntime.temporaryDirectory("pacing") + "/events.log"
        let process = try ClientProcess(
            [
                ReplayRunTests.binaries + "/preview-compositor", "--backend", "headless", "--socket",
                TestRuntime.uniqueSocket(),
                "--replay", ReplayRunTests.recordings + "/" + recording, "--exit-when-done",
                "--run", "/usr/bin/python3 \(TabletTests.client) \(clientOptions) \(log)",
            ] + options, socket: "", environment: [:])
        let run = process.finish(timeout: 90)
        #expect(run.status == 0 && !run.timedOut, "\(run.output)")
        return try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
    }

    @Test func aClientSlowToAcknowledgeAnswersBothPressesOfATwoGestureRecording() throws {
        // Accepts every should_begin at once but acknowledges each frame 400 ms late without
        // reading meanwhile, longer than the 150 ms should-begin wait.
        let lines = try run("wacom-cintiq12wx-pen.yml", client: "--pointer --preview --ack-delay 400", ["--fast"])
        let asked = lines.filter { $0.hasPrefix("preview should_begin") }
        let ends = lines.filter { $0.hasPrefix("preview cancelled") || $0.hasPrefix("preview completed") }
        // preview-replay: 2 interactions, both let go (CancelReason.lifted = 1).
        #expect(asked.count == 2, "\(lines.filter { $0.hasPrefix("preview") })")
        #expect(ends.count == 2 && ends.allSatisfy { $0.hasSuffix(" 1") }, "\(ends)")
    }

    @Test(
        "A client slow to answer should-begin gets the recorded peek and pop: the replay waits",
        arguments: [(true, 1000), (false, 1000), (true, 6000)])
    func aClientSlowToAnswer(fast: Bool, delayMilliseconds: Int) throws {
        // Accepts each should_begin late, without reading meanwhile: longer than the
        // touchpad's first click lasts. The engine would wait (its timeout 2 s longer), but a
        // replay that went on would lift the finger before the answer. 6 s: a machine stalled
        // for longer than the replay's other waits; the pause lasts as long as the engine's.
        let lines = try run(
            "apple-bcm5974-touchpad.yml", client: "--pointer --preview --answer-delay \(delayMilliseconds)",
            ["--should-begin-timeout", String(delayMilliseconds + 2000)] + (fast ? ["--fast"] : []))
        let outline = lines.filter {
            $0.hasPrefix("preview") && !$0.hasPrefix("preview preview ") && !$0.hasPrefix("preview commit ")
        }
        // preview-replay (every answer at once): the first click peeks and pops.
        let first = outline.prefix { !$0.hasPrefix("preview completed") && !$0.hasPrefix("preview cancelled") }
        #expect(first.count == 2 && first.last?.hasPrefix("preview preview_ended") == true, "\(outline)")
        #expect(outline.dropFirst(first.count).first?.hasPrefix("preview completed") == true, "\(outline)")
    }

    @Test func exitWhenDoneWaitsForAClientSlowToHandleItsLastInput() throws {
        // Handles each event 400 ms after reading it: at the last input it is seconds behind.
        // --exit-when-done stops only once it has answered a ping sent after that input.
        let lines = try run("handwritten-usb-mouse.yml", client: "--pointer --event-delay 400")
        // The click, then the three moves of the recording's last frames.
        let release = try #require(lines.lastIndex { $0 == "pointer button 272 0" }, "\(lines)")
        #expect(lines[(release + 1)...].filter { $0.hasPrefix("pointer motion") }.count == 3, "\(lines)")
    }
}
