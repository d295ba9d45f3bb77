import DemoReport
import Foundation
import SystemLayer
import Testing
import ToolOptions

/// Runs a built tool with `arguments`, from `directory`, with `input` on its standard input;
/// waits for its exit.
func runBuiltTool(
    _ arguments: [String], in directory: String? = nil, input: String? = nil
) throws -> (status: Int32, out: String, err: String) {
    let run = try ChildProcess.run(
        arguments, directory: directory, input: input.map { .bytes(Array($0.utf8)) } ?? .discard)
    return (run.status, run.output, run.errors)
}

/// The checkout, for docs/man.
let checkout: String = {
    var path = #filePath
    for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
    return path
}()

@Suite("The tools' command lines: the habits of libinput's tools")
struct ToolsCommandLineTests {
    static let names = ["preview-replay", "preview-compositor", "peek-client", "preview-demo", "minimal-preview-app"]
    static let fixtures = checkout + "/Sources/BundledRecordings/recordings/"

    @Test("--version on every tool prints the project's version", arguments: names)
    func version(tool: String) throws {
        let result = try runBuiltTool([tools.directory + "/" + tool, "--version"])
        #expect(result.status == 0)
        #expect(result.out == ToolVersion.current + "\n")
    }

    @Test(
        "One name per setting: --sensitivity and --long-press wherever the engine runs",
        arguments: ["preview-replay", "preview-compositor"])
    func settingNames(tool: String) throws {
        let help = try runBuiltTool([tools.directory + "/" + tool, "--help"]).out
        #expect(help.contains("--sensitivity <sensitivity>"))
        #expect(help.contains("--long-press <long-press>"))
        #expect(!help.contains("--preset"), "the old name is accepted, not shown")
    }

    @Test("preview-replay --preset is still accepted as the old name of --sensitivity")
    func presetAlias() throws {
        let file = Self.fixtures + "uclogic-wp5540u-pen.yml"
        let replay = tools.directory + "/preview-replay"
        let old = try runBuiltTool([replay, "--preset", "light", file])
        let new = try runBuiltTool([replay, "--sensitivity", "light", file])
        let medium = try runBuiltTool([replay, file])
        #expect(old.status == 0 && new.status == 0)
        #expect(old.out == new.out)
        #expect(new.out != medium.out, "light is not the default")
    }

    @Test("preview-replay - reads standard input: the same trace as the file")
    func standardInput() throws {
        let file = Self.fixtures + "dell-canvas-isdv4-pen.yml"
        let replay = tools.directory + "/preview-replay"
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let piped = try runBuiltTool([replay, "--format", "json", "-"], input: text)
        let direct = try runBuiltTool([replay, "--format", "json", file])
        #expect(piped.status == 0, "\(piped.err)")
        #expect(piped.out == direct.out)
        let bad = try runBuiltTool(
            [replay, "-"], input: "version: 1\ndevices:\n- evdev: {name: x}\n  events:\n  - evdev:\n    - [0, 0, 3]\n")
        #expect(bad.status == 1)
        #expect(bad.err.hasPrefix("preview-replay: <stdin>:6"), "\(bad.err)")
        let twice = try runBuiltTool([replay, "-", "-"], input: "")
        #expect(twice.status == 64)
    }

    @Test("The man pages in docs/man are the argument parsers' (scripts/man regenerates them)", arguments: names)
    func manPage(tool: String) throws {
        let page = try String(contentsOfFile: checkout + "/docs/man/\(tool).1", encoding: .utf8)
        let dump = try runBuiltTool([tools.directory + "/" + tool, "--experimental-dump-help"])
        #expect(dump.status == 0)
        let info = try JSONSerialization.jsonObject(with: Data(dump.out.utf8)) as? [String: Any]
        var names = Set<String>()
        var abstracts: [String] = []
        var commands = [(info?["command"] as? [String: Any]) ?? [:]]
        // The dump lists a `help` subcommand for every tool; only those with subcommands have one.
        func subcommands(of command: [String: Any]) -> [[String: Any]] {
            ((command["subcommands"] as? [[String: Any]]) ?? []).filter { $0["commandName"] as? String != "help" }
        }
        while let command = commands.popLast() {
            if let abstract = command["abstract"] as? String { abstracts.append(abstract) }
            commands += subcommands(of: command)
            for argument in (command["arguments"] as? [[String: Any]]) ?? [] {
                guard argument["shouldDisplay"] as? Bool ?? true else { continue }
                for name in (argument["names"] as? [[String: Any]]) ?? [] {
                    if name["kind"] as? String == "long", let text = name["name"] as? String { names.insert(text) }
                }
            }
        }
        #expect(!names.isEmpty)
        for name in names.sorted() where name != "help" && name != "version" {
            #expect(page.contains("Fl -\(name)"), "\(tool).1 lacks --\(name): run scripts/man")
        }
        // Every option the page documents still exists.
        let documented = page.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "Fl -") else { return nil }
            return String(line[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "-" })
        }
        for name in Set(documented) where name != "help" && name != "version" {
            #expect(
                names.contains(name), "\(tool).1 documents --\(name), which the tool no longer has: run scripts/man")
        }
        for abstract in abstracts {
            #expect(page.contains(abstract.prefix(30)), "\(tool).1 has the abstract '\(abstract)': run scripts/man")
        }
        // A tool without subcommands takes no `subcommand` argument and has no `help` one
        // (`preview-replay help` would open a file named help).
        if subcommands(of: (info?["command"] as? [String: Any]) ?? [:]).isEmpty {
            #expect(!page.contains(".Ar subcommand") && !page.contains(".It Em help"), "\(tool).1: run scripts/man")
        }
        // mdoc as mandoc's linter wants it: no warnings at all.
        let lint = try runBuiltTool([
            "/usr/bin/mandoc", "-T", "lint", "-W", "warning", checkout + "/docs/man/\(tool).1",
        ])
        #expect(lint.status == 0 && lint.out.isEmpty && lint.err.isEmpty, "\(tool).1:\n\(lint.out)\(lint.err)")
    }

    @Test("--help on every tool prints its usage and exits 0, without running the tool", arguments: names)
    func help(tool: String) throws {
        let result = try runBuiltTool([tools.directory + "/" + tool, "--help"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("USAGE: \(tool)"), "\(result.out)")
    }

    @Test("From another folder: the demo finds its recordings as resources, not through the checkout")
    func outsideTheCheckout() throws {
        let folder = scratchDirectory()
        let run = try runBuiltTool(
            [tools.directory + "/preview-demo", "run", "--fast", "--mode", "replay", "--output", "out"], in: folder)
        #expect(run.status == 0, "\(run.err)")
        #expect(FileManager.default.fileExists(atPath: folder + "/out/report.html"))
        #expect(run.out.contains("dell-canvas-isdv4-pen.yml"))
        let replay = try runBuiltTool(
            [tools.directory + "/preview-replay", "--version"], in: folder)
        #expect(replay.status == 0)
    }

    @Test("An executable copied without its resources says what is missing, instead of stopping")
    func withoutResources() throws {
        let folder = scratchDirectory()
        try FileManager.default.copyItem(atPath: tools.directory + "/preview-demo", toPath: folder + "/preview-demo")
        let run = try runBuiltTool([folder + "/preview-demo", "run", "--fast", "--output", folder + "/out"])
        #expect(run.status == 1)
        #expect(run.err.contains("the bundled recordings are not beside this executable"), "\(run.err)")
        #expect(run.err.contains("--recording"))
    }
}
