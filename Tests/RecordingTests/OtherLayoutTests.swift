import Foundation
import LibinputRecording
import SystemLayer
import Testing
import _FixtureTestSupport

/// The same recording re-saved by PyYAML (`yaml.safe_dump(yaml.safe_load(f))`: keys sorted,
/// every list in block style, long strings folded), as a user's script would write it.
func pyyamlResave(_ path: String) throws -> String {
    let run = try ChildProcess.run(
        [
            "/usr/bin/python3", "-c", "import yaml,sys; yaml.safe_dump(yaml.safe_load(open(sys.argv[1])), sys.stdout)",
            path,
        ],
        input: .inherit, errors: .inherit)
    #expect(run.status == 0, "/usr/bin/python3 with PyYAML (scripts/install-deps installs python3-yaml)")
    return run.output
}

@Suite("Recordings in another YAML layout (the general reader)")
struct OtherLayoutTests {
    @Test("Every fixture re-saved by PyYAML decodes to the same events as the original", arguments: Fixtures.all)
    func pyyaml(name: String) throws {
        let path = try scratchFile(try pyyamlResave(Fixtures.path(name)))
        defer { removeScratch(path) }
        #expect(!(try String(contentsOfFile: path, encoding: .utf8)).contains("- ["), "block lists, not libinput's")
        let original = try decodeAll(Fixtures.path(name))
        let resaved = try decodeAll(path)
        #expect(try Recording.open(path).readAsGeneralYAML)
        #expect(!(try Recording.open(Fixtures.path(name)).readAsGeneralYAML), "libinput's layout streams")
        #expect(resaved.frames == original.frames)
        #expect(resaved.eventLines == original.eventLines)
        #expect(resaved.events == original.events)
        #expect(resaved.kinds == original.kinds)
    }

    @Test("A bad event in the other layout: file:line of the value, strict and lenient")
    func badEvent() throws {
        var text = try pyyamlResave(Fixtures.path("wacom-cintiq13hd-pen.yml"))
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let index = try #require(lines.firstIndex { $0.hasPrefix("    - - ") })
        lines[index] = lines[index].replacingOccurrences(of: "- - ", with: "- - x")
        text = lines.joined(separator: "\n")
        let path = try scratchFile(text)
        defer { removeScratch(path) }
        #expect(throws: RecordingError.self) { try decodeAll(path) }
        do {
            _ = try decodeAll(path)
        } catch let error as RecordingError {
            #expect(error.file == path)
            #expect(error.line == index + 1)
            #expect(error.reason.contains("expected an integer"), "\(error)")
        }
        let warnings = WarningLog()
        let lenient = try decodeAll(path, options: warnings.options)
        #expect(lenient.frames > 0)
        #expect(warnings.all.contains { $0.line == index + 1 })
    }

    @Test("Flow maps and lists on several lines, quoted keys, a document marker: still a recording")
    func flowLayout() throws {
        let text = """
            %YAML 1.1
            ---
            {"version": 1, ndevices: 1,
             devices: [{evdev: {name: 'Flow Pen', id: [3, 1, 2, 3],
                       codes: {0: [0], 1: [320, 330], 3: [0, 1, 24]},
                       absinfo: {0: [0, 100, 0, 0, 0], 1: [0, 100, 0, 0, 0], 24: [0, 10, 0, 0, 0]},
                       properties: []},
               events: [{evdev: [[0, 0, 1, 320, 1], [0, 0, 0, 0, 0],
                                 [0, 10, 1, 330, 1], [0, 10, 3, 24, 9], [0, 10, 0, 0, 0]]},
                        {evdev: [[0, 900, 1, 330, 0], [0, 900, 3, 24, 0], [0, 900, 0, 0, 0]]}]}]}
            ...
            """
        let path = try scratchFile(text)
        defer { removeScratch(path) }
        let stats = try decodeAll(path)
        #expect(stats.frames == 3)
        #expect(stats.contacts == 1)
        #expect(stats.peakForce > 0.8)
    }

    /// The time to the error is a figure in BENCHMARKS.md (RecordingBenchmarks); a hang would
    /// meet the time limit.
    @Test("Aliases that expand beyond the file's size are an error, not a hang", .timeLimit(.minutes(1)))
    func billionLaughs() throws {
        var text = "a0: &a0 [0, 0, 0, 0, 0]\n"
        for level in 1..<30 {
            text += "a\(level): &a\(level) [*a\(level - 1), *a\(level - 1), *a\(level - 1)]\n"
        }
        text += "version: 1\ndevices: [{evdev: {name: x}, events: [{evdev: *a29}]}]\n"
        let path = try scratchFile(text)
        defer { removeScratch(path) }
        #expect(throws: RecordingError.self) { try decodeAll(path) }
    }

    @Test("Nesting deeper than libyaml's 1000 levels is an error, not a stack overflow")
    func deepNesting() throws {
        let deep = String(repeating: "[", count: 2_000) + String(repeating: "]", count: 2_000)
        let path = try scratchFile("version: 1\ndevices: [{evdev: {name: x}, events: \(deep)}]\n")
        defer { removeScratch(path) }
        #expect(throws: RecordingError.self) { try decodeAll(path) }
    }
}
