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
