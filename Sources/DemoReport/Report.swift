import Foundation
import PreviewEngine
import PreviewTrace

/// Everything a report is made of.
public struct ReportInput: Sendable {
    /// The trace (JSON lines) as records.
    public var records: [TraceRecord]
    /// Where the compositor wrote its screenshots (nil: none).
    public var screenshotDirectory: String?
    /// The folder plot.png, report.html and report.md go to.
    public var outputDirectory: String
    public var configuration = EngineConfiguration()
    public var title = "Preview interaction demo"
    /// Extra lines for the report's header (how it was made, how long it took).
    public var notes: [String] = []

    public init(records: [TraceRecord], outputDirectory: String) {
        self.records = records
        self.outputDirectory = outputDirectory
    }
}

/// What was written.
public struct ReportOutput: Sendable {
    public var plot: String
    public var html: String
    public var markdown: String
    public var stories: [InteractionStory]
    public var screenshots: [Screenshot]
}

/// Writes plot.png, report.html and report.md into the output folder.
public enum Report {
    /// Times in the report are seconds from the trace's first record (as in the live view),
    /// whatever clock the trace was made on (a compositor's is CLOCK_MONOTONIC).
    public static func write(_ input: ReportInput) throws(ReportError) -> ReportOutput {
        let origin = input.records.first?.time ?? Timestamp(microseconds: 0)
        var input = input
        input.records = relative(input.records, to: origin)
        let stories = InteractionStory.stories(of: input.records)
        // Force and progress from the same records: aligned by time, whatever the clock.
        let forced = stories.map(ForcedStory.init)
        let shots =
            input.screenshotDirectory.map {
                Screenshots.find(in: $0, relativeTo: input.outputDirectory, stories: stories, origin: origin)
            } ?? []
        do {
            try FileManager.default.createDirectory(atPath: input.outputDirectory, withIntermediateDirectories: true)
        } catch {
            throw ReportError("cannot create \(input.outputDirectory): \(error.localizedDescription)")
        }
        let plotPath = input.outputDirectory + "/plot.png"
        let markers = shots.compactMap { shot in shot.record.map { PlotMarker(time: $0.time, number: shot.number) } }
        try ForcePlot(
            stories: forced, thresholds: input.configuration.sensitivity.thresholds, markers: markers,
            title: input.title
        ).write(to: plotPath)
        let document = ReportDocument(input: input, stories: stories, screenshots: shots)
        let htmlPath = input.outputDirectory + "/report.html"
        let markdownPath = input.outputDirectory + "/report.md"
        try save(document.html, to: htmlPath)
        try save(document.markdown, to: markdownPath)
        return ReportOutput(
            plot: plotPath, html: htmlPath, markdown: markdownPath, stories: stories, screenshots: shots)
    }

    /// The records with `origin` taken off their times.
    public static func relative(_ records: [TraceRecord], to origin: Timestamp) -> [TraceRecord] {
        records.map { record in
            var moved = record
            moved.time = Timestamp(microseconds: record.time.microseconds - origin.microseconds)
            return moved
        }
    }

    static func save(_ text: String, to path: String) throws(ReportError) {
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else {
            throw ReportError("cannot write \(path)")
        }
    }
}

/// The report's words, in HTML and Markdown from the same facts.
struct ReportDocument {
    var input: ReportInput
    var stories: [InteractionStory]
    var screenshots: [Screenshot]

    var summary: String {
        let completed = stories.filter { $0.outcome == .completed }.count
        let cancelled = stories.filter { if case .cancelled = $0.outcome { true } else { false } }.count
        return "\(stories.count) interaction(s): \(completed) completed, \(cancelled) cancelled; "
            + "\(screenshots.count) screenshot(s); sensitivity \(input.configuration.sensitivity.rawValue)"
    }

    func shots(of story: InteractionStory) -> [Screenshot] {
        screenshots.filter { $0.record?.interaction == story.id }
    }

    var unplacedShots: [Screenshot] { screenshots.filter { $0.record == nil } }

    func timeline(of story: InteractionStory) -> [(time: String, what: String, progress: String)] {
        story.phaseChanges.map {
            (
                Fixed.format(seconds($0.time), digits: 3) + " s", Screenshot.describe($0),
                Fixed.format($0.progress, digits: 2)
            )
        }
    }

    func headline(of story: InteractionStory) -> String {
        "\(story.id) \(story.source)\(story.simulated ? " (long press)" : "") · \(story.device) · \(story.outcome)"
    }

    // MARK: Markdown

    var markdown: String {
        var out = "# \(input.title)\n\n\(summary).\n\n"
        for note in input.notes { out += "- \(note)\n" }
        if !input.notes.isEmpty { out += "\n" }
        out += "![Force and progress over time](plot.png)\n\n"
        out += "Black: the pen's force; blue: preview progress; orange: commit progress; shaded: the phases; "
        out += "dashed: the preset's thresholds; numbered purple markers: the screenshots below.\n"
        for story in stories {
            out += "\n## \(headline(of: story))\n\n| time | phase change | progress |\n|---|---|---|\n"
            for row in timeline(of: story) { out += "| \(row.time) | \(row.what) | \(row.progress) |\n" }
            let shots = shots(of: story)
            if !shots.isEmpty {
                out += "\n| " + shots.map { "![\($0.caption)](\($0.file))" }.joined(separator: " | ") + " |\n"
                out += "|" + String(repeating: "---|", count: shots.count) + "\n"
                out += "| " + shots.map { "**\($0.number)** \($0.caption)" }.joined(separator: " | ") + " |\n"
            }
        }
        if !unplacedShots.isEmpty {
            out += "\n## Other screenshots\n\n"
            for shot in unplacedShots { out += "- **\(shot.number)** \(shot.label): ![\(shot.label)](\(shot.file))\n" }
        }
        out += "\nTrace: [trace.jsonl](trace.jsonl) (one JSON object per phase event).\n"
        return out
    }

    // MARK: HTML

    var html: String {
        var out = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <title>\(escape(input.title))</title>
            <style>
            body { font: 15px/1.45 "DejaVu Sans", system-ui, sans-serif; color: #1f2937; margin: 24px auto; max-width: 1500px; padding: 0 16px; }
            h1 { margin: 0 0 4px; } h2 { margin: 28px 0 8px; font-size: 18px; }
            .muted { color: #6b7280; } .completed { color: #16a34a; } .cancelled { color: #dc2626; }
            .layout { display: grid; grid-template-columns: minmax(0, 5fr) minmax(0, 4fr); gap: 24px; align-items: start; }
            .plot { position: sticky; top: 12px; } .plot img { width: 100%; border: 1px solid #e5e7eb; border-radius: 6px; }
            .shots { display: grid; grid-template-columns: repeat(auto-fill, minmax(260px, 1fr)); gap: 12px; }
            figure { margin: 0; } figure img { width: 100%; border: 1px solid #e5e7eb; border-radius: 6px; }
            figcaption { font-size: 13px; } .n { display: inline-block; min-width: 20px; border-radius: 10px; background: #7c3aed; color: white; text-align: center; font-weight: bold; margin-right: 4px; }
            table { border-collapse: collapse; font-size: 13px; } td, th { padding: 2px 10px 2px 0; text-align: left; }
            @media (max-width: 1000px) { .layout { grid-template-columns: 1fr; } .plot { position: static; } }
            </style></head><body>
            <h1>\(escape(input.title))</h1>
            <p class="muted">\(escape(summary))</p>

            """
        if !input.notes.isEmpty {
            out += "<ul class=\"muted\">" + input.notes.map { "<li>\(escape($0))</li>" }.joined() + "</ul>\n"
        }
        out += """
            <div class="layout">
            <div class="plot"><img src="plot.png" alt="force and progress over time">
            <p class="muted">Black: force; blue: preview progress; orange: commit progress; shaded: the phases; \
            dashed: the preset's thresholds; numbered markers: the screenshots.</p></div>
            <div>

            """
        for story in stories {
            let outcomeClass: String
            switch story.outcome {
            case .completed: outcomeClass = "completed"
            case .cancelled: outcomeClass = "cancelled"
            case .unfinished: outcomeClass = "muted"
            }
            out += "<h2>\(story.id) \(story.source)\(story.simulated ? " (long press)" : "") · "
            out += "<span class=\"muted\">\(escape(story.device))</span> · "
            out += "<span class=\"\(outcomeClass)\">\(escape(story.outcome.description))</span></h2>\n"
            out += "<table><tr><th>time</th><th>phase change</th><th>progress</th></tr>"
            for row in timeline(of: story) {
                out += "<tr><td>\(row.time)</td><td>\(escape(row.what))</td><td>\(row.progress)</td></tr>"
            }
            out += "</table>\n<div class=\"shots\">\n"
            for shot in shots(of: story) { out += figure(shot) }
            out += "</div>\n"
        }
        if !unplacedShots.isEmpty {
            out += "<h2>Other screenshots</h2>\n<div class=\"shots\">\n"
            for shot in unplacedShots { out += figure(shot) }
            out += "</div>\n"
        }
        out += """
            </div></div>
            <p class="muted">Trace: <a href="trace.jsonl">trace.jsonl</a> (one JSON object per phase event).</p>
            </body></html>

            """
        return out
    }

    func figure(_ shot: Screenshot) -> String {
        "<figure><a href=\"\(escape(shot.file))\"><img src=\"\(escape(shot.file))\" alt=\"\(escape(shot.caption))\"></a>"
            + "<figcaption><span class=\"n\">\(shot.number)</span>\(escape(shot.caption))</figcaption></figure>\n"
    }

    func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}
