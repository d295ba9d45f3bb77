import Foundation
import SystemLayer
import Testing

/// The phases, cancel reasons and sources have one list (rules/vocabulary.txt); every copy (the
/// protocol XML, the engine, the client core, both C headers, the GTK and Qt adapters' enums)
/// carries its numbers. scripts/vocabulary reads them all; the adapters' own tests check their
/// typelib and Q_ENUMs at run time with it.
@Suite("Every copy of the vocabulary carries the list's names and numbers")
struct VocabularyTests {
    static func check(_ arguments: [String] = []) throws -> (status: Int32, output: String) {
        let run = try ChildProcess.run(
            ["/usr/bin/python3", SourceTree.root + "/scripts/vocabulary"] + arguments, timeout: 60)
        return (run.status, run.output)
    }

    @Test("Every copy in the tree matches rules/vocabulary.txt")
    func everyCopyMatches() throws {
        let result = try Self.check()
        #expect(result.status == 0, "\n\(result.output)")
    }

    @Test("A copy with another number (GTK's phases as they were) is found")
    func aCopyThatDiffersIsFound() throws {
        let enums = try SourceTree.read("gtk/pi-enums.h")
        let swapped =
            enums
            .replacingOccurrences(of: "PI_PHASE_ACCELERATING = 6", with: "PI_PHASE_ACCELERATING = 7")
            .replacingOccurrences(of: "PI_PHASE_DECLINED = 7", with: "PI_PHASE_DECLINED = 6")
        #expect(swapped != enums)
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("pi-enums-\(UUID().uuidString).h")
        try swapped.write(to: copy, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: copy) }
        let result = try Self.check(["--file", "gtk/pi-enums.h=\(copy.path)"])
        #expect(result.status == 1)
        #expect(result.output.contains("gtk/pi-enums.h (PiPhase): PI_PHASE_ACCELERATING is 7, the vocabulary says 6"))
        #expect(result.output.contains("gtk/pi-enums.h (PiPhase): PI_PHASE_DECLINED is 6, the vocabulary says 7"))
    }
}
