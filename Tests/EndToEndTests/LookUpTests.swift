import Foundation
import SystemLayer
import Testing
import _FixtureTestSupport

/// Look Up in apps that know nothing of the preview protocol: preview-compositor replays a real
/// pen recording over a fixture app whose window is filled with one known word (so the
/// recorded press lands on it), on a private session bus whose accessibility bus and registry
/// answer before the compositor starts (`SessionBus`). The trace records each lookup; the
/// screenshots show the highlight and the panel.
@Suite(.serialized) struct LookUpTests {
    static let fixtures =
        String(Fixtures.directory.dropLast("Sources/BundledRecordings/recordings".count)) + "Tests/Fixtures/lookup/"
    /// The Dell Canvas pen: a stroke lifted at once, then a firm press to completion.
    static let firmPress = Fixtures.path("dell-canvas-isdv4-pen.yml")

    struct LookUpTestError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    struct Run {
        var status: Int32
        var log: String
        var lookups: [[String: Any]]
        var panelFrames: [Int]
        /// The highlight's first frame after each preview began (µs).
        var highlightFrames: [Int]
        var screenshots: [String]
        var directory: String

        /// The lookups that found something before the press ended.
        var found: [[String: Any]] { lookups.filter { $0["outcome"] as? String == "found" } }
    }

    /// preview-compositor with `recording` replayed over `app` (a shell command), Look Up on;
    /// `arguments`: the compositor's own besides (a settings file).
    func run(
        _ app: String, recording: String = firmPress, environment: [String: String] = [:], arguments: [String] = [],
        _ name: String = #function
    ) throws -> Run {
        let bus = try SessionBus()
        let directory = scratchDirectory(name)
        let trace = directory + "/trace.jsonl"
        let result = try ChildProcess.run(
            [
                tools.compositor, "--backend", "headless", "--socket",
                "lookup-\(getpid())-\(UUID().uuidString.prefix(6))",
                "--replay", recording, "--trace", trace, "--screenshot-dir", directory + "/shots", "--lookup", "on",
                "--exit-when-done",
            ] + arguments + ["--run", app],
            environment: [
                "DBUS_SESSION_BUS_ADDRESS": bus.address, "XDG_RUNTIME_DIR": TestRuntimeDirectory.path,
                "GDK_BACKEND": "wayland", "GSK_RENDERER": "cairo", "QT_QPA_PLATFORM": "wayland",
                "QT_LINUX_ACCESSIBILITY_ALWAYS_ON": "1",
            ].merging(environment) { $1 },
            unsetting: ["WAYLAND_DISPLAY", "NO_AT_BRIDGE", "GTK_A11Y"], timeout: 120)
        let lines = ((try? String(contentsOfFile: trace, encoding: .utf8)) ?? "").split(separator: "\n")
        let records = lines.compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        let shots = ((try? FileManager.default.contentsOfDirectory(atPath: directory + "/shots")) ?? []).sorted()
        return Run(
            status: result.status, log: result.output + result.errors,
            lookups: records.filter { $0["event"] as? String == "lookup" },
            panelFrames: records.filter { $0["event"] as? String == "lookup-panel" }.compactMap {
                $0["first_frame_us"] as? Int
            },
            highlightFrames: records.filter { $0["event"] as? String == "lookup-highlight" }.compactMap {
                $0["first_frame_us"] as? Int
            }, screenshots: shots,
            directory: directory)
    }

    /// The recording's first press is the first lookup since preview-lookup started (no press
    /// warmed anything up): it must find its word before the deadline, like every later one.
    /// That press is a light tap: when the answer comes after its lift (not after the
    /// deadline), the word was still found in time and the outcome says `late`.
    func expectFirstPressFound(_ run: Run, _ word: String) {
        let first = run.lookups.first
        #expect(
            first?["interaction"] as? Int == 1 && ["found", "late"].contains(first?["outcome"] as? String)
                && first?["word"] as? String == word,
            "the first press after start did not find its word: \(run.lookups) \(run.log.suffix(2000))")
        #expect((first?["answer_us"] as? Int ?? .max) < 500_000, "\(run.lookups)")
        #expect(!run.highlightFrames.isEmpty, "no highlight's first frame was recorded: \(run.log.suffix(2000))")
    }

    /// Whether a traced lookup's search kept its budget under a `deadline` (ms): preview-lookup
    /// gives up after the deadline less one call's timeout (3/10 of the deadline, 50...1000 ms: at
    /// the default, 500 ms, a search of 350 ms) and a call in flight ends within its timeout, or
    /// twice that for an app it met less than 300 ms ago (libatspi's startup time,
    /// `atspi_set_timeout`: the first lookup in an app), so `lookup_us` (the question read to the
    /// answer written) stays under the deadline and one timeout (650 ms at the default), 100 ms
    /// more with the answer's drawing, on an idle machine. A loaded one stretches the search as it
    /// delays, in the same lookup, the question and the answer between the compositor and
    /// preview-lookup (`answer_us` − `lookup_us`, the peer): that delay is allowed on top, and
    /// nothing of the search's own time hides in it.
    static func searchKeptItsBudget(_ lookup: [String: Any], deadline: Int = 500) -> Bool {
        guard let search = lookup["lookup_us"] as? Int, let answer = lookup["answer_us"] as? Int else { return false }
        let timeout = min(max(deadline * 3 / 10, 50), 1000)
        return search < (deadline + timeout + 100) * 1000 + max(0, answer - search)
    }

    func python(_ script: String, _ arguments: String) -> String {
        "/usr/bin/python3 \(Self.fixtures)\(script) \(arguments)"
    }

    @Test func aFirmPressOnAWordInGTK3ShowsItsDefinition() throws {
        let run = try run(python("gtk3-text.py", "--fill jumps"))
        #expect(run.status == 0, "\(run.log.suffix(3000))")
        let found = try #require(run.found.first, "no lookup found a word: \(run.lookups) \(run.log.suffix(3000))")
        #expect(found["word"] as? String == "jumps")
        #expect(found["definition"] as? String == "noun: a sudden and decisive increase")
        #expect((found["toolkit"] as? String)?.hasPrefix("gtk 3") == true)
        expectFirstPressFound(run, "jumps")
        #expect(run.panelFrames.count == 1, "the panel was not shown once: \(run.log.suffix(3000))")
        #expect(run.screenshots.contains { $0.hasSuffix("lookup-commit.png") }, "\(run.screenshots)")
        #expect(run.log.contains("press "), "the app did not get its press: \(run.log.suffix(2000))")
    }
}

extension LookUpTests {
    @Test func aFirmPressOnAWordInAGTK4TextViewShowsItsBaseForm() throws {
        let run = try run(python("gtk4-textview.py", "--fill geese"))
        #expect(run.status == 0, "\(run.log.suffix(3000))")
        let found = try #require(run.found.first, "no lookup found a word: \(run.lookups) \(run.log.suffix(3000))")
        #expect(found["word"] as? String == "geese")
        #expect((found["definition"] as? String)?.hasPrefix("noun: web-footed long-necked") == true)
        #expect((found["toolkit"] as? String)?.hasPrefix("GTK 4") == true)
        #expect(run.panelFrames.count == 1, "the panel was not shown once: \(run.log.suffix(3000))")
        #expect(run.log.contains("press "), "the app did not get its press: \(run.log.suffix(2000))")
    }

    @Test func aFirmPressOnAWordInAQt6TextEditShowsItsBaseForm() throws {
        let run = try run(python("qt6-textedit.py", "--fill curiosities"))
        #expect(run.status == 0, "\(run.log.suffix(3000))")
        let found = try #require(run.found.first, "no lookup found a word: \(run.lookups) \(run.log.suffix(3000))")
        #expect(found["word"] as? String == "curiosities")
        #expect(found["definition"] as? String == "noun: a state in which you want to learn more about something")
        #expect((found["toolkit"] as? String)?.hasPrefix("Qt 6") == true)
        expectFirstPressFound(run, "curiosities")
        #expect(run.panelFrames.count == 1, "the panel was not shown once: \(run.log.suffix(3000))")
        #expect(run.log.contains("press "), "the app did not get its press: \(run.log.suffix(2000))")
    }

    @Test func aFirmPressOnALinkShowsItsAddress() throws {
        let run = try run(python("gtk3-text.py", "--fill-link"))
        #expect(run.status == 0, "\(run.log.suffix(3000))")
        let found = try #require(run.found.first, "no lookup found a link: \(run.lookups) \(run.log.suffix(3000))")
        #expect(found["link"] as? String == "https://example.org/guide")
        #expect(run.panelFrames.count == 1, "the panel was not shown once: \(run.log.suffix(3000))")
    }
}

/// What must never hold a press or the compositor: every run ends on its own (the compositor
/// answered the replay to its end and exited) and no panel is shown.
extension LookUpTests {
    /// The UC-Logic pen presses to 0.44 at most: below the commit threshold.
    @Test func aLightPressShowsNoPanelAndTheAppGetsItsPress() throws {
        let run = try run(python("gtk3-text.py", "--fill jumps"), recording: Fixtures.path("uclogic-wp5540u-pen.yml"))
        #expect(run.status == 0, "\(run.log.suffix(3000))")
        #expect(run.panelFrames.isEmpty, "a panel was shown: \(run.log.suffix(2000))")
        #expect(!run.screenshots.contains { $0.contains("lookup-commit") }, "\(run.screenshots)")
        #expect(run.log.contains("press "), "the app did not get its press: \(run.log.suffix(2000))")
    }

    @Test func anAppWithoutAccessibilityKeepsItsPress() throws {
        let run = try run("NO_AT_BRIDGE=1 " + python("gtk3-text.py", "--fill jumps"))
        #expect(run.status == 0, "\(run.log.suffix(3000))")
        #expect(run.found.isEmpty && run.panelFrames.isEmpty, "\(run.lookups)")
        #expect(run.log.contains("press "), "the app did not get its press: \(run.log.suffix(2000))")
    }

    /// Two session buses side by side (Look Up suites run in parallel) each keep an accessibility
    /// bus of their own: a new connection to the first one's still reaches it once the second
    /// one is up, and after it ended.
    @Test func sessionBusesSideBySideKeepTheirOwnAccessibilityBus() throws {
        let first = try SessionBus()
        var second: SessionBus? = try SessionBus()
        try SessionBus.askRegistry(first.accessibilityAddress)
        try SessionBus.askRegistry(try #require(second).accessibilityAddress)
        second = nil
        try SessionBus.askRegistry(first.accessibilityAddress)
    }

    /// An accessibility bus that cannot be reached (AT_SPI_BUS_ADDRESS names no socket):
    /// preview-lookup says so and exits (the compositor starts it again later), never ending
    /// inside libatspi; the app keeps its press.
    @Test func withoutAnAccessibilityBusPreviewLookupExitsSayingSo() throws {
        let run = try run(
            "NO_AT_BRIDGE=1 " + python("gtk3-text.py", "--fill jumps"),
            environment: ["AT_SPI_BUS_ADDRESS": "unix:path=/nonexistent/at-spi-bus"])
        #expect(run.status == 0, "\(run.log.suffix(3000))")
        #expect(run.log.contains("preview-lookup: no accessibility bus"), "\(run.log.suffix(3000))")
        #expect(run.log.contains("preview-lookup exited with status 1"), "\(run.log.suffix(3000))")
        #expect(!run.log.contains("dbind-ERROR"), "preview-lookup ended inside libatspi: \(run.log.suffix(3000))")
        #expect(run.found.isEmpty && run.panelFrames.isEmpty, "\(run.lookups)")
        #expect(run.log.contains("press "), "the app did not get its press: \(run.log.suffix(2000))")
    }

    @Test func aHungAppNeverHoldsThePress() throws {
        let started = MonotonicTime.microseconds()
        let run = try run(python("gtk3-text.py", "--fill jumps --hang"))
        #expect(run.status == 0, "\(run.log.suffix(3000))")
        #expect(run.found.isEmpty && run.panelFrames.isEmpty, "\(run.lookups)")
        // Each lookup gives up within its budget (the trace's lookup_us).
        for lookup in run.lookups { #expect((lookup["lookup_us"] as? Int ?? 0) < 1_000_000, "\(lookup)") }
        #expect(MonotonicTime.microseconds() - started < 90_000_000)
    }

    @Test func aMillionCharactersInADeepTreeStayBounded() throws {
        let run = try run(python("gtk4-textview.py", "--fill geese --count 170000 --deep"))
        #expect(run.status == 0, "\(run.log.suffix(3000))")
        #expect(!run.lookups.isEmpty, "no lookup was asked: \(run.log.suffix(2000))")
        for lookup in run.lookups { #expect((lookup["lookup_us"] as? Int ?? 0) < 1_000_000, "\(lookup)") }
    }
}
