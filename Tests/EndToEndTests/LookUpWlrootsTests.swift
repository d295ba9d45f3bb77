import Foundation
import SystemLayer
import Testing
import _FixtureTestSupport

/// Look Up in a host of libpreview-interaction: examples/wlroots-compositor with `--lookup on`
/// (the library starts preview-lookup as a private client of its display; the example draws
/// the highlight as a scene rect and places the panel above the app), the same recordings and
/// fixture apps as preview-compositor's cases. The example skips idle gaps, so its first press
/// comes while the app's accessibility is still cold (a first lookup can miss its deadline on a
/// loaded machine): each recording is played twice and the second press counts as well.
extension LookUpTests {
    struct WlrootsRun {
        var status: Int32
        var log: String
        /// The library's log lines for each answer: "look up #N: found WORD LINK [toolkit] definition".
        var answers: [String]
        var panels: [[String: Any]]
        var completed: Bool
        var screenshot: String
    }

    func runWlroots(_ app: String, recording: String = firmPress, _ name: String = #function) throws -> WlrootsRun {
        if let failure = ParityBuilds.wlroots { throw LookUpTestError(failure) }
        let bus = try SessionBus()
        let directory = scratchDirectory(name)
        let trace = directory + "/trace.jsonl"
        let screenshot = directory + "/lookup-completed.png"
        let result = try ChildProcess.run(
            [
                ParityBuilds.wlrootsCompositor, "--decoder", tools.directory + "/preview-replay", "--replay", recording,
                recording, "--trace", trace, "--lookup", "on", "--lookup-path", tools.directory + "/preview-lookup",
                "--lookup-screenshot", screenshot, "--exit-when-done", "--run", app,
            ],
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
            completed: records.contains { $0["event"] as? String == "lookup-completed" }, screenshot: screenshot)
    }

    @Test func throughTheWlrootsExampleAFirmPressOnAGTK3WordShowsItsDefinition() throws {
        let run = try runWlroots(python("gtk3-text.py", "--fill jumps"))
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
