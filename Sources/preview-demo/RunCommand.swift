import ArgumentParser
import BundledRecordings
import DemoReport
import Foundation
import PreviewEngine
import PreviewTrace

/// The README's main job: compositor + peek-client + a real pen recording, shown live, then
/// written up (screenshots, trace, plot, report).
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the headless demo: compositor, peek-client and recordings; live view; report.",
        discussion: """
            Without --recording it plays the bundled Dell Canvas pen (a 47 ms stroke that libinput's \
            pressure thresholds lift, then a full peek and pop into the photo's detail view), a \
            keyboard's Escape (back to the grid) and the UC-Logic pen (a peek let go: cancelled). Without a usable XDG_RUNTIME_DIR it makes a private one for the run.
            """)

    @Option(
        name: .customLong("recording"), parsing: .upToNextOption,
        help: ArgumentHelp("libinput-record files to replay, in order.", valueName: "file"))
    var recordings: [String] = []

    @Option(help: ArgumentHelp("Where to write screenshots, trace and report.", valueName: "dir"))
    var output = "demo-output"

    @Flag(
        help: """
            Skip the idle time between gestures (preview-compositor --fast: gestures keep their \
            recorded timing); with --mode replay, print the whole trace at once.
            """)
    var fast = false

    @Option(
        help: """
            How: compositor (preview-compositor + peek-client), replay (preview-replay's engine only), \
            auto (the compositor when it is built next to preview-demo).
            """)
    var mode: Mode = .auto

    @Option(
        help: ArgumentHelp(
            "Passed to preview-compositor: how long peek-client may take to answer should-begin (default 150).",
            valueName: "ms"))
    var shouldBeginTimeout: Int?

    @Option(help: "Give up after this many seconds.")
    var timeout: Double = 120

    enum Mode: String, ExpressibleByArgument, CaseIterable { case auto, compositor, replay }

    func run() throws {
        let started = Date()
        Interruption.install()
        let files: [String]
        if recordings.isEmpty {
            guard let bundled = Self.bundledRecordings() else {
                Terminal.error(
                    "preview-demo: the bundled recordings are not beside this executable (\(BundledRecordings.expectedLocation)): "
                        + "copy that folder with it, or give --recording FILE...")
                throw ExitCode(1)
            }
            files = bundled
        } else {
            files = recordings
        }
        for file in files where !FileManager.default.isReadableFile(atPath: file) {
            Terminal.error("preview-demo: cannot read \(file)")
            throw ExitCode(1)
        }
        let tools = Tools.beside(CommandLine.arguments[0])
        let missing = tools.missingForCompositor.joined(separator: " and ")
        let useCompositor: Bool
        switch mode {
        case .compositor:
            guard missing.isEmpty else {
                Terminal.error("preview-demo: \(missing) not built in \(tools.directory) (scripts/demo builds them)")
                throw ExitCode(1)
            }
            useCompositor = true
        case .replay: useCompositor = false
        case .auto: useCompositor = missing.isEmpty
        }
        // The compositor's socket needs a runtime folder; a fresh machine or CI job has none.
        var runtime: RuntimeDirectory?
        if useCompositor {
            do {
                runtime = try RuntimeDirectory()
            } catch {
                Terminal.error("preview-demo: \(error)")
                throw ExitCode(1)
            }
            if let runtime, runtime.isPrivate { Interruption.track(folder: runtime.path) }
        }
        defer { runtime?.remove() }

        let directory = URL(fileURLWithPath: output).standardizedFileURL.path
        let screenshots = directory + "/screenshots"
        do {
            try Self.prepare(directory: directory, screenshots: screenshots)
        } catch {
            Terminal.error("preview-demo: cannot prepare \(directory): \(error.localizedDescription)")
            throw ExitCode(1)
        }
        let tracePath = directory + "/trace.jsonl"
        let names = files.map { URL(fileURLWithPath: $0).lastPathComponent }.joined(separator: ", ")
        let clock = fast ? "fast" : "on the recordings' clock"
        var header: String
        switch (useCompositor, mode) {
        case (true, _):
            header = "preview-demo: preview-compositor + peek-client on \(names), \(clock)\n"
            if let runtime, let reason = runtime.reason {
                header += "  (\(reason): a private runtime folder for this run, removed at exit: \(runtime.path))\n"
            }
        case (false, .replay):
            header =
                "preview-demo: engine replay only (--mode replay: no compositor, no client, no screenshots) "
                + "on \(names), \(clock)\n"
        case (false, _):
            header =
                "preview-demo: engine replay only: \(missing) not built in \(tools.directory) "
                + "(scripts/demo builds them), so no compositor, no client, no screenshots; on \(names), \(clock)\n"
        }
        Terminal.write(header + "\n")

        let records: [TraceRecord]
        var notes: [String] = []
        do {
            if useCompositor {
                var run = CompositorRun(
                    tools: tools, recordings: files, directory: directory, screenshots: screenshots, fast: fast,
                    timeout: timeout)
                run.environment = runtime?.environment ?? [:]
                run.shouldBeginTimeout = shouldBeginTimeout
                records = try run.perform(tracePath: tracePath)
                notes.append(
                    "preview-compositor (headless) with peek-client; recordings replayed \(fast ? "fast" : "in real time")"
                )
            } else {
                records = try ReplayRun(recordings: files, fast: fast).perform(tracePath: tracePath)
                notes.append("engine replay only (preview-replay's path): no compositor, no client, no screenshots")
            }
        } catch {
            Terminal.error("preview-demo: \(error)")
            if useCompositor { Terminal.error("preview-demo: (--mode replay shows the engine alone, without them)") }
            throw ExitCode(1)
        }
        let elapsed = Date().timeIntervalSince(started)
        notes.append("recordings, one after the other: \(names)")
        notes.append("run time \(String(format: "%.1f", elapsed)) s")

        var input = ReportInput(records: records, outputDirectory: directory)
        input.screenshotDirectory = useCompositor ? screenshots : nil
        input.notes = notes
        let written: ReportOutput
        do {
            written = try Report.write(input)
        } catch {
            Terminal.error("preview-demo: \(error)")
            throw ExitCode(1)
        }
        let stories = written.stories
        let completed = stories.filter { $0.outcome == .completed }.count
        let cancelled = stories.filter { if case .cancelled = $0.outcome { true } else { false } }.count
        let shown = written.screenshots.count
        Terminal.write(
            """

            \(stories.count) interaction(s): \(completed) completed, \(cancelled) cancelled; \
            \(shown) screenshot(s); \(String(format: "%.1f", Date().timeIntervalSince(started))) s
            output in \(directory)/
              report.html  report.md  plot.png  trace.jsonl\(shown > 0 ? "  screenshots/ (\(shown) PNG)" : "")

            """)
        // The bundled story ends in a pop; the user's own recordings may hold none (a peek let
        // go is a result too), and their report is written all the same.
        guard completed >= 1 else {
            guard recordings.isEmpty else {
                Terminal.write("(no interaction completed in these recordings: no pop to show)\n")
                return
            }
            Terminal.error("preview-demo: no interaction completed: the demo did not show a peek and pop")
            throw ExitCode(1)
        }
    }

    /// The bundled recordings that tell the story: a peek that pops into the photo's detail view,
    /// Escape back to the grid (as a user would before pressing the next photo), a peek let go.
    /// They ship as the package's resources (BundledRecordings), beside the executable.
    static func bundledRecordings() -> [String]? {
        let names = ["dell-canvas-isdv4-pen.yml", "handwritten-usb-keyboard-escape.yml", "uclogic-wp5540u-pen.yml"]
        let paths = names.compactMap(BundledRecordings.path)
        return paths.count == names.count ? paths : nil
    }

    /// A clean output folder: old screenshots and reports go, anything else stays.
    static func prepare(directory: String, screenshots: String) throws {
        let files = FileManager.default
        try files.createDirectory(atPath: screenshots, withIntermediateDirectories: true)
        for name in try files.contentsOfDirectory(atPath: screenshots) where name.hasSuffix(".png") {
            try files.removeItem(atPath: screenshots + "/" + name)
        }
        for name in ["trace.jsonl", "plot.png", "report.html", "report.md", "client.log", "compositor.log"] {
            try? files.removeItem(atPath: directory + "/" + name)
        }
    }
}
