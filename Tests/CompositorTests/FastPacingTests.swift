import Foundation
import Testing

/// `--fast` skips idle time only once the clients have caught up (every frame acknowledged, no
/// phase screenshot waiting): a client still busy with the end of one gesture gets the next
/// press when it can answer it, so the run does what the recording did instead of ending the
/// next interaction `timeout` (or declined on the client's behalf for owing an ack).
@Suite struct FastPacingTests {
    @Test func aClientSlowToAcknowledgeAnswersBothPressesOfATwoGestureRecording() throws {
        let directory = TestRuntime.temporaryDirectory("fast-pacing")
        let log = directory + "/events.log"
        // pywayland client: accepts every should_begin at once but acknowledges each frame
        // 400 ms late without reading meanwhile, longer than the 150 ms should-begin wait.
        let client = "python3 \(TabletTests.client) --pointer --preview --ack-delay 400 \(log)"
        let process = try ClientProcess(
            [
                ReplayRunTests.binaries + "/preview-compositor", "--backend", "headless", "--socket", TestRuntime.uniqueSocket(),
                "--replay", ReplayRunTests.recordings + "/wacom-cintiq12wx-pen.yml", "--fast", "--exit-when-done",
                "--run", client,
            ], socket: "", environment: [:])
        let run = process.finish(timeout: 90)
        #expect(run.status == 0 && !run.timedOut, "\(run.output)")
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        let asked = lines.filter { $0.hasPrefix("preview should_begin") }
        let ends = lines.filter { $0.hasPrefix("preview cancelled") || $0.hasPrefix("preview completed") }
        // preview-replay: 2 interactions, both let go (CancelReason.lifted = 1).
        #expect(asked.count == 2, "\(lines.filter { $0.hasPrefix("preview") })")
        #expect(ends.count == 2 && ends.allSatisfy { $0.hasSuffix(" 1") }, "\(ends)\n\(run.output)")
    }

    @Test("A client slow to answer should-begin gets the recorded peek and pop: the replay waits", arguments: [true, false])
    func aClientSlowToAnswer(fast: Bool) throws {
        let directory = TestRuntime.temporaryDirectory("slow-answer")
        let log = directory + "/events.log"
        // Accepts each should_begin 1 s late, without reading meanwhile: longer than the
        // touchpad's first click lasts. The engine would wait (timeout 3 s), but a replay that
        // went on would lift the finger before the answer.
        let client = "python3 \(TabletTests.client) --pointer --preview --answer-delay 1000 \(log)"
        let process = try ClientProcess(
            [
                ReplayRunTests.binaries + "/preview-compositor", "--backend", "headless", "--socket", TestRuntime.uniqueSocket(),
                "--replay", ReplayRunTests.recordings + "/apple-bcm5974-touchpad.yml", "--exit-when-done",
                "--should-begin-timeout", "3000", "--run", client,
            ] + (fast ? ["--fast"] : []), socket: "", environment: [:])
        let run = process.finish(timeout: 90)
        #expect(run.status == 0 && !run.timedOut, "\(run.output)")
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        let outline = lines.filter { $0.hasPrefix("preview") && !$0.hasPrefix("preview preview ") && !$0.hasPrefix("preview commit ") }
        // preview-replay (every answer at once): the first click peeks and pops.
        let first = outline.prefix { !$0.hasPrefix("preview completed") && !$0.hasPrefix("preview cancelled") }
        #expect(first.count == 2 && first.last?.hasPrefix("preview preview_ended") == true, "\(outline)\n\(run.output)")
        #expect(outline.dropFirst(first.count).first?.hasPrefix("preview completed") == true, "\(outline)")
    }

    @Test func exitWhenDoneWaitsForAClientSlowToHandleItsLastInput() throws {
        let directory = TestRuntime.temporaryDirectory("exit-settles")
        let log = directory + "/events.log"
        // Handles each event 400 ms after reading it: at the last input it is seconds behind.
        // --exit-when-done stops only once it has answered a ping sent after that input.
        let client = "python3 \(TabletTests.client) --pointer --event-delay 400 \(log)"
        let process = try ClientProcess(
            [
                ReplayRunTests.binaries + "/preview-compositor", "--backend", "headless", "--socket", TestRuntime.uniqueSocket(),
                "--replay", ReplayRunTests.recordings + "/handwritten-usb-mouse.yml", "--exit-when-done", "--run", client,
            ], socket: "", environment: [:])
        let run = process.finish(timeout: 90)
        #expect(run.status == 0 && !run.timedOut, "\(run.output)")
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        // The click, then the three moves of the recording's last frames.
        let release = try #require(lines.lastIndex { $0 == "pointer button 272 0" }, "\(lines)")
        #expect(lines[(release + 1)...].filter { $0.hasPrefix("pointer motion") }.count == 3, "\(lines)")
    }
}
