import Foundation
import Testing
import _FixtureTestSupport

/// A hostile accessibility tree keeps every limit of preview-lookup (a search's time, the
/// accessibles visited, the text read): an app of its own on the accessibility bus
/// (`hostile-tree.py`) whose every accessible claims 100,000 children that are the same eight
/// again (huge and cyclic), names none at the point, and whose text is a billion characters
/// answering 4 MB for any range, or no text at all, fast or 40 ms late on every call. The
/// compositor answers the whole recording, each lookup ends within its budget (the deadline's,
/// 350 ms at the default, and a call in flight: `LookUpTests.searchKeptItsBudget`), and the
/// press is the app's. A slow app (a small tree, every call 50 ms late) shows the budget
/// following the user's deadline.
@Suite(.serialized) struct LookUpLimitsTests {
    let lookUp = LookUpTests()

    func expectBounded(_ run: LookUpTests.Run, deadline: Int = 500) {
        #expect(run.status == 0, "\(run.log.suffix(3000))")
        #expect(!run.lookups.isEmpty, "no lookup was asked: \(run.log.suffix(2000))")
        for lookup in run.lookups {
            #expect(LookUpTests.searchKeptItsBudget(lookup, deadline: deadline), "\(lookup)")
        }
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

    /// Every call 50 ms late: the word needs more than the default's 350 ms of search (about
    /// 20 calls: 0.7–1.2 s here), which a deadline of 2000 ms (a search of 1400 ms, calls of
    /// 600 ms) gives it. An answer after the press was lifted is `late` but found all the same.
    @Test func aSlowAppIsFoundWithinALongerDeadline() throws {
        let settings = scratchDirectory() + "/settings"
        try "lookup-deadline = 2000\n".write(toFile: settings, atomically: true, encoding: .utf8)
        let run = try lookUp.run(lookUp.python("hostile-tree.py", "--late 50"), arguments: ["--settings", settings])
        expectBounded(run, deadline: 2000)
        let found = try #require(
            run.lookups.first { $0["word"] as? String == "jumps" }, "\(run.lookups) \(run.log.suffix(2000))")
        #expect((found["lookup_us"] as? Int ?? 0) > 350_000, "found within the default's search: \(found)")
        #expect((found["answer_us"] as? Int ?? .max) < 2_000_000, "after the deadline: \(found)")
    }

    /// The same app under the default deadline: its search gives up within the default's budget.
    @Test func aSlowAppUnderTheDefaultDeadlineKeepsItsBudget() throws {
        let run = try lookUp.run(lookUp.python("hostile-tree.py", "--late 50"))
        expectBounded(run)
        #expect(run.found.isEmpty && run.panelFrames.isEmpty, "\(run.lookups)")
    }
}
