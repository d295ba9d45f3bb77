import Foundation
import SystemLayer
import Testing
import _FixtureTestSupport

/// The link panel's buttons, end to end: a recorded pen press on a link in the GTK 3 fixture app
/// shows the panel; a mouse (a recording written here, aimed at the button) clicks Open, which
/// runs the user's handler (`xdg-open`, a script of this test's first on the compositor's PATH:
/// the test process's own environment is untouched) with the link's address; a second press and
/// a click on Copy link put the address on the clipboard, read back by `wl-paste`.
@Suite(.serialized) struct LookUpActionsTests {
    static let link = "https://example.org/guide"
    static let app = "/usr/bin/python3 \(LookUpTests.fixtures)gtk3-text.py --fill-link"

    struct Run {
        var status: Int32
        var log: String
        var records: [[String: Any]]
        var directory: String

        var found: [[String: Any]] {
            records.filter { $0["event"] as? String == "lookup" && $0["outcome"] as? String == "found" }
        }
        var panelFrames: Int { records.filter { $0["event"] as? String == "lookup-panel" }.count }
        /// The lines the app printed for its clicks at `point` (window coordinates).
        func appClicks(at point: LookUpMouse.Point) -> Int {
            log.split(separator: "\n").filter { $0 == "press \(point.x) \(point.y)" }.count
        }
    }

    /// preview-compositor with Look Up on, `recordings` replayed in turn over `app` (a shell
    /// command; --fast: idle time skipped, gestures at their recorded pace), `path` first on the
    /// compositor's PATH.
    func run(_ recordings: [String], app: String, path: String, in directory: String) throws -> Run {
        let bus = try LookUpTests.SessionBus()
        let trace = directory + "/trace.jsonl"
        let inherited = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let result = try ChildProcess.run(
            [
                tools.compositor, "--backend", "headless", "--socket",
                "lookup-actions-\(getpid())-\(UUID().uuidString.prefix(6))", "--replay",
            ] + recordings + [
                "--fast", "--trace", trace, "--screenshot-dir", directory + "/shots", "--lookup", "on",
                "--exit-when-done",
                "--run", app,
            ],
            environment: [
                "DBUS_SESSION_BUS_ADDRESS": bus.address, "XDG_RUNTIME_DIR": TestRuntimeDirectory.path,
                "GDK_BACKEND": "wayland", "PATH": path + ":" + inherited,
            ],
            unsetting: ["WAYLAND_DISPLAY", "NO_AT_BRIDGE", "GTK_A11Y"], timeout: 180)
        let lines = ((try? String(contentsOfFile: trace, encoding: .utf8)) ?? "").split(separator: "\n")
        // GTK 3's accessibility bridge repeats one warning by the thousand: left out.
        let log = (result.output + result.errors).split(separator: "\n").filter { !$0.contains("Atk-CRITICAL") }
            .joined(separator: "\n")
        try? log.write(toFile: directory + "/run.log", atomically: true, encoding: .utf8)
        return Run(
            status: result.status, log: log,
            records: lines.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] },
            directory: directory)
    }

    /// A folder holding `xdg-open`: it writes its arguments and the name of the process that
    /// started it to `opened` in the same folder.
    func handlerFolder(_ directory: String) throws -> String {
        let folder = directory + "/handler"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let script = """
            #!/bin/sh
            printf '%s %s\\n' "$(cat /proc/$PPID/comm)" "$*" >> '\(folder)/opened'
            """
        try script.write(toFile: folder + "/xdg-open", atomically: true, encoding: .utf8)
        chmod(folder + "/xdg-open", 0o755)
        return folder
    }

    /// In the window's 20-pixel border, left of the text (the window is placed at the output's
    /// top left corner).
    static let margin = LookUpMouse.Point(x: 8, y: 300)

    /// Where the completed link panel's buttons are on the output (Open: its blue; Copy link: the
    /// grey button to its right), from the screenshot of a firm press on the link.
    func panelButtons() throws -> (open: LookUpMouse.Point, copy: LookUpMouse.Point) {
        let directory = scratchDirectory()
        let run = try run(
            [LookUpTests.firmPress], app: Self.app, path: try handlerFolder(directory), in: directory)
        #expect(run.status == 0, "\(run.log.suffix(3000))")
        #expect(run.found.last?["link"] as? String == Self.link, "\(run.records) \(run.log.suffix(3000))")
        let shot = try #require(
            Shot(path: directory + "/shots/" + (screenshot(named: "lookup-completed", in: directory) ?? "")),
            "no screenshot of the completed panel: \(run.records) \(run.log.suffix(2000))")
        var open: (minX: Int, minY: Int, maxX: Int, maxY: Int)?
        for y in 0..<shot.height {
            for x in 0..<shot.width where Self.near(shot.pixel(x, y), (0, 115, 230)) {
                let box = open ?? (x, y, x, y)
                open = (min(box.minX, x), min(box.minY, y), max(box.maxX, x), max(box.maxY, y))
            }
        }
        let button = try #require(open, "no Open button in \(shot.path)")
        let centre = (button.minY + button.maxY) / 2
        // Copy link starts 10 pixels to the right of Open; its left padding is 14 pixels.
        let copy = LookUpMouse.Point(x: button.maxX + 1 + 10 + 6, y: centre)
        #expect(
            Self.near(shot.pixel(copy.x, copy.y), (230, 230, 235)),
            "no Copy link button at \(copy) in \(shot.path): \(shot.pixel(copy.x, copy.y))")
        return (LookUpMouse.Point(x: button.minX + 5, y: centre), copy)
    }

    /// The last screenshot of that moment.
    func screenshot(named label: String, in directory: String) -> String? {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory + "/shots")) ?? []).sorted()
            .last { $0.hasSuffix(label + ".png") }
    }

    static func near(_ pixel: (r: Int, g: Int, b: Int), _ colour: (Int, Int, Int)) -> Bool {
        abs(pixel.r - colour.0) <= 3 && abs(pixel.g - colour.1) <= 3 && abs(pixel.b - colour.2) <= 3
    }

    @Test func openRunsTheUsersHandlerAndCopyLinkPutsTheAddressOnTheClipboard() throws {
        let buttons = try panelButtons()
        let directory = scratchDirectory()
        let handler = try handlerFolder(directory)
        // Each mouse recording clicks a button, then the app's margin (where no link takes the
        // click, so the app prints it).
        let clickOpen = directory + "/click-open.yml"
        let clickCopy = directory + "/click-copy.yml"
        try LookUpMouse.recording(clicking: buttons.open, then: Self.margin).write(
            toFile: clickOpen, atomically: true, encoding: .utf8)
        try LookUpMouse.recording(clicking: buttons.copy, then: Self.margin).write(
            toFile: clickCopy, atomically: true, encoding: .utf8)
        // Each click in the margin runs wl-paste while it is held: the last, after Copy link (the
        // panel set the selection when it was clicked), leaves what the clipboard holds.
        let pasted = directory + "/pasted"
        let app = """
            \(Self.app) | while IFS= read -r line; do printf '%s\\n' "$line"; \
            [ "$line" != "press \(Self.margin.x) \(Self.margin.y)" ] || wl-paste --no-newline > '\(pasted)' 2>&1; done
            """
        let run = try run(
            [LookUpTests.firmPress, clickOpen, LookUpTests.firmPress, clickCopy], app: app,
            path: handler, in: directory)
        #expect(run.status == 0, "\(run.log.suffix(3000))")
        #expect(
            run.found.filter { $0["link"] as? String == Self.link }.count >= 2,
            "\(run.records) \(run.log.suffix(3000))")
        #expect(run.panelFrames >= 2, "the panel was not shown for both presses: \(run.records)")
        let opened = (try? String(contentsOfFile: handler + "/opened", encoding: .utf8)) ?? ""
        #expect(opened == "preview-lookup \(Self.link)\n", "Open ran: \(opened) \(run.log.suffix(2000))")
        #expect(run.appClicks(at: Self.margin) >= 2, "the app's clicks: \(run.log.suffix(2000))")
        let clipboard = (try? String(contentsOfFile: pasted, encoding: .utf8)) ?? "(wl-paste never ran)"
        #expect(clipboard == Self.link, "wl-paste: \(clipboard) \(run.log.suffix(2000))")
    }
}

/// A mouse, as `libinput record` writes one (the hand-written USB mouse of the fixtures), that
/// goes to the output's top left corner (the cursor is clamped there), then to `point` and
/// clicks, then the same way to `then` and clicks, holding that click 1.5 s.
enum LookUpMouse {
    struct Point: CustomStringConvertible {
        var x: Int
        var y: Int
        var description: String { "(\(x), \(y))" }
    }

    static func recording(clicking point: Point, then second: Point) -> String {
        // (seconds, microseconds, type, code, value); EV_SYN 0 closes each frame.
        var frames: [[(Int, Int, Int)]] = []
        var times: [Int] = []
        func frame(_ microseconds: Int, _ events: [(Int, Int, Int)]) {
            times.append(microseconds)
            frames.append(events + [(0, 0, 0)])
        }
        let button = 272, scan = (4, 4, 589825)
        frame(200_000, [(2, 0, -20000), (2, 1, -20000)])
        frame(300_000, [(2, 0, point.x), (2, 1, point.y)])
        frame(500_000, [scan, (1, button, 1)])
        frame(600_000, [scan, (1, button, 0)])
        frame(900_000, [(2, 0, -20000), (2, 1, -20000)])
        frame(1_000_000, [(2, 0, second.x), (2, 1, second.y)])
        frame(1_200_000, [scan, (1, button, 1)])
        frame(2_700_000, [scan, (1, button, 0)])
        var text = """
            # libinput record
            # Written by LookUpActionsTests: a mouse that clicks at \(point), then at \(second).
            version: 1
            ndevices: 1
            libinput:
              version: "hand-written"
              git: "unknown"
            system:
              kernel: "unknown"
              dmi: "unknown"
            devices:
            - node: /dev/input/event0
              evdev:
                name: "Hand-written USB Optical Mouse"
                id: [3, 1133, 49271, 273]
                codes:
                  0: [0, 1, 2, 3] # EV_SYN
                  1: [272, 273, 274] # EV_KEY
                  2: [0, 1, 8, 11] # EV_REL
                  4: [4] # EV_MSC
                properties: []
              udev:
                properties:
                - ID_INPUT=1
                - ID_INPUT_MOUSE=1
              quirks:
              events:

            """
        for (time, events) in zip(times, frames) {
            text += "  - evdev:\n"
            for (type, code, value) in events {
                text += "    - [\(time / 1_000_000), \(time % 1_000_000), \(type), \(code), \(value)]\n"
            }
        }
        return text
    }
}
