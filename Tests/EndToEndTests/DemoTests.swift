import DemoReport
import Foundation
import PreviewEngine
import PreviewTrace
import Testing

/// `preview-demo run`, what scripts/demo runs after building: the whole demo as a user gets it.
@Suite("The demo (scripts/demo)")
struct DemoTests {
    // Pinned to the engine replay: `auto` picks the compositor where it can serve, and which one
    // runs must not depend on the machine. The compositor path has its own test below.
    @Test("One run: exit 0, the story in the terminal, and every output file, named where it is")
    func demoRun() throws {
        let output = scratchDirectory() + "/demo output"  // a space, as people's folders have
        let run = try runTool([
            tools.directory + "/preview-demo", "run", "--fast", "--mode", "replay", "--output", output,
        ])
        #expect(run.status == 0, "\(run.output)")
        // The live view, as plain lines (not a terminal): the peek, the pop, the let-go.
        #expect(run.output.contains("peek → commit"))
        #expect(run.output.contains("completed (pop)"))
        #expect(run.output.contains("cancelled (lifted)"))
        #expect(run.output.contains("output in \(output)/"))
        #expect(!run.output.contains("\u{1B}["), "escapes in a log")

        for file in ["trace.jsonl", "plot.png", "report.html", "report.md"] {
            #expect(FileManager.default.fileExists(atPath: output + "/" + file), "\(file) missing")
        }
        let records = try TraceReader.read(path: output + "/trace.jsonl")
        let stories = InteractionStory.stories(of: records)
        #expect(stories.map(\.outcome).contains(.completed))
        #expect(stories.map(\.outcome).contains(.cancelled(.lifted)))
        let markdown = try String(contentsOfFile: output + "/report.md", encoding: .utf8)
        #expect(markdown.contains("completed (pop)") && markdown.contains("cancelled (lifted)"))
        // Every screenshot the report shows exists.
        for line in markdown.split(separator: "\n") where line.contains("](screenshots/") {
            for part in line.split(separator: "(").dropFirst() {
                let file = part.prefix { $0 != ")" }
                if file.hasSuffix(".png") { #expect(FileManager.default.fileExists(atPath: output + "/" + file)) }
            }
        }
        try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: output).deletingLastPathComponent().path)
    }

    @Test("Through preview-compositor and peek-client: exit 0, the pop reaches the client, screenshots written")
    func demoThroughCompositor() throws {
        let runtime = scratchDirectory()
        chmod(runtime, 0o700)
        setenv("XDG_RUNTIME_DIR", runtime, 0)  // keeps one the environment already has
        let output = scratchDirectory() + "/out"
        let run = try runTool([
            tools.directory + "/preview-demo", "run", "--fast", "--mode", "compositor", "--output", output,
        ])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("completed (pop)"), "\(run.output)")
        let stories = InteractionStory.stories(of: try TraceReader.read(path: output + "/trace.jsonl"))
        #expect(stories.first?.outcome == .completed)
        let screenshots = (try? FileManager.default.contentsOfDirectory(atPath: output + "/screenshots")) ?? []
        #expect(screenshots.contains { $0.hasSuffix("completed.png") }, "\(screenshots)")
        // Known (issue 8): the UC-Logic pen lands on empty space in peek-client's grid, so the
        // client declines instead of the pen being let go over a photo.
        withKnownIssue("second interaction is declined by peek-client, not lifted", isIntermittent: true) {
            #expect(stories.map(\.outcome).contains(.cancelled(.lifted)), "\(stories.map(\.outcome))")
        }
        try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: output).deletingLastPathComponent().path)
    }

    @Test("A recording that is not one: exit 1 with the reason, nothing half-written claimed")
    func badRecording() throws {
        let folder = scratchDirectory()
        let bad = folder + "/bad.yml"
        try "version: 1\nnot a recording\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let run = try runTool([
            tools.directory + "/preview-demo", "run", "--fast", "--mode", "replay", "--recording", bad, "--output",
            folder + "/out",
        ])
        #expect(run.status == 1)
        #expect(run.output.contains("bad.yml"), "\(run.output)")
        #expect(!run.output.contains("output in"))
    }
}
