import DemoReport
import Foundation
import PreviewEngine
import PreviewTrace
import SystemLayer
import Testing
import _FixtureTestSupport

/// `preview-demo run`, what scripts/demo runs after building: the whole demo as a user gets it.
@Suite("The demo (scripts/demo)")
struct DemoTests {
    /// How long it takes is a figure in BENCHMARKS.md ("The demo, end to end"), not a test.
    @Test("As a newcomer runs it (no XDG_RUNTIME_DIR): compositor + client, the whole story, every file")
    func demoRun() throws {
        let output = scratchDirectory() + "/demo output"  // a space, as people's folders have
        // No options but the folder: the default mode (auto → the compositor) on the recordings'
        // clock, in an environment without a runtime folder, as on a fresh machine or in CI.
        let run = try runDemo(
            ["run", "--output", output, "--should-begin-timeout", String(slowClientShouldBeginTimeout)],
            unsetting: ["XDG_RUNTIME_DIR"])
        #expect(run.status == 0, "\(run.output)")

        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("preview-demo: preview-compositor + peek-client on dell-canvas") == true)
        let privateFolder = try #require(
            lines.first { $0.contains("XDG_RUNTIME_DIR is not set: a private runtime folder") }, "\(run.output)")
        let runtime = String(try #require(privateFolder.split(separator: " ").last).dropLast())
        #expect(!FileManager.default.fileExists(atPath: runtime), "\(runtime) left behind")
        // The live view, as plain lines (not a terminal): the Dell pen's 47 ms stroke (libinput's
        // pressure thresholds lift the tip in its pressure dip), the peek, the pop, the let-go,
        // with times from the first event (not the compositor's monotonic clock).
        let phases = lines.filter { $0.hasPrefix("+") }
        #expect(phases.first?.hasPrefix("+0.000s") == true, "\(phases)")
        #expect(phases.allSatisfy { Double($0.dropFirst().prefix { $0 != "s" })! < 60 }, "\(phases)")
        #expect(run.output.contains("peek → commit"))
        #expect(phases.contains { $0.contains("#1 pen") && $0.contains("cancelled (lifted)") }, "\(phases)")
        #expect(phases.contains { $0.contains("#2 pen") && $0.contains("completed (pop)") }, "\(phases)")
        #expect(phases.contains { $0.contains("#3 pen") && $0.contains("cancelled (lifted)") }, "\(phases)")
        #expect(run.output.contains("3 interaction(s): 1 completed, 2 cancelled"))
        #expect(run.output.contains("output in \(output)/"))
        #expect(!run.output.contains("\u{1B}["), "escapes in a log")
        // What the README and docs/demo.md show is what a run prints.
        DocSamples.check(
            sample: try DocSamples.block(in: "README.md", after: "within half a second):"), output: run.output,
            where: "README.md")
        DocSamples.check(
            sample: try DocSamples.block(in: "docs/demo.md", after: "how the client paces its frames):"),
            output: run.output, where: "docs/demo.md")

        for file in ["trace.jsonl", "plot.png", "report.html", "report.md", "client.log", "compositor.log"] {
            #expect(FileManager.default.fileExists(atPath: output + "/" + file), "\(file) missing")
        }
        // The compositor's trace: the short stroke, the pop, then (after Escape took the client
        // back to the grid) a peek on a photo that the user let go: not declined.
        let records = try TraceReader.read(path: output + "/trace.jsonl")
        let stories = InteractionStory.stories(of: records)
        #expect(
            stories.map(\.outcome) == [.cancelled(.lifted), .completed, .cancelled(.lifted)],
            "\(stories.map(\.outcome))")
        #expect(Set(records.compactMap(\.client)) == ["client1"])
        // peek-client's side: it opened the popped photo, and accepted the last press.
        let client = try String(contentsOfFile: output + "/client.log", encoding: .utf8)
        #expect(client.contains("interaction=2 result=opened"), "\(client.suffix(2000))")
        #expect(client.contains("interaction=3 request=accept"), "\(client.suffix(2000))")
        // A normal run logs nothing alarming: the pen's own press during its preview is not "ignored".
        #expect(!client.contains("ignored:"), "\(client.suffix(2000))")

        // Screenshots by the contract, of every interaction, and every picture the report shows exists.
        let shots = ((try? FileManager.default.contentsOfDirectory(atPath: output + "/screenshots")) ?? []).sorted()
        #expect(shots.allSatisfy { $0.range(of: #"^\d{4}-.+\.png$"#, options: .regularExpression) != nil }, "\(shots)")
        #expect(shots.contains { $0.contains("-interaction1-cancelled") }, "\(shots)")
        #expect(shots.contains { $0.contains("-interaction2-completed") }, "\(shots)")
        #expect(shots.contains { $0.contains("-interaction3-cancelled") }, "\(shots)")
        let markdown = try String(contentsOfFile: output + "/report.md", encoding: .utf8)
        #expect(markdown.contains("completed (pop)") && markdown.contains("cancelled (lifted)"))
        for shot in shots { #expect(markdown.contains("(screenshots/\(shot))"), "\(shot) not in the report") }
        for line in markdown.split(separator: "\n") where line.contains("](screenshots/") {
            for part in line.split(separator: "(").dropFirst() {
                let file = part.prefix { $0 != ")" }
                if file.hasSuffix(".png") { #expect(FileManager.default.fileExists(atPath: output + "/" + file)) }
            }
        }
        try checkPictures(in: output + "/screenshots", shots)
        try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: output).deletingLastPathComponent().path)
    }

    /// The pictures tell the story: the pop's detail view is not the grid, Escape brings the grid
    /// back before the second press, the peek card covers the grid's middle, the let-go ends on
    /// the grid.
    func checkPictures(in folder: String, _ shots: [String]) throws {
        func picture(_ moment: String) throws -> Picture {
            let name = try #require(shots.first { $0.hasSuffix("-\(moment).png") }, "no \(moment) in \(shots)")
            return try #require(Picture(path: folder + "/" + name), "\(name) is not a PNG")
        }
        let detail = try picture("interaction2-settled")
        let peekCard = try picture("interaction2-commit-half")
        let pop = try picture("interaction2-completed")
        let secondPress = try picture("interaction3-preview")
        let letGo = try picture("interaction3-settled")
        let peek = try picture("interaction3-preview-half")
        // Mean differences per channel, 0...255 (measured: 64, 0.05, 53, 27, 2).
        #expect(detail.difference(from: letGo) > 30, "the pop did not end in the detail view")
        #expect(secondPress.difference(from: letGo) < 5, "the second press did not begin on the grid")
        let card = peekCard.difference(from: letGo, x: 460, y: 160, width: 360, height: 480)
        #expect(card > 25, "no peek card in the middle: \(card)")
        // `completed` is the moment of the pop (docs/demo.md): still the peek card, not yet the
        // detail view that `settled` shows.
        let popCard = pop.difference(from: letGo, x: 460, y: 160, width: 360, height: 480)
        let popDetail = pop.difference(from: detail)
        #expect(popCard > 25 && popDetail > 30, "completed: card \(popCard), from the detail view \(popDetail)")
        // The second peek: the rest of the grid blurs, the pressed photo (Misty Peaks) stays sharp.
        let blurred = peek.difference(from: letGo, x: 0, y: 60, width: 1280, height: 180)
        let pressed = peek.difference(from: letGo, x: 400, y: 270, width: 120, height: 100)
        #expect(blurred > 10 && pressed < 8, "blurred \(blurred), pressed photo \(pressed)")
    }

    @Test("--mode replay: the engine alone tells the same story, and says it is the engine alone")
    func replayMode() throws {
        let output = scratchDirectory() + "/out"
        let run = try runDemo(["run", "--fast", "--mode", "replay", "--output", output])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.hasPrefix("preview-demo: engine replay only (--mode replay"))
        #expect(run.output.contains("completed (pop)") && run.output.contains("cancelled (lifted)"))
        let stories = InteractionStory.stories(of: try TraceReader.read(path: output + "/trace.jsonl"))
        #expect(stories.map(\.outcome) == [.cancelled(.lifted), .completed, .cancelled(.lifted)])
    }

    @Test("Without the compositor built beside it, auto mode says so and replays the engine")
    func compositorMissing() throws {
        let folder = scratchDirectory()
        let copy = folder + "/preview-demo"
        try FileManager.default.copyItem(atPath: tools.directory + "/preview-demo", toPath: copy)
        // Installed as SwiftPM lays it out: the executable with its resource bundle.
        let bundle = "swift-preview-interaction_BundledRecordings.resources"
        try FileManager.default.copyItem(atPath: tools.directory + "/" + bundle, toPath: folder + "/" + bundle)
        let run = try runTool([copy, "run", "--fast", "--output", folder + "/out"])
        #expect(run.status == 0, "\(run.output)")
        #expect(
            run.output.hasPrefix("preview-demo: engine replay only: preview-compositor and peek-client not built in"),
            "\(run.output)")
        #expect(run.output.contains("cancelled (lifted)"))
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

    @Test("docs/demo.md's own --recording example: a pen that lifts during the commit is a report and exit 0")
    func ownRecordingWithoutAPop() throws {
        let output = scratchDirectory() + "/out"
        let recording = checkout + "/Sources/BundledRecordings/recordings/wacom-cintiq12wx-pen.yml"
        let run = try runDemo(["run", "--fast", "--mode", "replay", "--recording", recording, "--output", output])
        #expect(run.status == 0, "\(run.output)")
        #expect(
            run.output.contains("0 completed") && run.output.contains("no interaction completed in these recordings"))
        #expect(FileManager.default.fileExists(atPath: output + "/report.html"))
    }

    @Test("scripts/demo takes relative --output and --recording from the caller's folder, not the checkout's")
    func scriptPaths() throws {
        // The script in a checkout of its own, its build and install steps stubbed (the built
        // preview-demo stands in for the release one), run from another folder.
        let folder = scratchDirectory()
        let repository = folder + "/checkout"
        let caller = folder + "/caller"
        let stubs = folder + "/bin"
        for path in [repository + "/scripts", repository + "/.build/release", caller, stubs] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        try FileManager.default.copyItem(atPath: checkout + "/scripts/demo", toPath: repository + "/scripts/demo")
        for stub in [repository + "/scripts/install-deps", stubs + "/swift"] {
            try "#!/bin/sh\nexit 0\n".write(toFile: stub, atomically: true, encoding: .utf8)
            chmod(stub, 0o755)
        }
        try FileManager.default.createSymbolicLink(
            atPath: repository + "/.build/release/preview-demo", withDestinationPath: tools.directory + "/preview-demo")
        try FileManager.default.copyItem(
            atPath: checkout + "/Sources/BundledRecordings/recordings/dell-canvas-isdv4-pen.yml",
            toPath: caller + "/mine.yml")
        let log = folder + "/demo.log"
        let path = stubs + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let script = shellQuote(repository + "/scripts/demo")
        let command =
            "cd \(shellQuote(caller)) && exec \(script) --mode replay --fast --recording mine.yml --output out"
        let child = try ChildProcess(["/bin/sh", "-c", command], environment: ["PATH": path], output: .file(log))
        let status = child.wait(timeout: 60)
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(status == 0, "\(output)")
        #expect(FileManager.default.fileExists(atPath: caller + "/out/report.html"), "\(output)")
        #expect(!FileManager.default.fileExists(atPath: repository + "/out"))
    }

    /// preview-demo from the build, with `unsetting` removed from its environment.
    func runDemo(_ arguments: [String], unsetting: [String] = []) throws -> (status: Int32?, output: String) {
        let log = scratchDirectory("demo") + "/output.log"
        let child = try ChildProcess(
            [tools.directory + "/preview-demo"] + arguments, unsetting: unsetting, output: .file(log))
        let status = child.wait(timeout: 120)
        return (status, (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
    }
}
