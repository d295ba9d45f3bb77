import Foundation
import SystemLayer
import Testing

/// The layering is data (rules/layers.txt): the package graph may have no edge the table does
/// not allow, and the docs show the table itself.
@Suite("The package graph follows rules/layers.txt")
struct LayeringTests {
    /// Each target and what it may depend on, in the file's order.
    static func table() throws -> [(target: String, allowed: [String])] {
        try SourceTree.read("rules/layers.txt").split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#"), let colon = line.firstIndex(of: ":") else { return nil }
            let target = String(line[..<colon]).trimmingCharacters(in: .whitespaces)
            let allowed = line[line.index(after: colon)...].split(separator: " ").map(String.init)
            return (target, allowed)
        }
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

    /// The table as the docs show it: one row per module, what it may import.
    static func markdown(_ table: [(target: String, allowed: [String])]) -> String {
        var lines = ["| module | may import |", "|---|---|"]
        for (target, allowed) in table {
            lines.append("| `\(target)` | \(allowed.isEmpty ? "nothing" : allowed.joined(separator: ", ")) |")
        }
        return lines.joined(separator: "\n")
    }

    static let begin = "<!-- rules/layers.txt as a table (LayeringTests checks it; edit the file, then this) -->"
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
        for row in table where graph[row.target] == nil {
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

    @Test(
        "CONTRIBUTING.md and docs/ARCHITECTURE.md show the table as it is",
        arguments: ["CONTRIBUTING.md", "docs/ARCHITECTURE.md"])
    func theDocsShowTheTable(_ document: String) throws {
        let text = try SourceTree.read(document)
        let expected = Self.markdown(try Self.table())
        guard let start = text.range(of: Self.begin),
            let stop = text.range(of: Self.end, range: start.upperBound..<text.endIndex)
        else {
            Issue.record("\(document) lacks the table between \(Self.begin) and \(Self.end)")
            return
        }
        let shown = text[start.upperBound..<stop.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(shown == expected, "\(document): the table differs from rules/layers.txt; it should read:\n\(expected)")
    }
}
