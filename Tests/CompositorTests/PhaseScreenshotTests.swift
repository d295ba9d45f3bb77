import Foundation
import Testing
import _FixtureTestSupport

/// The phase screenshots through the executable, with a client that is slow to draw: each shot
/// waits for the client's commit instead of a fixed number of frames.
@Suite(.serialized) struct PhaseScreenshotTests {
    static let binaries = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
    static let recordings = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/BundledRecordings/recordings").standardized.path

    /// One `screenshot … (why, N ms after the event)` log line.
    struct Shot {
        var file: String
        var onCommit: Bool
        var delay: Int
    }

    static func shots(in log: String) -> [Shot] {
        log.split(separator: "\n").compactMap { line in
            guard let start = line.range(of: "] screenshot "), line.contains("ms after the event") else { return nil }
            let rest = line[start.upperBound...]
            let path = rest.prefix { $0 != " " }
            let tail = rest.split(separator: ", ").last ?? ""
            guard let delay = Int(tail.prefix { $0.isNumber }) else { return nil }
            return Shot(
                file: String(path.split(separator: "/").last ?? ""), onCommit: rest.contains("first commit after"),
                delay: delay)
        }
    }

    @Test func aSlowClientIsPhotographedOnItsCommitNotFourFramesLater() throws {
        // 150 ms per frame: four frames of the 60 Hz output (67 ms, the old timer) are too few;
        // the 1 s fallback covers the worst case (a frame being drawn, a vblank, the next frame).
        let delay = 150
        let directory = TestRuntime.temporaryDirectory("slow")
        let shots = directory + "/shots"
        let process = try ClientProcess(
            [
                Self.binaries + "/preview-compositor", "--backend", "headless", "--socket", TestRuntime.uniqueSocket(),
                "-v", "--replay",
                Self.recordings + "/wacom-cintiq13hd-pen.yml", "--fast", "--exit-when-done", "--screenshot-dir", shots,
                "--should-begin-timeout", String(slowClientShouldBeginTimeout),
                "--run", Self.binaries + "/peek-client --draw-delay \(delay)",
            ], socket: "", environment: [:])
        let run = process.finish(timeout: 90)
        #expect(run.status == 0 && !run.timedOut, "\(run.output.suffix(3000))")
        let logged = Self.shots(in: run.output)
        let files = try FileManager.default.contentsOfDirectory(atPath: shots).sorted()
        #expect(files == logged.map(\.file), "every file is logged once, in order")
        // The slow client may answer should-begin after the pen already pressed through the
        // preview phase: then the engine starts with the commit phase.
        #expect(["0001-interaction1-preview.png", "0001-interaction1-commit.png"].contains(logged.first?.file ?? ""))
        #expect(logged.last?.file.hasSuffix("-interaction1-settled.png") == true)
        #expect(logged.contains { $0.file.hasSuffix("-cancelled.png") })
        // No picture before the client could have drawn its reaction. The old timer took every
        // shot 67 ms after the event.
        for shot in logged {
            #expect(shot.delay >= delay, "\(shot.file) taken \(shot.delay) ms after the event, before the client drew")
        }
        // And on its commit, not at the fallback deadline.
        for shot in logged { #expect(shot.onCommit, "\(shot.file) was taken at the fallback deadline") }
    }
}
