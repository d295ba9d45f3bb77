import Foundation
import SystemLayer
import Testing
import _FixtureTestSupport

/// The data detectors' actions, end to end in the GTK 3 fixture: a firm press on a phone number
/// shows its card, whose Call hands `tel:` to the user's handler (`xdg-open`, no portal on the
/// bus); a firm press on a date shows its card, whose Add to Calendar hands an iCalendar event
/// to the desktop portal's OpenFile (a stand-in portal on the test's bus records it), not to
/// xdg-open.
@Suite(.serialized) struct LookUpDetectorActionsTests {
    let actions = LookUpActionsTests()

    static func app(_ text: String) -> String {
        "/usr/bin/python3 \(LookUpTests.fixtures)gtk3-text.py --fill-lines \(shellWord(text))"
    }

    static func shellWord(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// The card's first button (blue) on the output, from the screenshot of a firm press on `app`.
    func firstButton(_ app: String, finding value: String) throws -> LookUpMouse.Point {
        let directory = scratchDirectory()
        let run = try actions.run(
            [LookUpTests.firmPress], app: app, path: try actions.handlerFolder(directory), in: directory)
        #expect(run.found.last?["link"] as? String == value, "\(run.records) \(run.log.suffix(3000))")
        let shot = try #require(
            Shot(path: directory + "/shots/" + (actions.screenshot(named: "lookup-completed", in: directory) ?? "")),
            "no screenshot of the completed card: \(run.records) \(run.log.suffix(2000))")
        var box: (minX: Int, minY: Int, maxX: Int, maxY: Int)?
        for y in 0..<shot.height {
            for x in 0..<shot.width where LookUpActionsTests.near(shot.pixel(x, y), (0, 115, 230)) {
                let found = box ?? (x, y, x, y)
                box = (min(found.minX, x), min(found.minY, y), max(found.maxX, x), max(found.maxY, y))
            }
        }
        let button = try #require(box, "no blue button in \(shot.path)")
        return LookUpMouse.Point(x: button.minX + 5, y: (button.minY + button.maxY) / 2)
    }

    @Test func callHandsTheNumberToTheUsersHandler() throws {
        let app = Self.app("+44 20 7946 0958")
        let call = try firstButton(app, finding: "tel:+442079460958")
        let directory = scratchDirectory()
        let handler = try actions.handlerFolder(directory)
        let click = directory + "/click-call.yml"
        try LookUpMouse.recording(clicking: call, then: LookUpActionsTests.margin).write(
            toFile: click, atomically: true, encoding: .utf8)
        let run = try actions.run([LookUpTests.firmPress, click], app: app, path: handler, in: directory)
        #expect(run.status == 0, "\(run.log.suffix(3000))")
        #expect(run.found.last?["definition"] as? String == "phone: +44 20 7946 0958", "\(run.records)")
        let opened = (try? String(contentsOfFile: handler + "/opened", encoding: .utf8)) ?? ""
        #expect(opened == "preview-lookup tel:+442079460958\n", "Call ran: \(opened) \(run.log.suffix(2000))")
    }

    @Test func addToCalendarHandsAnEventToThePortal() throws {
        let text = "March 14, 2025 at 3:30 PM"
        let add = try firstButton(Self.app(text), finding: "2025-03-14T15:30")
        let directory = scratchDirectory()
        let handler = try actions.handlerFolder(directory)
        let record = directory + "/portal"
        let click = directory + "/click-add.yml"
        try LookUpMouse.recording(clicking: add, then: LookUpActionsTests.margin).write(
            toFile: click, atomically: true, encoding: .utf8)
        let app = "/usr/bin/python3 \(LookUpTests.fixtures)stand-in-portal.py \(record) & exec \(Self.app(text))"
        let run = try actions.run([LookUpTests.firmPress, click], app: app, path: handler, in: directory)
        #expect(run.status == 0, "\(run.log.suffix(3000))")
        let calls = (try? String(contentsOfFile: record, encoding: .utf8)) ?? ""
        #expect(calls.hasPrefix("OpenFile BEGIN:VCALENDAR|"), "\(calls) \(run.log.suffix(2000))")
        #expect(calls.contains("|DTSTART:20250314T153000|DTEND:20250314T163000|"), "\(calls)")
        #expect(calls.contains("|SUMMARY:March 14\\, 2025 at 3:30 PM|"), "\(calls)")
        #expect(!FileManager.default.fileExists(atPath: handler + "/opened"), "xdg-open ran beside the portal")
    }
}

/// A path under the press, end to end: a firm press on `~/notes.txt` (the test's home) shows the
/// file's card (its type and first lines) and hands it to GNOME's previewer once the panel is on
/// screen (a stand-in on the test's bus records `ShowFile`); on `~/picture.png` the card has the
/// image's thumbnail; on a link out of the home, only words.
@Suite(.serialized) struct LookUpFilePreviewTests {
    let lookUp = LookUpTests()

    func home() throws -> String {
        let home = scratchDirectory() + "/home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        try "Look Up's first line\nand its second\n".write(
            toFile: home + "/notes.txt", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: home + "/elsewhere.txt", withDestinationPath: "/etc/hostname")
        let script = """
            import cairo
            surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, 300, 200)
            context = cairo.Context(surface)
            context.set_source_rgb(0.9, 0.1, 0.1)
            context.paint()
            surface.write_to_png("\(home)/picture.png")
            """
        _ = try ChildProcess.run(["/usr/bin/python3", "-c", script], timeout: 30)
        return home
    }

    @Test func aTextFileShowsItsCardAndGoesToThePreviewer() throws {
        let home = try home()
        let record = home + "/../previewer"
        let app =
            "/usr/bin/python3 \(LookUpTests.fixtures)stand-in-portal.py \(record) --previewer & exec "
            + lookUp.python("gtk3-text.py", "--fill-lines '~/notes.txt'")
        let run = try lookUp.run(app, environment: ["HOME": home])
        let found = try #require(run.found.last, "\(run.lookups) \(run.log.suffix(3000))")
        #expect(found["link"] as? String == home + "/notes.txt", "\(found)")
        #expect(
            (found["definition"] as? String)?.hasPrefix("file: plain text document · 36 bytes · ") == true, "\(found)")
        #expect(run.panelFrames.count == 1)
        let calls = (try? String(contentsOfFile: record, encoding: .utf8)) ?? ""
        #expect(calls == "ShowFile file://\(home)/notes.txt\n", "\(calls) \(run.log.suffix(2000))")
    }

    @Test func anImageShowsItsThumbnail() throws {
        let home = try home()
        let run = try lookUp.run(
            lookUp.python("gtk3-text.py", "--fill-lines '~/picture.png'"), environment: ["HOME": home])
        let found = try #require(run.found.last, "\(run.lookups) \(run.log.suffix(3000))")
        #expect((found["definition"] as? String)?.hasPrefix("file: PNG image · ") == true, "\(found)")
        let shot = try #require(
            Shot(
                path: run.directory + "/shots/" + (run.screenshots.last { $0.hasSuffix("lookup-completed.png") } ?? ""))
        )
        var red = 0
        for y in 0..<shot.height {
            for x in 0..<shot.width where LookUpActionsTests.near(shot.pixel(x, y), (230, 26, 26)) { red += 1 }
        }
        // The thumbnail: 96 × 64 pixels of the picture's red.
        #expect(red >= 96 * 64 * 9 / 10, "\(red) red pixels in \(shot.path)")
    }

    @Test func aLinkOutOfTheHomeIsJustWords() throws {
        let home = try home()
        let run = try lookUp.run(
            lookUp.python("gtk3-text.py", "--fill-lines '~/elsewhere.txt'"), environment: ["HOME": home])
        #expect(run.found.allSatisfy { ($0["definition"] as? String)?.hasPrefix("file:") != true }, "\(run.lookups)")
    }
}
