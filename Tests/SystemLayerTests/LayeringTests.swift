import Foundation
import SystemLayer
import Testing

/// The layering is data (rules/layers.txt): the package graph and the code itself (every Swift
/// import, every C and C++ include of the project's headers) may have no edge the rules do not
/// allow, and the docs show the rules themselves.
@Suite("The package graph and the code follow rules/layers.txt")
struct LayeringTests {
    /// Each target (or folder outside the package, ending in "/") and what it may depend on, in
    /// the file's order; the tier, forbid and cycles lines are scripts/layers's to read.
    static func table() throws -> [(target: String, allowed: [String])] {
        try SourceTree.read("rules/layers.txt").split(separator: "\n").compactMap { raw in
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            guard !line.hasPrefix("tier "), !line.hasPrefix("forbid "), !line.hasPrefix("cycles "),
                let colon = line.firstIndex(of: ":")
            else { return nil }
            let target = String(line[..<colon]).trimmingCharacters(in: .whitespaces)
            let allowed = line[line.index(after: colon)...].split(separator: " ").map(String.init)
            return (target, allowed)
        }
    }

    /// scripts/layers with `arguments`: its status and what it printed.
    static func layers(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let run = try ChildProcess.run(
            ["/usr/bin/python3", SourceTree.root + "/scripts/layers"] + arguments, timeout: 300)
        return (run.status, run.output)
    }

    /// The package's targets and their dependencies, as `swift package dump-package` reads the
    /// manifest (its own scratch folder: the running `swift test` holds the package's .build).
    static func packageGraph() throws -> [String: [String]] {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("layering-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let run = try ChildProcess.run(
            ["swift", "package", "--package-path", SourceTree.root, "--scratch-path", scratch, "dump-package"],
            timeout: 300)
        guard run.status == 0 else { throw SourceTree.TreeError("dump-package failed: \(run.errors)") }
        struct Manifest: Decodable {
            struct Target: Decodable {
                let name: String
                let dependencies: [[String: [String?]]]
            }
            let targets: [Target]
        }
        let manifest = try JSONDecoder().decode(Manifest.self, from: Data(run.output.utf8))
        var graph: [String: [String]] = [:]
        for target in manifest.targets {
            // Every kind of dependency (byName, target, product) starts with the name.
            graph[target.name] = target.dependencies.compactMap { $0.values.first?.first ?? nil }
        }
        return graph
    }

    static let begin =
        "<!-- rules/layers.txt as a table (LayeringTests checks it; edit the file, then scripts/layers) -->"
    static let end = "<!-- end of rules/layers.txt -->"

    /// Edges the table does not allow, targets it lacks, rows without a target.
    static func violations(graph: [String: [String]], table: [(target: String, allowed: [String])]) -> [String] {
        let rows = Dictionary(table.map { ($0.target, Set($0.allowed)) }, uniquingKeysWith: { $0.union($1) })
        var found: [String] = []
        for (target, dependencies) in graph.sorted(by: { $0.key < $1.key }) {
            guard let allowed = rows[target] else {
                found.append("\(target): no line in rules/layers.txt (add one: what it may import)")
                continue
            }
            for dependency in dependencies where !allowed.contains(dependency) {
                found.append("\(target) → \(dependency): not allowed by rules/layers.txt")
            }
        }
        for row in table where graph[row.target] == nil && !row.target.hasSuffix("/") {
            found.append("\(row.target): in rules/layers.txt but not a target of Package.swift")
        }
        return found
    }

    @Test("Every dependency in Package.swift is one rules/layers.txt allows, and every target has its line")
    func theGraphFollowsTheTable() throws {
        let found = Self.violations(graph: try Self.packageGraph(), table: try Self.table())
        #expect(found.isEmpty, "\n\(found.joined(separator: "\n"))")
    }

    @Test("A dependency the table lacks, or a target without a line, is found")
    func theCheckCanFail() {
        let table = [(target: "PreviewEngine", allowed: [String]()), (target: "Gone", allowed: [])]
        let graph = ["PreviewEngine": ["Foundation"], "New": []]
        #expect(
            Self.violations(graph: graph, table: table) == [
                "New: no line in rules/layers.txt (add one: what it may import)",
                "PreviewEngine → Foundation: not allowed by rules/layers.txt",
                "Gone: in rules/layers.txt but not a target of Package.swift",
            ])
    }

    @Test("Every import and include in the code is an edge rules/layers.txt allows, and no folder's parts form a cycle")
    func theCodeFollowsTheRules() throws {
        let result = try Self.layers(["--check"])
        #expect(result.status == 0, "\n\(result.output)")
    }

    @Test("An import a line lacks, and a cycle the rules do not name, are found")
    func theCodeCheckCanFail() throws {
        let rules = try SourceTree.read("rules/layers.txt")
        let narrower =
            rules
            .replacingOccurrences(
                of: "CLibraryRuntime PreviewClientCore PreviewClientWire", with: "CLibraryRuntime PreviewClientWire"
            )
            .replacingOccurrences(of: "cycles qt/: previewinteraction surfacecontext", with: "")
        #expect(narrower != rules)
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("layers-\(UUID().uuidString).txt")
        try narrower.write(to: copy, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: copy) }
        let result = try Self.layers(["--rules", copy.path, "--check"])
        #expect(result.status == 1)
        #expect(
            result.output.contains(
                "Sources/ClientLibrary/ClientContext.swift: import PreviewClientCore: ClientLibrary → PreviewClientCore"
            ))
        #expect(
            result.output.contains("qt/: its parts include each other in a cycle: previewinteraction, surfacecontext"))
    }

    @Test(
        "CONTRIBUTING.md and docs/ARCHITECTURE.md show the table as it is",
        arguments: ["CONTRIBUTING.md", "docs/ARCHITECTURE.md"])
    func theDocsShowTheTable(_ document: String) throws {
        let text = try SourceTree.read(document)
        let expected = try Self.layers(["--print"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let start = text.range(of: Self.begin),
            let stop = text.range(of: Self.end, range: start.upperBound..<text.endIndex)
        else {
            Issue.record("\(document) lacks the table between \(Self.begin) and \(Self.end)")
            return
        }
        let shown = text[start.upperBound..<stop.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(shown == expected, "\(document): the table differs from rules/layers.txt; run scripts/layers")
    }
}
