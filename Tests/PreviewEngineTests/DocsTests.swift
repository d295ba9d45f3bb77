import Foundation
import PreviewEngine
import Testing

/// docs/state-machine.md must draw the machine the code runs.
@Suite("State machine document")
struct DocsTests {
    static func document() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("docs/state-machine.md"), encoding: .utf8)
    }

    @Test("The mermaid diagram names exactly the states of Interaction.State")
    func diagramStates() throws {
        let text = try Self.document()
        let start = try #require(text.range(of: "```mermaid\n"))
        let end = try #require(text.range(of: "```", range: start.upperBound..<text.endIndex))
        var names: Set<String> = []
        for line in text[start.upperBound..<end.lowerBound].split(separator: "\n") {
            guard let arrow = line.range(of: "-->") else { continue }
            let from = line[..<arrow.lowerBound].trimmingCharacters(in: .whitespaces)
            let to = line[arrow.upperBound...].split(separator: ":")[0].trimmingCharacters(in: .whitespaces)
            names.formUnion([from, to].filter { $0 != "[*]" })
        }
        #expect(names == Set(Interaction.State.Kind.allCases.map(\.rawValue)))
    }

    @Test("The threshold table quotes the presets", arguments: Sensitivity.allCases)
    func thresholdTable(sensitivity: Sensitivity) throws {
        let text = try Self.document()
        let row = try #require(
            text.split(separator: "\n").first { $0.hasPrefix("| \(sensitivity.rawValue) ") },
            "no table row for \(sensitivity)")
        let numbers = row.split(separator: "|").dropFirst().compactMap {
            Double($0.trimmingCharacters(in: .whitespaces))
        }
        let t = sensitivity.thresholds
        #expect(numbers == [t.begin, t.commit, t.completeEnter, t.completeLeave])
    }

    @Test("The long-press table quotes the durations")
    func longPressTable() throws {
        let text = try Self.document()
        let row = try #require(text.split(separator: "\n").first { $0.hasPrefix("| long-press duration") })
        let expected = LongPressDuration.allCases.map { "\($0.duration.microseconds / 1_000) ms" }
        let cells = row.split(separator: "|").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(cells == expected)
    }
}
