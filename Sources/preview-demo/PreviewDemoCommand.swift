import ArgumentParser
import DemoReport
import Foundation
import PreviewEngine
import ToolOptions

/// The demo's tools: `run` (compositor + client + live view + report, what scripts/demo calls),
/// `report` (plot and report from a finished trace), `watch` (the live view over JSON lines).
@main
struct PreviewDemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview-demo",
        abstract: "The headless demo: live phase view, force/progress plot, HTML and Markdown report.",
        version: ToolVersion.current,
        subcommands: [RunCommand.self, ReportCommand.self, WatchCommand.self],
        defaultSubcommand: RunCommand.self)
}

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report", abstract: "Write plot.png, report.html and report.md from a trace.")

    @Option(help: ArgumentHelp("The JSON-lines trace.", valueName: "file"))
    var trace: String

    @Option(help: ArgumentHelp("The compositor's screenshot folder.", valueName: "dir"))
    var screenshots: String?

    @Option(help: ArgumentHelp("Where to write the report.", valueName: "dir"))
    var output = "demo-output"

    @OptionGroup(title: "The settings the trace was made with") var engine: EngineSettings

    @Option(help: "The report's title.")
    var title = "Preview interaction demo"

    func run() throws {
        do {
            var input = ReportInput(records: try TraceReader.read(path: trace), outputDirectory: output)
            input.screenshotDirectory = screenshots
            input.configuration = engine.configuration
            input.title = title
            let written = try Report.write(input)
            print("report: \(written.html)\nreport: \(written.markdown)\nplot:   \(written.plot)")
        } catch {
            Terminal.error("preview-demo: \(error)")
            throw ExitCode(1)
        }
    }
}

struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch", abstract: "Show a JSON-lines trace (stdin or a file/FIFO) as phases and gauges.")

    @Argument(help: ArgumentHelp("The trace (default: standard input).", valueName: "file"))
    var trace: String?

    func run() throws {
        let handle: FileHandle
        if let trace {
            guard let opened = FileHandle(forReadingAtPath: trace) else {
                Terminal.error("preview-demo: cannot read \(trace)")
                throw ExitCode(1)
            }
            handle = opened
        } else {
            handle = .standardInput
        }
        var view = LiveView(isTerminal: Terminal.isTerminal)
        TraceFollower.follow(handle) { record in Terminal.write(view.take(record)) }
        Terminal.write(view.finish())
    }
}
