import Foundation
import Testing
import _FixtureTestSupport

/// A hostile accessibility tree keeps every limit of preview-lookup (a search's time, the
/// accessibles visited, the text read): an app of its own on the accessibility bus
/// (`hostile-tree.py`) whose every accessible claims 100,000 children that are the same eight
/// again (huge and cyclic), names none at the point, and whose text is a billion characters
/// answering 4 MB for any range, or no text at all, fast or 40 ms late on every call. The
/// compositor answers the whole recording, each lookup ends within its budget (350 ms, and a
/// call in flight: `LookUpTests.searchKeptItsBudget`), and the press is the app's.
@Suite(.serialized) struct LookUpLimitsTests {
    let lookUp = LookUpTests()

    func expectBounded(_ run: LookUpTests.Run) {
        #expect(run.status == 0, "\(run.log.suffix(3000))")
        #expect(!run.lookups.isEmpty, "no lookup was asked: \(run.log.suffix(2000))")
        for lookup in run.lookups { #expect(LookUpTests.searchKeptItsBudget(lookup), "\(lookup)") }
        #expect(run.log.contains("press "), "the app did not get its press: \(run.log.suffix(2000))")
    }

    @Test func aBillionCharactersAnsweringMegabytes() throws {
        let run = try lookUp.run(lookUp.python("hostile-tree.py", ""))
        expectBounded(run)
        // What is read of the text is the range asked for: the word around the offset, no more.
        for found in run.found { #expect((found["word"] as? String ?? "").count <= 256, "\(found)") }
    }

    @Test func aHugeCyclicTreeWithoutText() throws {
        let run = try lookUp.run(lookUp.python("hostile-tree.py", "--no-text"))
        expectBounded(run)
        #expect(run.found.isEmpty && run.panelFrames.isEmpty, "\(run.lookups)")
    }

    @Test func aHugeCyclicTreeAnsweringLate() throws {
        let run = try lookUp.run(lookUp.python("hostile-tree.py", "--no-text --slow"))
        expectBounded(run)
        #expect(run.found.isEmpty && run.panelFrames.isEmpty, "\(run.lookups)")
    }
}
