import Foundation
import Testing
import _FixtureTestSupport

/// The executable as the demo uses it: a recording drives peek-client through the protocol.
@Suite(.serialized) struct ReplayRunTests {
    static let binaries = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
    static let recordings = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/BundledRecordings/recordings").standardized.path

    /// The executable with `arguments`; real clients get `slowClientShouldBeginTimeout` to answer.
    func compositor(_ arguments: [String]) throws -> ClientRun {
        let process = try ClientProcess(
            [
                Self.binaries + "/preview-compositor", "--backend", "headless", "--socket", TestRuntime.uniqueSocket(),
                "--should-begin-timeout", String(slowClientShouldBeginTimeout),
            ] + arguments, socket: "",
            environment: [:])
        return process.finish(timeout: 60)
    }

    @Test func penRecordingDrivesPeekClientAndWritesTraceAndPhaseScreenshots() throws {
        let directory = TestRuntime.temporaryDirectory("replay")
        let trace = directory + "/trace.jsonl"
        let shots = directory + "/shots"
        let run = try compositor([
            "--replay", Self.recordings + "/wacom-cintiq13hd-pen.yml", "--fast", "--exit-when-done",
            "--trace", trace, "--screenshot-dir", shots, "--run", Self.binaries + "/peek-client",
        ])
        #expect(run.status == 0 && !run.timedOut, "\(run.output)")
        #expect(!run.output.contains("transition"), "transitions are logged only with --verbose: \(run.output)")
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        // preview-replay on this recording: one interaction, previewed, into commit, cancelled (lifted).
        #expect(lines.count > 5)
        #expect(lines.allSatisfy { $0.contains("\"surface\":1") && $0.contains("\"client\":\"client1\"") })
        #expect(!lines.contains { $0.contains("should-begin") }, "should-begin lines only with --verbose")
        #expect(lines.first?.contains("\"event\":\"preview\"") == true)
        #expect(lines.contains { $0.contains("\"event\":\"commit\"") })
        #expect(lines.last?.contains("\"reason\":\"lifted\"") == true)
        let files = try FileManager.default.contentsOfDirectory(atPath: shots).sorted()
        // The phase changes in order, the halfway moments the recording reaches, then the settled picture.
        let moments = files.map { $0.dropFirst(5).dropLast(4) }
        #expect(moments.first == "interaction1-preview", "\(files)")
        #expect(
            moments.filter { !$0.hasSuffix("-half") } == [
                "interaction1-preview", "interaction1-commit", "interaction1-cancelled", "interaction1-settled",
            ], "\(files)")
    }

    @Test func verboseLogsEveryEngineTransition() throws {
        let run = try compositor([
            "--replay", Self.recordings + "/wacom-cintiq13hd-pen.yml", "--fast", "--exit-when-done", "--verbose",
            "--run", Self.binaries + "/peek-client",
        ])
        #expect(run.status == 0 && !run.timedOut, "\(run.output)")
        // "transition <time> <contact> [#n]: from → event → to", states with their values: compare kinds.
        let transitions = run.output.split(separator: "\n").compactMap { line -> String? in
            guard let start = line.range(of: "transition ") else { return nil }
            let text = line[start.upperBound...]
            guard let colon = text.range(of: ": ") else { return nil }
            return text[colon.upperBound...].components(separatedBy: " → ")
                .map { $0.prefix { $0 != "(" } }.joined(separator: " → ")
        }
        // The pen's short first touch, then the interaction's way through the machine
        // (docs/state-machine.md), as the trace tells it.
        #expect(
            transitions == [
                "idle → began → armed", "armed → contactEnded → ended",
                "idle → began → armed", "armed → sample → awaitingAnswer", "awaitingAnswer → accepted → preview",
                "preview → sample → commit", "commit → contactEnded → ended",
            ], "\(run.output)")
    }

    @Test func unreadableRecordingIsOneLineAndStatusOne() throws {
        let run = try compositor(["--replay", "/nonexistent/pen.yml"])
        #expect(run.status == 1)
        #expect(
            run.output == "preview-compositor: cannot read recording /nonexistent/pen.yml: No such file or directory\n",
            "\(run.output)")
    }

    @Test func runChildExitEndsTheCompositorWithExitWhenDone() throws {
        let run = try compositor(["--exit-when-done", "--run", "wayland-info > /dev/null"])
        #expect(run.status == 0 && !run.timedOut, "\(run.output)")
    }
}
