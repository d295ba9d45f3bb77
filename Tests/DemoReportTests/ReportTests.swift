import DemoReport
import FixtureSupport
import Foundation
import PreviewEngine
import PreviewTrace
import Testing

@Suite("The report: force from the trace, plot, HTML and Markdown")
struct ReportTests {
    let dell = Fixtures.path("dell-canvas-isdv4-pen.yml")

    @Test("Force comes from the trace's own records, on its clock, whatever that clock is")
    func forceOnTheTraceClock() throws {
        var records = try replayTrace("dell-canvas-isdv4-pen.yml").records
        let first = try #require(InteractionStory.stories(of: records).first)
        let original = try #require(ForcedStory(first).force)
        #expect(original.samples.count == records.count, "every record carries its force")
        // The same interaction 2.5 s later, as a compositor started mid-way would trace it.
        for index in records.indices { records[index].time = records[index].time + .milliseconds(2500) }
        let story = try #require(InteractionStory.stories(of: records).first)
        let moved = try #require(ForcedStory(story).force)
        #expect(moved.start.microseconds == original.start.microseconds + 2_500_000)
        #expect(moved.samples.map(\.force) == original.samples.map(\.force))
        // Force and progress at the same instants: the curve spans the story exactly.
        #expect(moved.start == story.start && story.end == moved.end)
        #expect(moved.samples.map(\.force).max()! > Sensitivity.medium.thresholds.completeEnter)
        // The force explains the phases: the commit began where the force crossed the threshold.
        let commit = try #require(story.records.first { $0.event == .preview && $0.ended })
        #expect((commit.force ?? 0) >= Sensitivity.medium.thresholds.commit)
    }

    @Test("A trace without force (written before it had one) gets no curve, not a made-up one")
    func unexplained() throws {
        let records = try replayTrace("dell-canvas-isdv4-pen.yml").records.map { record in
            var old = record
            old.force = nil
            return old
        }
        #expect(InteractionStory.stories(of: records).map { ForcedStory($0).force } == [nil])
    }

    @Test("The report of a peek-and-pop: a plot with both phases and the completion, captions from the trace")
    func peekAndPop() throws {
        let output = scratchDirectory()
        let shots = output + "/screenshots"
        try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
        // Three phase changes (preview, commit, completed), three screenshots, in order.
        for (index, label) in ["preview", "commit", "completed"].enumerated() {
            writeSolidPNG(shots + "/000\(index + 1)-\(label).png", rgb: 0x808080)
        }
        let trace = try replayTrace("dell-canvas-isdv4-pen.yml")
        var input = ReportInput(records: trace.records, outputDirectory: output)
        input.screenshotDirectory = shots
        let written = try Report.write(input)

        #expect(written.stories.map(\.outcome) == [.completed])
        #expect(
            written.screenshots.map(\.file) == [
                "screenshots/0001-preview.png", "screenshots/0002-commit.png", "screenshots/0003-completed.png",
            ])
        #expect(
            written.screenshots.compactMap(\.record).map(\.phaseAfter) == [
                .preview, .commit, .completed,
            ])
        // Times from the trace's first record (6.598 s into the recording).
        #expect(written.screenshots[2].caption.hasPrefix("#1 completed (pop) · progress 1.00 · 0.270 s"))

        let plot = try #require(Picture(path: written.plot))
        #expect(plot.width >= 600 && plot.height >= 400)
        // Lines in every colour of the story: force (near black), preview blue, commit orange,
        // the completion's green, the screenshot markers' purple; and no cancellation red.
        #expect(plot.count(near: 0x2563EB) > 200)
        #expect(plot.count(near: 0xEA580C) > 200)
        #expect(plot.count(near: 0x16A34A) > 60)
        #expect(plot.count(near: 0x7C3AED) > 3 * 60)
        #expect(plot.count(near: 0xDC2626, tolerance: 8) < 120)  // only the legend's dot

        let html = try String(contentsOfFile: written.html, encoding: .utf8)
        let markdown = try String(contentsOfFile: written.markdown, encoding: .utf8)
        for document in [html, markdown] {
            #expect(document.contains("plot.png"))
            #expect(document.contains("screenshots/0002-commit.png"))
            #expect(document.contains("commit begins (peek)"))
            #expect(document.contains("completed (pop)"))
            #expect(document.contains("Wacom ISD-V4 Pen"))
        }
        #expect(markdown.contains("![#1 preview · progress"))
        #expect(html.contains("<img src=\"plot.png\""))
    }

    @Test("Screenshots named by the contract (NNNN-interaction<K>-<moment>.png) are placed and captioned by moment")
    func contractNames() throws {
        let output = scratchDirectory()
        let shots = output + "/screenshots"
        try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
        // Interaction 2 lacks preview-half and settled (degrades to what exists); an on-demand
        // shot and one of an interaction the trace never had go to "Other screenshots".
        let labels = [
            "interaction1-preview", "interaction1-preview-half", "interaction1-commit", "interaction1-commit-half",
            "interaction1-completed", "interaction1-settled", "interaction2-preview", "interaction2-cancelled",
            "on-demand", "interaction7-completed",
        ]
        for (index, label) in labels.enumerated() {
            writeSolidPNG(shots + "/" + String(format: "%04d", index + 1) + "-\(label).png", rgb: 0x808080)
        }
        // Both pens on a compositor's clock (CLOCK_MONOTONIC, hours of uptime), one after the other.
        let boot: Int64 = 10_459_000_000
        let dell = try replayTrace("dell-canvas-isdv4-pen.yml").records
        let uclogic = try replayTrace("uclogic-wp5540u-pen.yml").records.map { record in
            var moved = record
            moved.interaction = InteractionID(2)
            moved.time = Timestamp(microseconds: record.time.microseconds + 9_000_000)
            return moved
        }
        let records = (dell + uclogic).map { record in
            var moved = record
            moved.time = Timestamp(microseconds: record.time.microseconds + boot)
            return moved
        }
        var input = ReportInput(records: records, outputDirectory: output)
        input.screenshotDirectory = shots
        let written = try Report.write(input)

        let byLabel = Dictionary(uniqueKeysWithValues: written.screenshots.map { ($0.label, $0) })
        func record(_ label: String) throws -> TraceRecord { try #require(byLabel[label]?.record, "\(label)") }
        #expect(try record("interaction1-preview").event == .preview)
        #expect(try record("interaction1-preview-half").progress >= 0.5)
        #expect(try record("interaction1-preview-half").event == .preview)
        #expect(try record("interaction1-commit").ended && record("interaction1-commit").event == .preview)
        #expect(try record("interaction1-commit-half").event == .commit)
        #expect(try record("interaction1-commit-half").progress >= 0.5)
        #expect(try record("interaction1-completed").event == .commit && record("interaction1-completed").ended)
        #expect(try record("interaction1-settled") == record("interaction1-completed"))
        #expect(try record("interaction2-cancelled").reason == .lifted)
        #expect(byLabel["on-demand"]?.record == nil && byLabel["interaction7-completed"]?.record == nil)

        // Captions say the moment, with times from the first record, not the compositor's clock.
        #expect(byLabel["interaction1-preview"]?.caption == "#1 preview begins · progress 0.05 · 0.000 s")
        #expect(byLabel["interaction1-commit"]?.caption == "#1 commit begins (peek) · progress 1.00 · 0.137 s")
        #expect(byLabel["interaction1-commit-half"]?.caption.hasPrefix("#1 commit half-way · progress 0.") == true)
        #expect(byLabel["interaction1-settled"]?.caption == "#1 settled after the pop · progress 1.00 · 0.270 s")
        #expect(byLabel["interaction2-cancelled"]?.caption.hasPrefix("#2 cancelled (lifted) · progress 0.00 · ") == true)

        let markdown = try String(contentsOfFile: written.markdown, encoding: .utf8)
        let html = try String(contentsOfFile: written.html, encoding: .utf8)
        for document in [markdown, html] {
            for label in labels { #expect(document.contains("-\(label).png"), "\(label)") }
            #expect(document.contains("Other screenshots"))
            #expect(!document.contains("10459"), "a time on the compositor's clock")
        }
        // Each interaction's pictures sit under its own heading, in the order they were taken.
        let second = try #require(markdown.range(of: "## #2"))
        #expect(markdown.range(of: "interaction1-settled.png")!.lowerBound < second.lowerBound)
        #expect(markdown.range(of: "interaction2-preview.png")!.lowerBound > second.lowerBound)
    }

    @Test("A cancelled peek is drawn as cancelled")
    func cancelled() throws {
        let output = scratchDirectory()
        var input = ReportInput(records: try replayTrace("uclogic-wp5540u-pen.yml").records, outputDirectory: output)
        let written = try Report.write(input)
        let plot = try #require(Picture(path: written.plot))
        #expect(plot.count(near: 0xDC2626, tolerance: 8) > 200)  // marker and label, beyond the legend's dot
        #expect(plot.count(near: 0xEA580C) < 400)  // no commit progress line: only the legend
        #expect(try String(contentsOfFile: written.markdown, encoding: .utf8).contains("cancelled (lifted)"))
    }

    @Test("A trace with no interaction still makes a report that says so")
    func empty() throws {
        let written = try Report.write(ReportInput(records: [], outputDirectory: scratchDirectory()))
        #expect(written.stories.isEmpty)
        #expect(Picture(path: written.plot) != nil)
        #expect(try String(contentsOfFile: written.markdown, encoding: .utf8).contains("0 interaction(s)"))
    }

    @Test("An unwritable output folder is a clear error")
    func unwritable() throws {
        let blocker = scratchDirectory() + "/file"
        FileManager.default.createFile(atPath: blocker, contents: Data())
        #expect(throws: ReportError.self) {
            try Report.write(ReportInput(records: [], outputDirectory: blocker + "/out"))
        }
    }
}

@Suite("The live view")
struct LiveViewTests {
    @Test("Without a terminal: plain lines, one per phase change and one per quarter of progress")
    func plain() throws {
        let records =
            try replayTrace("dell-canvas-isdv4-pen.yml").records
            + replayTrace("uclogic-wp5540u-pen.yml")
            .records.map { record in
                var moved = record
                moved.interaction = InteractionID(2)
                return moved
            }
        var view = LiveView(isTerminal: false, gaugeWidth: 10)
        let text = records.map { view.take($0) }.joined() + view.finish()
        let lines = text.split(separator: "\n").map(String.init)
        #expect(!text.contains("\u{1B}"))
        // Phase changes name the device; quarter lines do not.
        let changes = lines.filter { $0.contains("Wacom") || $0.contains("UC-LOGIC") }
        #expect(changes.count == 5)
        #expect(changes[0].contains("#1 pen") && changes[0].contains("preview"))
        #expect(changes[1].contains("peek → commit") && changes[1].contains("██████████ 1.00"))
        #expect(changes[2].contains("completed (pop)"))
        #expect(changes[3].contains("#2 pen") && changes[3].contains("preview"))
        #expect(changes[4].contains("cancelled (lifted)"))
        // The press shows in between: the preview reaches past half way before the commit.
        let beforeCommit = lines[1..<lines.firstIndex(of: changes[1])!]
        #expect(beforeCommit.contains { $0.contains("preview") && $0.hasSuffix("0.90") })
        #expect(lines.count < 30)
        #expect(view.finished == [InteractionID(1): .completed, InteractionID(2): .cancelled(.lifted)])
    }

    @Test("Times count from the first record, whatever the trace's clock")
    func relativeTimes() throws {
        // A compositor's trace is on CLOCK_MONOTONIC: hours of uptime.
        let records = try replayTrace("dell-canvas-isdv4-pen.yml").records.map { record in
            var moved = record
            moved.time = Timestamp(microseconds: record.time.microseconds + 10_459_000_000)
            return moved
        }
        var view = LiveView(isTerminal: false)
        let lines = records.map { view.take($0) }.joined().split(separator: "\n")
        #expect(lines.first?.hasPrefix("+0.000s ") == true, "\(lines.first ?? "")")
        #expect(lines.last?.hasPrefix("+0.270s ") == true && lines.last?.contains("completed (pop)") == true)
        #expect(!lines.contains { $0.contains("+10459") })
    }

    @Test("On a terminal: gauges redraw in place and are gone at the end")
    func terminal() throws {
        let records = try replayTrace("dell-canvas-isdv4-pen.yml").records
        var view = LiveView(isTerminal: true, gaugeWidth: 10)
        var screen = TerminalScreen()
        var mid = ""
        for (index, record) in records.enumerated() {
            screen.write(view.take(record))
            if index == records.count / 3 { mid = screen.lines.joined(separator: "\n") }
        }
        screen.write(view.finish())
        // Mid-way: the phase line above, the live gauge below it.
        #expect(mid.contains("#1 pen") && mid.split(separator: "\n").count == 2)
        // At the end: the three phase lines only.
        #expect(screen.lines.count == 3)
        #expect(screen.lines[2].contains("completed (pop)"))
    }
}

/// Just enough of a terminal to check the view's escapes: lines, "n lines up" and "clear below".
struct TerminalScreen {
    var lines: [String] = []
    var cursor = 0

    mutating func write(_ text: String) {
        var rest = Substring(text)
        while !rest.isEmpty {
            if rest.hasPrefix("\u{1B}[") {
                let body = rest.dropFirst(2)
                let end = body.firstIndex { $0.isLetter }!
                let number = Int(body[..<end]) ?? 1
                switch body[end] {
                case "F": cursor = max(0, cursor - number)
                case "J": lines.removeSubrange(cursor...)
                default: break  // colours
                }
                rest = body[body.index(after: end)...]
                continue
            }
            let newline = rest.firstIndex(of: "\n") ?? rest.endIndex
            let nextEscape = rest.range(of: "\u{1B}[")?.lowerBound ?? rest.endIndex
            let stop = min(newline, nextEscape)
            let chunk = String(rest[..<stop])
            if cursor == lines.count { lines.append("") }
            lines[cursor] += chunk
            if stop == newline && newline != rest.endIndex {
                cursor += 1
                rest = rest[rest.index(after: newline)...]
            } else {
                rest = rest[stop...]
            }
        }
    }
}
