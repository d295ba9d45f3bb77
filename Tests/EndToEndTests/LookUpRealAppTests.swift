import DemoReport
import Foundation
import LibinputRecording
import SystemLayer
import Testing
import UmockdevHarness
import _FixtureTestSupport

/// Look Up where people read: Firefox ESR, Chromium and LibreOffice Writer, each on a page or
/// document written here, in preview-compositor headless. A real app maps its window long before
/// its page is there, so the pen comes through the real libinput (umockdev's testbed), whose
/// stream starts once the app's accessibility tree shows the text (`ready-when-readable.py`,
/// which also reports what the app says of its input: the pages log their pointer events into
/// the page, Writer moves its text caret). Nothing in the apps is set for the test but what the
/// compositor's session gives every app while Look Up is on (docs/look-up.md).
@Suite(.serialized, .enabled(if: Testbed.available, "needs umockdev-run and mount namespaces (unshare -m)"))
struct LookUpRealAppTests {
    enum App: String {
        case firefox, chromium, writer

        var name: String {
            switch self {
            case .firefox: "Firefox"
            case .chromium: "Chromium"
            case .writer: "LibreOffice Writer"
            }
        }
    }

    static let firmPress = LookUpTests.firmPress
    /// The UC-Logic pen presses to 0.44 at most: below the commit threshold.
    static let lightPress = Fixtures.path("uclogic-wp5540u-pen.yml")

    struct Run {
        var base: LookUpTests.Run
        /// What the app said of its input (ready-when-readable.py's `app-input:` lines).
        var appInput: [String]
        var output: String
    }

    /// A page whose words fill the window in a large font (the recorded press lands on one); it
    /// logs its pointer events in its title and in a line at the bottom (Chromium tells AT-SPI of
    /// the title's change only, Firefox of both), and keeps its links' clicks (the recording's
    /// first stroke is a tap: it would leave the page). Once its listeners are in, its window has
    /// the focus and a frame of the page was drawn (the second animation frame begins), the line
    /// says `listening`: the stream waits for that too, as a person waits to see the page.
    static func page(_ body: String) -> String {
        """
        <!doctype html><html><head><meta charset="utf-8"><title>look up</title>
        <style>body{margin:8px;font:40px/1.5 sans-serif} \(logStyle)</style>
        </head><body><p>\(body)</p>\(logScript)
        </body></html>
        """
    }

    /// What a page's log line says once it takes input (`page`).
    static let listening = "listening"
    /// A page's log line, small in the bottom right corner (the recorded presses land elsewhere),
    /// and the script that writes the page's pointer events and `listening` into it.
    static let logStyle = "#log{position:fixed;bottom:0;right:0;font:10px sans-serif}"
    static let logScript = """
        <div id="log">log</div>
        <script>const log = document.getElementById("log").firstChild;
        addEventListener("pointerdown", e => { const said = " pointerdown " + e.pointerType + " " +
        Math.round(e.clientX) + " " + Math.round(e.clientY); document.title += said; log.appendData(said); });
        addEventListener("click", e => e.preventDefault());
        const drawn = () => requestAnimationFrame(() => requestAnimationFrame(() => log.appendData(" \(listening)")));
        if (document.hasFocus()) drawn(); else addEventListener("focus", drawn, { once: true });</script>
        """

    /// A Writer document (flat ODF) of one paragraph in a large font.
    static func document(_ paragraph: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" \
        xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" \
        xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" \
        xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" \
        xmlns:xlink="http://www.w3.org/1999/xlink" office:version="1.3" \
        office:mimetype="application/vnd.oasis.opendocument.text">
        <office:automatic-styles><style:style style:name="P1" style:family="paragraph">\
        <style:text-properties fo:font-size="40pt" fo:font-family="DejaVu Sans"/></style:style></office:automatic-styles>
        <office:body><office:text><text:p text:style-name="P1">\(paragraph)</text:p></office:text></office:body>
        </office:document>
        """
    }

    static func repeated(_ text: String, _ count: Int) -> String {
        Array(repeating: text, count: count).joined(separator: " ")
    }

    /// The app's command on `file`, with a profile of its own in `directory` (no first-run pages).
    static func command(_ app: App, file: String, directory: String) throws -> [String] {
        switch app {
        case .firefox:
            let profile = directory + "/firefox"
            try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
            try """
            user_pref("browser.shell.checkDefaultBrowser", false);
            user_pref("browser.startup.homepage_override.mstone", "ignore");
            user_pref("datareporting.policy.dataSubmissionEnabled", false);
            user_pref("toolkit.telemetry.reportingpolicy.firstRun", false);
            user_pref("browser.aboutwelcome.enabled", false);
            user_pref("app.update.enabled", false);
            """.write(toFile: profile + "/user.js", atomically: true, encoding: .utf8)
            return ["firefox-esr", "--no-remote", "--profile", profile, "file://" + file]
        case .chromium:
            // Root needs --no-sandbox; --test-type keeps its warning bar away. Chromium builds the
            // page's accessibility tree only once asked; --force-renderer-accessibility has it at once.
            return [
                "chromium", "--ozone-platform=wayland", "--no-first-run", "--no-default-browser-check",
                "--user-data-dir=" + directory + "/chromium", "--disable-gpu", "--no-sandbox", "--test-type",
                "--force-renderer-accessibility", "file://" + file,
            ]
        case .writer:
            let profile = directory + "/libreoffice/user"
            try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
            try """
            <?xml version="1.0" encoding="UTF-8"?>
            <oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" \
            xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
            <item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="ShowTipOfTheDay" oor:op="fuse">\
            <value>false</value></prop></item>
            <item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="FirstRun" oor:op="fuse">\
            <value>false</value></prop></item>
            </oor:items>
            """.write(toFile: profile + "/registrymodifications.xcu", atomically: true, encoding: .utf8)
            return [
                "soffice", "--writer", "--norestore", "--nologo",
                "-env:UserInstallation=file://" + directory + "/libreoffice", file,
            ]
        }
    }

    /// preview-compositor (Look Up on, the pen through the real libinput) over `app` showing
    /// `content` (a page, or a Writer document); the stream starts once `readyText` is readable
    /// (and a page listens for input). With `told`, the app ends only once it told of input that
    /// says it (or a minute after the stream): its answer may come seconds after the press.
    func run(
        _ app: App, _ content: String, readyText: String, recording: String = firmPress,
        environment: [String: String] = [:], told: String? = nil,
        readyLimitSeconds: Double = LibinputTestbed.readyLimitSeconds, name: String = #function
    ) throws -> Run {
        func once(_ name: String) throws -> Run {
            try runOnce(
                app, content, readyText: readyText, recording: recording, environment: environment, told: told,
                readyLimitSeconds: readyLimitSeconds, name: name)
        }
        do {
            return try once(name)
        } catch let miss as NotReadable {
            // Seen once in a full parallel run: Chromium started, never showed a tree, and a run
            // of the same test alone then read it in 9 s. The app's start, not the lookup under
            // test: a second miss fails.
            print("LookUpRealAppTests: \(miss); starting \(app.name) once more")
            return try once(name + "-again")
        }
    }

    /// The app never became readable: nothing of the lookup was tried.
    struct NotReadable: Error, CustomStringConvertible { var description: String }

    private func runOnce(
        _ app: App, _ content: String, readyText: String, recording: String, environment: [String: String],
        told: String?, readyLimitSeconds: Double, name: String
    ) throws -> Run {
        let bus = try LookUpTests.SessionBus()
        let directory = scratchDirectory(name)
        let runtime = directory + "/runtime"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        chmod(runtime, 0o700)
        let file = directory + (app == .writer ? "/document.fodt" : "/page.html")
        try content.write(toFile: file, atomically: true, encoding: .utf8)
        let ready = directory + "/ready"
        let done = directory + "/told"
        let trace = directory + "/trace.jsonl"
        let shots = directory + "/shots"
        let appCommand =
            ["/usr/bin/python3", LookUpTests.fixtures + "ready-when-readable.py"]
            + (app == .writer ? [] : ["--also", Self.listening]) + (told.map { ["--told", $0, done] } ?? [])
            + [ready, readyText] + (try Self.command(app, file: file, directory: directory))
        let settings = [
            "XDG_RUNTIME_DIR": runtime, "DBUS_SESSION_BUS_ADDRESS": bus.address, "HOME": directory,
            "GDK_BACKEND": "wayland", "MOZ_ENABLE_WAYLAND": "1", "SAL_USE_VCLPLUGIN": "gtk3",
            "LANG": "en_US.UTF-8",
        ].merging(environment) { $1 }
        let command =
            ["/usr/bin/env", "-u", "WAYLAND_DISPLAY", "-u", "DISPLAY", "-u", "NO_AT_BRIDGE"]
            + settings.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            + [
                tools.compositor, "--backend", "headless", "--libinput", "--lookup", "on", "--trace", trace,
                "--screenshot-dir", shots, "--run", appCommand.map(shellQuote).joined(separator: " "),
            ]
        let device = try TestbedDevice(recording: try Recording.open(recording))
        var options = LibinputTestbed.Options()
        options.readyFile = ready
        options.doneFile = told.map { _ in done }
        options.readyLimitSeconds = readyLimitSeconds
        let live = try LibinputTestbed.runLive(device, command: command, options: options)
        // Kept beside the trace and screenshots for whoever reads a failure.
        try? (live.output + "\n" + live.log).write(toFile: directory + "/run.log", atomically: true, encoding: .utf8)
        // Readable after the runner's limit is too late: the stream has played to a page not there.
        guard FileManager.default.fileExists(atPath: ready), !live.log.contains(ready + " never appeared") else {
            throw NotReadable(
                description: "\(app.name) did not become readable over AT-SPI in \(Int(readyLimitSeconds)) s: "
                    + Self.unreadable(live.output + live.log, readyText))
        }
        let records = ((try? String(contentsOfFile: trace, encoding: .utf8)) ?? "").split(separator: "\n")
            .compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        func frames(_ event: String) -> [Int] {
            records.filter { $0["event"] as? String == event }.compactMap { $0["first_frame_us"] as? Int }
        }
        let base = LookUpTests.Run(
            status: live.status ?? -1, log: live.output + live.log,
            lookups: records.filter { $0["event"] as? String == "lookup" }, panelFrames: frames("lookup-panel"),
            highlightFrames: frames("lookup-highlight"),
            screenshots: ((try? FileManager.default.contentsOfDirectory(atPath: shots)) ?? []).sorted(),
            directory: directory)
        let input = live.output.split(separator: "\n").filter { $0.hasPrefix("app-input: ") }.map {
            String($0.dropFirst("app-input: ".count))
        }
        return Run(base: base, appInput: input, output: live.output)
    }

    /// Why the app's text never showed: ready-when-readable.py's own line (no accessibility bus),
    /// or the text missing from the tree, with the end of the log.
    static func unreadable(_ log: String, _ readyText: String) -> String {
        let said = log.split(separator: "\n").first { $0.hasPrefix("ready-when-readable: no accessibility bus") }
        return said.map(String.init)
            ?? "\"\(readyText)\" never showed in its accessibility tree: \(log.suffix(2000))"
    }

    /// The firm press found `word` with `definition` and showed the panel once. Its first frame
    /// comes within two output frames (60 Hz) of the commit crossing on an idle machine
    /// (BENCHMARKS.md); the test allows four, as the team's machine runs several builds at once.
    func expectDefinition(_ run: Run, _ word: String, _ definition: String, toolkit: String) throws {
        let log = run.base.log.suffix(3000)
        let found = try #require(run.base.found.last, "no lookup found a word: \(run.base.lookups) \(log)")
        #expect(found["word"] as? String == word, "\(found)")
        #expect(found["definition"] as? String == definition, "\(found)")
        #expect((found["toolkit"] as? String)?.hasPrefix(toolkit) == true, "\(found)")
        #expect(run.base.panelFrames.count == 1, "the panel was not shown once: \(log)")
        #expect(run.base.panelFrames.allSatisfy { $0 <= 4 * 16_667 }, "\(run.base.panelFrames)")
        #expect(run.base.screenshots.contains { $0.hasSuffix("lookup-completed.png") }, "\(run.base.screenshots)")
        #expect(!run.appInput.isEmpty, "the app said nothing of its input: \(run.output.suffix(2000))")
    }
}

extension LookUpRealAppTests {
    static let words = page(repeated("jumps", 400))
    static let links = page(repeated(#"<a href="https://example.org/guide">guidebook</a>"#, 300))

    @Test func firefoxAFirmPressOnAWordShowsItsDefinition() throws {
        let run = try run(.firefox, Self.words, readyText: "jumps jumps", told: "pointerdown")
        try expectDefinition(run, "jumps", "noun: a sudden and decisive increase", toolkit: "Gecko")
        #expect(run.appInput.contains { $0.contains("pointerdown") }, "\(run.appInput) \(run.output.suffix(1500))")
    }

    @Test func firefoxAFirmPressOnALinkShowsItsAddress() throws {
        let run = try run(.firefox, Self.links, readyText: "guidebook")
        let found = try #require(run.base.found.last, "\(run.base.lookups) \(run.base.log.suffix(3000))")
        #expect(found["link"] as? String == "https://example.org/guide", "\(found)")
        #expect(run.base.panelFrames.count == 1)
    }

    @Test func firefoxALightPressShowsNothingAndThePageGetsIt() throws {
        let run = try run(
            .firefox, Self.words, readyText: "jumps jumps", recording: Self.lightPress, told: "pointerdown")
        #expect(run.base.panelFrames.isEmpty, "a panel was shown: \(run.base.log.suffix(2000))")
        #expect(run.appInput.contains { $0.contains("pointerdown") }, "\(run.appInput) \(run.output.suffix(1500))")
    }

    @Test func chromiumAFirmPressOnAWordShowsItsDefinition() throws {
        let run = try run(.chromium, Self.words, readyText: "jumps jumps", told: "pointerdown")
        try expectDefinition(run, "jumps", "noun: a sudden and decisive increase", toolkit: "Chromium")
        #expect(run.appInput.contains { $0.contains("pointerdown") }, "\(run.appInput) \(run.output.suffix(1500))")
    }

    @Test func chromiumAFirmPressOnALinkShowsItsAddress() throws {
        let run = try run(.chromium, Self.links, readyText: "guidebook")
        let found = try #require(run.base.found.last, "\(run.base.lookups) \(run.base.log.suffix(3000))")
        #expect(found["link"] as? String == "https://example.org/guide", "\(found)")
        #expect(run.base.panelFrames.count == 1)
    }

    @Test func chromiumALightPressShowsNothingAndThePageGetsIt() throws {
        let run = try run(
            .chromium, Self.words, readyText: "jumps jumps", recording: Self.lightPress, told: "pointerdown")
        #expect(run.base.panelFrames.isEmpty, "a panel was shown: \(run.base.log.suffix(2000))")
        #expect(run.appInput.contains { $0.contains("pointerdown") }, "\(run.appInput) \(run.output.suffix(1500))")
    }

    /// A page of 100,000 accessibles (each word its own element): every lookup stays within its
    /// budget (350 ms at the default deadline, and a call in flight: `LookUpTests.searchKeptItsBudget`).
    /// Whether the word is found in time is Firefox's: its replies slow to 80–300 ms each on such
    /// a page on the loaded team machine, where it takes up to two minutes to load, lay out and
    /// draw the page (the stream waits five).
    @Test func firefoxAPageOf100000Nodes() throws {
        let page = Self.page(Self.repeated("<span>jumps</span>", 100_000))
        let run = try run(.firefox, page, readyText: "jumps", readyLimitSeconds: 300)
        #expect(run.base.status == 0, "\(run.base.log.suffix(3000))")
        #expect(!run.base.lookups.isEmpty, "\(run.base.log.suffix(3000))")
        for lookup in run.base.lookups { #expect(LookUpTests.searchKeptItsBudget(lookup), "\(lookup)") }
    }

    /// A page of one datum a line, centred, the lines close (the recorded press lands on its
    /// middle, never between two lines), with `page`'s log line. Ready texts are ASCII:
    /// umockdev-run takes no other.
    static func lines(_ text: String) -> String {
        """
        <!doctype html><html><head><meta charset="utf-8"><title>look up</title>
        <style>body{margin:8px;font:40px/1.1 sans-serif;text-align:center} \(logStyle)</style></head><body>
        \(Array(repeating: "<div>\(text)</div>", count: 20).joined())\(logScript)</body></html>
        """
    }

    /// Real text in the browsers and Writer, in the user's locale's formats (the compositor's
    /// LANG, which preview-lookup inherits): a German date in Firefox, a French phone number in
    /// Chromium, an address of mail in Writer.
    @Test func firefoxAGermanDate() throws {
        let run = try run(
            .firefox, Self.lines("Am 14. März 2025 um 15:30 Uhr"), readyText: "2025 um",
            environment: ["LANG": "de_DE.UTF-8"])
        let found = try #require(run.base.found.last, "\(run.base.lookups) \(run.base.log.suffix(3000))")
        #expect(found["link"] as? String == "2025-03-14T15:30", "\(found)")
        #expect(found["word"] as? String == "14. März 2025 um 15:30 Uhr", "\(found)")
        #expect(found["definition"] as? String == "date: Freitag 14 März 2025, 15:30", "\(found)")
    }

    @Test func chromiumAFrenchPhoneNumber() throws {
        let run = try run(
            .chromium, Self.lines("Tél. 01 42 68 53 00"), readyText: "53 00", environment: ["LANG": "fr_FR.UTF-8"])
        let found = try #require(run.base.found.last, "\(run.base.lookups) \(run.base.log.suffix(3000))")
        #expect(found["link"] as? String == "tel:+33142685300", "\(found)")
        #expect(found["definition"] as? String == "phone: +33 1 42 68 53 00", "\(found)")
    }

    @Test func writerAnEmailAddress() throws {
        let run = try run(
            .writer, Self.document(Self.repeated("jane.doe@example.org", 60)), readyText: "example.org")
        let found = try #require(run.base.found.last, "\(run.base.lookups) \(run.base.log.suffix(3000))")
        #expect(found["link"] as? String == "mailto:jane.doe@example.org", "\(found)")
    }

    static let writerWords = document(repeated("jumps", 300))
    static let writerLinks = document(
        repeated(#"<text:a xlink:type="simple" xlink:href="https://example.org/guide">guidebook</text:a>"#, 200))

    @Test func writerAFirmPressOnAWordShowsItsDefinition() throws {
        let run = try run(.writer, Self.writerWords, readyText: "jumps jumps", told: "caret")
        try expectDefinition(run, "jumps", "noun: a sudden and decisive increase", toolkit: "gtk 3")
        #expect(run.appInput.contains("caret"), "\(run.appInput)")
    }

    @Test func writerAFirmPressOnALinkShowsItsAddress() throws {
        let run = try run(.writer, Self.writerLinks, readyText: "guidebook")
        let found = try #require(run.base.found.last, "\(run.base.lookups) \(run.base.log.suffix(3000))")
        #expect(found["link"] as? String == "https://example.org/guide", "\(found)")
        #expect(run.base.panelFrames.count == 1)
    }

    @Test func writerALightPressShowsNothingAndTheDocumentGetsIt() throws {
        let run = try run(
            .writer, Self.writerWords, readyText: "jumps jumps", recording: Self.lightPress, told: "caret")
        #expect(run.base.panelFrames.isEmpty, "a panel was shown: \(run.base.log.suffix(2000))")
        #expect(run.appInput.contains("caret"), "\(run.appInput) \(run.output.suffix(2000))")
    }
}
