import Foundation
import SystemLayer
import Testing
import _FixtureTestSupport

/// Look Up in a host of libpreview-interaction: examples/wlroots-compositor with `--lookup on`
/// (the library starts preview-lookup as a private client of its display; the example draws
/// the highlight as a scene rect and places the panel above the app), the same recordings and
/// fixture apps as preview-compositor's cases. The example skips idle gaps, so its first press
/// comes while the app's accessibility is still cold (a first lookup can miss its deadline on a
/// loaded machine): each recording is played twice and the second press counts as well. What
/// these cases show is the example's drawing and placing, not the deadline (LookupDeadlineTests):
/// the user's setting gives a lookup 2 s, so an app the full parallel run starves still answers.
extension LookUpTests {
    struct WlrootsRun {
        var status: Int32
        var log: String
        /// The library's log lines for each answer: "look up #N: found WORD LINK [toolkit] definition".
        var answers: [String]
        var panels: [[String: Any]]
        /// While a panel grows into view: the height shown, of its whole height.
        var shown: [(height: Int, of: Int)]
        var completed: Bool
        var screenshot: String
        /// Taken while the first panel grew into view (`growing: true`).
        var growingScreenshot: String
    }

    func runWlroots(
        _ app: String, recording: String = firmPress, growing: Bool = false, _ name: String = #function
    ) throws -> WlrootsRun {
        if let failure = ParityBuilds.wlroots { throw LookUpTestError(failure) }
        let bus = try SessionBus()
        let directory = scratchDirectory(name)
        let trace = directory + "/trace.jsonl"
        let screenshot = directory + "/lookup-completed.png"
        let growingScreenshot = directory + "/lookup-growing.png"
        let result = try ChildProcess.run(
            [
                ParityBuilds.wlrootsCompositor, "--decoder", tools.directory + "/preview-replay", "--replay", recording,
                recording, "--trace", trace, "--lookup", "on", "--lookup-path", tools.directory + "/preview-lookup",
                "--lookup-screenshot", screenshot, "--lookup-deadline", "2000", "--exit-when-done", "--run", app,
            ] + (growing ? ["--lookup-growing-screenshot", growingScreenshot] : []),
            environment: [
                "DBUS_SESSION_BUS_ADDRESS": bus.address, "XDG_RUNTIME_DIR": directory, "GDK_BACKEND": "wayland",
                "GSK_RENDERER": "cairo",
            ],
            unsetting: ["WAYLAND_DISPLAY", "NO_AT_BRIDGE", "GTK_A11Y"], timeout: 120)
        let log = result.output + result.errors
        let records = ((try? String(contentsOfFile: trace, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        let answers = log.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "look up #") else { return nil }
            return String(line[range.lowerBound...])
        }
        return WlrootsRun(
            status: result.status, log: log, answers: answers,
            panels: records.filter { $0["event"] as? String == "lookup-panel" },
            shown: records.filter { $0["event"] as? String == "lookup-panel-shown" }.map {
                ($0["height"] as? Int ?? 0, $0["of"] as? Int ?? 0)
            },
            completed: records.contains { $0["event"] as? String == "lookup-completed" }, screenshot: screenshot,
            growingScreenshot: growingScreenshot)
    }

    @Test func throughTheWlrootsExampleAFirmPressOnAGTK3WordShowsItsDefinition() throws {
        let run = try runWlroots(python("gtk3-text.py", "--fill jumps"), growing: true)
        #expect(run.status == 0, "\(run.log.suffix(3000))")
        let found = try #require(
            run.answers.first { $0.contains(": found ") }, "no lookup found a word: \(run.log.suffix(3000))")
        #expect(found.contains("found jumps") && found.contains("noun: a sudden and decisive increase"), "\(found)")
        #expect(!run.panels.isEmpty, "the panel was not placed: \(run.panels) \(run.log.suffix(2000))")
        let panel = try #require(run.panels.last)
        #expect((panel["width"] as? Int ?? 0) > 100 && (panel["height"] as? Int ?? 0) > 40, "\(panel)")
        #expect(run.completed, "the lookup did not complete")
        #expect(FileManager.default.fileExists(atPath: run.screenshot), "no screenshot: \(run.log.suffix(2000))")
        #expect(run.log.contains("press "), "the app did not get its press: \(run.log.suffix(2000))")
        expectGrewIntoView(run.shown, height: panel["height"] as? Int ?? 0)
        try expectGrowingScreenshot(run, panel: panel)
    }

    /// The screenshot taken while the panel grew shows its top as the whole panel does, and
    /// not yet its bottom (the app is still seen there).
    func expectGrowingScreenshot(_ run: WlrootsRun, panel: [String: Any]) throws {
        let growing = try #require(
            Shot(path: run.growingScreenshot), "no screenshot while growing: \(run.log.suffix(2000))")
        let whole = try #require(Shot(path: run.screenshot))
        let x = panel["x"] as? Int ?? 0, y = panel["y"] as? Int ?? 0
        let width = panel["width"] as? Int ?? 0, height = panel["height"] as? Int ?? 0
        func differing(_ rows: Range<Int>) -> Int {
            var count = 0
            for row in rows where row >= 0 && row < min(growing.height, whole.height) {
                for column in x..<min(x + width, growing.width, whole.width) where column >= 0 {
                    let a = growing.pixel(column, row), b = whole.pixel(column, row)
                    if max(abs(a.r - b.r), abs(a.g - b.g), abs(a.b - b.b)) > 40 { count += 1 }
                }
            }
            return count
        }
        let top = differing(y..<(y + height / 4)), bottom = differing((y + height * 7 / 8)..<(y + height))
        #expect(top < width * height / 4 / 100, "the top differs from the whole panel's: \(top) pixels")
        #expect(bottom > 100, "the bottom was already shown: \(bottom) pixels differ")
    }

    /// The panel grew into view with the commit's progress: a third of it at once, then more
    /// (never less within one panel), whole at the end.
    func expectGrewIntoView(_ shown: [(height: Int, of: Int)], height: Int) {
        guard let first = shown.first else {
            Issue.record("the panel did not grow into view")
            return
        }
        #expect(first.of == height && first.height < height, "\(shown)")
        #expect(abs(first.height - height / 3) <= height / 10, "a third at once: \(shown)")
        var previous = 0
        for step in shown where step.of == height {
            #expect(step.height >= previous || step.height <= first.height, "it shrank: \(shown)")
            previous = step.height
        }
        #expect(shown.contains { $0.height < height && $0.height > first.height }, "it grew: \(shown)")
        #expect(shown.last.map { $0.height == $0.of } == true, "whole at the end: \(shown)")
    }

    @Test func throughTheWlrootsExampleAFirmPressOnALinkShowsItsAddress() throws {
        let run = try runWlroots(python("gtk3-text.py", "--fill-link"))
        #expect(run.status == 0, "\(run.log.suffix(3000))")
        let found = try #require(
            run.answers.first { $0.contains(": found ") }, "no lookup found a link: \(run.log.suffix(3000))")
        #expect(found.contains("https://example.org/guide"), "\(found)")
        #expect(!run.panels.isEmpty, "the panel was not placed: \(run.log.suffix(2000))")
    }

    @Test func throughTheWlrootsExampleALightPressShowsNothing() throws {
        let run = try runWlroots(
            python("gtk3-text.py", "--fill jumps"), recording: Fixtures.path("uclogic-wp5540u-pen.yml"))
        #expect(run.status == 0, "\(run.log.suffix(3000))")
        #expect(run.panels.isEmpty && !run.completed, "a panel was shown: \(run.log.suffix(2000))")
        #expect(run.log.contains("press "), "the app did not get its press: \(run.log.suffix(2000))")
    }
}

/// The user's preview key (a held Menu key, no force at all) over an app without the protocol
/// looks up the word at the focused text's caret; here the app opens its context menu on the
/// same key, which takes the focus, and the caret of its editable text is used.
extension LookUpTests {
    @Test func thePreviewKeyLooksUpTheWordAtTheTextCaret() throws {
        let run = try run(
            python("gtk4-textview.py", "--fill geese --caret swans"),
            recording: Fixtures.path("handwritten-usb-keyboard-menu-hold.yml"))
        #expect(run.status == 0, "\(run.log.suffix(3000))")
        let found = try #require(run.found.first, "no lookup found a word: \(run.lookups) \(run.log.suffix(3000))")
        #expect(found["word"] as? String == "swans", "the lookup was not at the caret: \(found)")
        #expect((found["definition"] as? String)?.hasPrefix("noun: stately heavy-bodied aquatic bird") == true)
        #expect(run.panelFrames.count == 1, "the panel was not shown once: \(run.log.suffix(3000))")
        #expect(run.screenshots.contains { $0.hasSuffix("lookup-completed.png") }, "\(run.screenshots)")
    }
}
