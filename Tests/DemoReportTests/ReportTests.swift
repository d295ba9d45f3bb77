import DemoReport
import Foundation
import PreviewEngine
import PreviewTrace
import Testing
import _FixtureTestSupport

@Suite("The report: force from the trace, plot, HTML and Markdown")
struct ReportTests {
    let dell = Fixtures.path("dell-canvas-isdv4-pen.yml")

    @Test("Force comes from the trace's own records, on its clock, whatever that clock is")
    func forceOnTheTraceClock() throws {
        // The Dell pen's peek and pop (its second interaction, after a 47 ms stroke).
        var records = try replayTrace("dell-canvas-isdv4-pen.yml").records
        let pop = try #require(InteractionStory.stories(of: records).first { $0.outcome == .completed })
        let original = try #require(ForcedStory(pop).force)
        #expect(original.samples.count == pop.records.count, "every record carries its force")
        // The same interaction 2.5 s later, as a compositor started mid-way would trace it.
        for index in records.indices { records[index].time = records[index].time + .milliseconds(2500) }
        let story = try #require(InteractionStory.stories(of: records).first { $0.outcome == .completed })
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
        #expect(InteractionStory.stories(of: records).map { ForcedStory($0).force } == [nil, nil])
    }

    @Test("The report of a peek-and-pop: a plot with both phases and the completion, captions from the trace")
    func peekAndPop() throws {
        let output = scratchDirectory()
        let shots = output + "/screenshots"
        try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
        // Five phase changes (the short stroke's preview and cancel, then preview, commit,
        // completed), five screenshots, in order.
        let labels = ["preview", "cancelled", "preview", "commit", "completed"]
        for (index, label) in labels.enumerated() {
            writeSolidPNG(shots + "/000\(index + 1)-\(label).png", rgb: 0x808080)
        }
        let trace = try replayTrace("dell-canvas-isdv4-pen.yml")
        var input = ReportInput(records: trace.records, outputDirectory: output)
        input.screenshotDirectory = shots
        let written = try Report.write(input)

        // libinput's pressure thresholds make the dip at 6.64 s a stroke of its own, lifted.
        #expect(written.stories.map(\.outcome) == [.cancelled(.lifted), .completed])
        #expect(written.screenshots.map(\.file) == labels.enumerated().map { "screenshots/000\($0 + 1)-\($1).png" })
        #expect(
            written.screenshots.compactMap(\.record).map(\.phaseAfter) == [
                .preview, .cancelled, .preview, .commit, .completed,
            ])
        #expect(written.screenshots.compactMap(\.record).map(\.interaction.rawValue) == [1, 1, 2, 2, 2])
        // Times from the trace's first record (6.598 s into the recording).
        #expect(written.screenshots[4].caption.hasPrefix("#2 completed (pop) · progress 1.00 · 0.275 s"))

        let plot = try #require(Picture(path: written.plot))
        #expect(plot.width >= 600 && plot.height >= 400)
        // Lines in every colour of the stories: force (near black), preview blue, commit orange,
        // the completion's green, the screenshot markers' purple, the short stroke's cancel red.
        #expect(plot.count(near: 0x2563EB) > 200)
        #expect(plot.count(near: 0xEA580C) > 200)
        #expect(plot.count(near: 0x16A34A) > 60)
        #expect(plot.count(near: 0x7C3AED) > 5 * 60)
        #expect(plot.count(near: 0xDC2626, tolerance: 8) > 200)  // marker and label, beyond the legend's dot

        let html = try String(contentsOfFile: written.html, encoding: .utf8)
        let markdown = try String(contentsOfFile: written.markdown, encoding: .utf8)
        for document in [html, markdown] {
            #expect(document.contains("plot.png"))
            #expect(document.contains("screenshots/0004-commit.png"))
            #expect(document.contains("cancelled (lifted)"))
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
        // Interaction 3 lacks preview-half and settled (degrades to what exists); an on-demand
        // shot and one of an interaction the trace never had go to "Other screenshots".
        let labels = [
            "interaction1-cancelled", "interaction2-preview", "interaction2-preview-half", "interaction2-commit",
            "interaction2-commit-half", "interaction2-completed", "interaction2-settled", "interaction3-preview",
            "interaction3-cancelled", "on-demand", "interaction7-completed",
        ]
        for (index, label) in labels.enumerated() {
            writeSolidPNG(shots + "/" + String(format: "%04d", index + 1) + "-\(label).png", rgb: 0x808080)
        }
        // Both pens on a compositor's clock (CLOCK_MONOTONIC, hours of uptime), one after the other:
        // the Dell pen's short stroke (#1) and peek and pop (#2), the UC-Logic pen's let-go (#3).
        let boot: Int64 = 10_459_000_000
        let dell = try replayTrace("dell-canvas-isdv4-pen.yml").records
        let uclogic = try replayTrace("uclogic-wp5540u-pen.yml").records.map { record in
            var moved = record
            moved.interaction = InteractionID(3)
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
        #expect(try record("interaction1-cancelled").reason == .lifted)
        #expect(try record("interaction2-preview").event == .preview)
        #expect(try record("interaction2-preview-half").progress >= 0.5)
        #expect(try record("interaction2-preview-half").event == .preview)
        #expect(try record("interaction2-commit").ended && record("interaction2-commit").event == .preview)
        #expect(try record("interaction2-commit-half").event == .commit)
        #expect(try record("interaction2-commit-half").progress >= 0.5)
        #expect(try record("interaction2-completed").event == .commit && record("interaction2-completed").ended)
        #expect(try record("interaction2-settled") == record("interaction2-completed"))
        #expect(try record("interaction3-cancelled").reason == .lifted)
        #expect(byLabel["on-demand"]?.record == nil && byLabel["interaction7-completed"]?.record == nil)

        // Captions say the moment, with times from the first record, not the compositor's clock.
        #expect(byLabel["interaction1-cancelled"]?.caption == "#1 cancelled (lifted) · progress 0.00 · 0.047 s")
        #expect(byLabel["interaction2-preview"]?.caption == "#2 preview begins · progress 0.09 · 0.110 s")
        #expect(byLabel["interaction2-commit"]?.caption == "#2 commit begins (peek) · progress 1.00 · 0.137 s")
        #expect(byLabel["interaction2-commit-half"]?.caption.hasPrefix("#2 commit half-way · progress 0.") == true)
        #expect(byLabel["interaction2-settled"]?.caption == "#2 settled after the pop · progress 1.00 · 0.275 s")
        #expect(
            byLabel["interaction3-cancelled"]?.caption.hasPrefix("#3 cancelled (lifted) · progress 0.00 · ") == true)

        let markdown = try String(contentsOfFile: written.markdown, encoding: .utf8)
        let html = try String(contentsOfFile: written.html, encoding: .utf8)
        for document in [markdown, html] {
            for label in labels { #expect(document.contains("-\(label).png"), "\(label)") }
            #expect(document.contains("Other screenshots"))
            #expect(!document.contains("10459"), "a time on the compositor's clock")
        }
        // Each interaction's pictures sit under its own heading, in the order they were taken.
        let second = try #require(markdown.range(of: "## #2"))
        let third = try #require(markdown.range(of: "## #3"))
        #expect(markdown.range(of: "interaction1-cancelled.png")!.lowerBound < second.lowerBound)
        #expect(markdown.range(of: "interaction2-preview.png")!.lowerBound > second.lowerBound)
        #expect(markdown.range(of: "interaction2-settled.png")!.lowerBound < third.lowerBound)
        #expect(markdown.range(of: "interaction3-preview.png")!.lowerBound > third.lowerBound)
    }

    @Test("A cancelled peek is drawn as cancelled")
    func cancelled() throws {
        let output = scratchDirectory()
        let input = ReportInput(records: try replayTrace("uclogic-wp5540u-pen.yml").records, outputDirectory: output)
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
        #expect(FileManager.default.createFile(atPath: blocker, contents: Data()))
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
                moved.interaction = InteractionID(3)
                return moved
            }
        var view = LiveView(isTerminal: false, gaugeWidth: 10)
        let text = records.map { view.take($0) }.joined() + view.finish()
        let lines = text.split(separator: "\n").map(String.init)
        #expect(!text.contains("\u{1B}"))
        // Phase changes name the device; quarter lines do not.
        let changes = lines.filter { $0.contains("Wacom") || $0.contains("UC-LOGIC") }
        // The Dell pen's short stroke (lifted at once), its peek and pop, the UC-Logic pen's let-go.
        #expect(changes.count == 7, "\(changes)")
        #expect(changes[0].contains("#1 pen") && changes[0].contains("preview"))
        #expect(changes[1].contains("#1 pen") && changes[1].contains("cancelled (lifted)"))
        #expect(changes[2].contains("#2 pen") && changes[2].contains("preview"))
        #expect(changes[3].contains("peek → commit") && changes[3].contains("██████████ 1.00"))
        #expect(changes[4].contains("completed (pop)"))
        #expect(changes[5].contains("#3 pen") && changes[5].contains("preview"))
        #expect(changes[6].contains("cancelled (lifted)"))
        // The press shows in between: the preview reaches past half way before the commit.
        let beforeCommit = lines[lines.firstIndex(of: changes[2])!..<lines.firstIndex(of: changes[3])!]
        #expect(
            beforeCommit.contains { $0.contains("preview") && (Double($0.split(separator: " ").last ?? "") ?? 0) > 0.5 }
        )
        #expect(lines.count < 35)
        #expect(
            view.finished == [
                InteractionID(1): .cancelled(.lifted), InteractionID(2): .completed,
                InteractionID(3): .cancelled(.lifted),
            ])
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
        #expect(lines.last?.hasPrefix("+0.275s ") == true && lines.last?.contains("completed (pop)") == true)
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
        // Mid-way through the peek and pop: the phase lines above, the live gauge below them.
        #expect(mid.contains("#2 pen") && mid.split(separator: "\n").count == 4, "\(mid)")
        // At the end: the phase lines only (the short stroke's two, then the peek and pop's three).
        #expect(screen.lines.count == 5, "\(screen.lines)")
        #expect(screen.lines[1].contains("cancelled (lifted)"))
        #expect(screen.lines[4].contains("completed (pop)"))
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
