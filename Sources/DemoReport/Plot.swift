import PreviewEngine
import PreviewTrace

/// The plot's palette: one hue per meaning, used the same way in the report's captions.
enum Palette {
    static let ink = Colour(hex: 0x1F2937)
    static let muted = Colour(hex: 0x6B7280)
    static let grid = Colour(hex: 0xE5E7EB)
    static let frame = Colour(hex: 0xD1D5DB)
    static let force = Colour(hex: 0x111827)
    static let preview = Colour(hex: 0x2563EB)
    static let commit = Colour(hex: 0xEA580C)
    static let completed = Colour(hex: 0x16A34A)
    static let cancelled = Colour(hex: 0xDC2626)
    static let shot = Colour(hex: 0x7C3AED)
    static let background = Colour(hex: 0xFFFFFF)
}

/// A moment a screenshot was taken, for the plot's numbered markers.
public struct PlotMarker: Hashable, Sendable {
    public var time: Timestamp
    public var number: Int
    public init(time: Timestamp, number: Int) {
        self.time = time
        self.number = number
    }
}

/// Force and progress over time, one panel per interaction (zoomed on it), with the phases
/// shaded, the preset's thresholds dashed, the end marked and the screenshots numbered.
public struct ForcePlot {
    public var stories: [ForcedStory]
    public var thresholds: ForceThresholds
    public var markers: [PlotMarker]
    public var title: String

    /// One panel gets more room than each of several.
    var panelWidth: Double { columns == 1 ? 820 : 620 }
    static let panelHeight = 360.0
    static let header = 64.0
    var footer: Double { columns == 1 ? 76 : 52 }

    public init(stories: [ForcedStory], thresholds: ForceThresholds, markers: [PlotMarker] = [], title: String) {
        self.stories = stories
        self.thresholds = thresholds
        self.markers = markers
        self.title = title
    }

    var columns: Int { min(2, max(1, stories.count)) }
    var rows: Int { max(1, (stories.count + columns - 1) / columns) }

    public func write(to path: String) throws(ReportError) {
        let width = Double(columns) * panelWidth
        let height = Self.header + Double(rows) * Self.panelHeight + footer
        let canvas = Canvas(width: Int(width), height: Int(height))
        canvas.fill(x: 0, y: 0, width: width, height: height, Palette.background)
        canvas.text(title, x: 24, y: 34, size: 20, Palette.ink, bold: true)
        canvas.text(
            "force and interaction progress over time (both from the trace), one panel per interaction", x: 24, y: 54,
            size: 12,
            Palette.muted)
        if stories.isEmpty {
            canvas.text(
                "no interaction: nothing pressed hard enough", x: width / 2, y: Self.header + Self.panelHeight / 2,
                size: 16, Palette.muted, align: .centre)
        }
        for (index, story) in stories.enumerated() {
            let x = Double(index % columns) * panelWidth
            let y = Self.header + Double(index / columns) * Self.panelHeight
            panel(story, on: canvas, x: x, y: y)
        }
        legend(on: canvas, y: height - footer + 22, width: width)
        try canvas.writePNG(to: path)
    }

    /// The time window of a panel: the interaction, with context on both sides (half its
    /// length, at least 150 ms) as far as the contact lasted, so a short press is not lost in a
    /// long stroke.
    func window(_ forced: ForcedStory) -> (start: Double, end: Double) {
        let first = seconds(forced.story.start)
        let last = seconds(forced.story.end)
        let context = max(0.15, (last - first) * 0.5)
        var start = first - context
        var end = last + context
        if let curve = forced.force {
            start = max(start, min(first, seconds(curve.start)) - 0.02)
            end = min(end, max(last, seconds(curve.end)) + 0.02)
        }
        return (start, end)
    }

    private func panel(_ forced: ForcedStory, on canvas: Canvas, x: Double, y: Double) {
        let story = forced.story
        let plot = (x: x + 64, y: y + 48, width: panelWidth - 64 - 72, height: Self.panelHeight - 48 - 50)
        let (start, end) = window(forced)
        func px(_ time: Double) -> Double { plot.x + (time - start) / (end - start) * plot.width }
        func py(_ value: Double) -> Double { plot.y + (1 - min(1.05, max(-0.02, value))) * plot.height }

        // Title: who, and how it ended, in the ending's colour.
        let outcomeColour: Colour
        switch story.outcome {
        case .completed: outcomeColour = Palette.completed
        case .cancelled: outcomeColour = Palette.cancelled
        case .unfinished: outcomeColour = Palette.muted
        }
        let name = "\(story.id)  \(story.source)\(story.simulated ? " (long press)" : "")  ·  "
        let used = canvas.text(name, x: plot.x, y: y + 26, size: 14, Palette.ink, bold: true)
        canvas.text(story.outcome.description, x: plot.x + used, y: y + 26, size: 14, outcomeColour, bold: true)
        let device = story.device.count > 34 ? String(story.device.prefix(33)) + "…" : story.device
        canvas.text(device, x: plot.x + plot.width, y: y + 26, size: 11, Palette.muted, align: .right)

        // Phase bands first, so everything else draws over them.
        let commitAt = story.commitStart.map(seconds)
        let previewEnd = commitAt ?? seconds(story.end)
        canvas.fill(
            x: px(seconds(story.start)), y: plot.y, width: px(previewEnd) - px(seconds(story.start)),
            height: plot.height, Palette.preview.with(alpha: 0.10))
        if px(previewEnd) - px(seconds(story.start)) > 52 {
            canvas.text(
                "preview", x: (px(seconds(story.start)) + px(previewEnd)) / 2, y: plot.y + 14, size: 11,
                Palette.preview, align: .centre)
        }
        if let commitAt {
            canvas.fill(
                x: px(commitAt), y: plot.y, width: px(seconds(story.end)) - px(commitAt), height: plot.height,
                Palette.commit.with(alpha: 0.13))
            if px(seconds(story.end)) - px(commitAt) > 52 {
                canvas.text(
                    "commit", x: (px(commitAt) + px(seconds(story.end))) / 2, y: plot.y + 14, size: 11,
                    Palette.commit, align: .centre)
            }
        }

        // Grid and axes.
        for tick in stride(from: 0.0, through: 1.0, by: 0.25) {
            canvas.line([(plot.x, py(tick)), (plot.x + plot.width, py(tick))], Palette.grid)
            canvas.text(
                Self.label(tick, step: 0.25), x: plot.x - 8, y: py(tick) + 4, size: 11, Palette.muted, align: .right)
        }
        let step = Self.niceStep((end - start) / 6)
        var tick = (start / step).rounded(.up) * step
        while tick <= end {
            canvas.line([(px(tick), plot.y + plot.height), (px(tick), plot.y + plot.height + 5)], Palette.muted)
            canvas.text(
                Self.label(tick, step: step) + "s", x: px(tick), y: plot.y + plot.height + 19, size: 11, Palette.muted,
                align: .centre)
            tick += step
        }
        canvas.text(
            "time (s)", x: plot.x + plot.width / 2, y: plot.y + plot.height + 40, size: 11,
            Palette.muted, align: .centre)
        canvas.verticalText("force, progress (0…1)", x: x + 16, y: plot.y + plot.height / 2, size: 11, Palette.muted)
        canvas.stroke(x: plot.x, y: plot.y, width: plot.width, height: plot.height, Palette.frame)

        // The preset's thresholds: where force starts the preview, commits, and completes.
        for (value, label) in [
            (thresholds.begin, "begin"), (thresholds.commit, "commit"), (thresholds.completeEnter, "complete"),
        ] {
            canvas.line(
                [(plot.x, py(value)), (plot.x + plot.width, py(value))], Palette.muted.with(alpha: 0.8), width: 1,
                dash: (5, 4))
            canvas.text(label, x: plot.x + plot.width + 6, y: py(value) + 4, size: 10, Palette.muted)
        }

        canvas.clip(x: plot.x, y: plot.y - 8, width: plot.width, height: plot.height + 16)
        // Force, the cause.
        if let curve = forced.force, curve.hasForce {
            canvas.line(curve.samples.map { (px(seconds($0.time)), py($0.force)) }, Palette.force, width: 2)
        }
        // Progress, the effect: one line per phase, in the phase's colour.
        for (event, colour) in [(TraceEvent.preview, Palette.preview), (.commit, Palette.commit)] {
            // A step line: progress holds until the next event (none come while it is unchanged).
            var points: [(Double, Double)] = []
            for record in story.records where record.event == event {
                if let previous = points.last { points.append((px(seconds(record.time)), previous.1)) }
                points.append((px(seconds(record.time)), py(record.progress)))
            }
            canvas.line(points, colour, width: 2.5)
        }
        canvas.unclip()

        // Screenshots taken during this panel's window.
        // Shots at (nearly) the same time (`completed` and `settled` share their record) stack
        // upwards instead of hiding each other.
        var placed: [(x: Double, level: Int)] = []
        for marker in markers where seconds(marker.time) >= start && seconds(marker.time) <= end {
            let mx = px(seconds(marker.time))
            let level = placed.filter { abs($0.x - mx) < 17 }.map { $0.level + 1 }.max() ?? 0
            placed.append((mx, level))
            let my = plot.y + plot.height - 10 - Double(level) * 18
            canvas.line([(mx, plot.y + 20), (mx, plot.y + plot.height)], Palette.shot.with(alpha: 0.6), dash: (2, 3))
            canvas.circle(x: mx, y: my, radius: 8, fill: Palette.shot)
            canvas.text(
                "\(marker.number)", x: mx, y: my + 4, size: 10, Palette.background, align: .centre, bold: true)
        }

        // The end: a green disc for completed, a red cross for cancelled.
        if let last = story.records.last {
            let ex = px(seconds(last.time))
            let ey = py(last.progress)
            // The label goes right of the marker when there is room, else left of it.
            let right = ex + 150 < plot.x + plot.width
            let lx = right ? ex + 12 : ex - 12
            let ly = ey + 4
            let align: Canvas.Align = right ? .left : .right
            switch story.outcome {
            case .completed:
                canvas.circle(
                    x: ex, y: ey, radius: 7, fill: Palette.completed, stroke: Palette.background, lineWidth: 2)
                canvas.line([(ex - 3.5, ey), (ex - 1, ey + 3), (ex + 4, ey - 3)], Palette.background, width: 2)
                canvas.text("completed", x: lx, y: ly, size: 11, Palette.completed, align: align, bold: true)
            case .cancelled(let reason):
                canvas.circle(
                    x: ex, y: ey, radius: 7, fill: Palette.cancelled, stroke: Palette.background, lineWidth: 2)
                canvas.line([(ex - 3, ey - 3), (ex + 3, ey + 3)], Palette.background, width: 2)
                canvas.line([(ex - 3, ey + 3), (ex + 3, ey - 3)], Palette.background, width: 2)
                canvas.text(
                    "cancelled (\(reason))", x: lx, y: ly, size: 11, Palette.cancelled, align: align, bold: true)
            case .unfinished:
                break
            }
        }
    }

    /// One row when it fits, wrapped otherwise (a one-panel plot is narrow).
    private func legend(on canvas: Canvas, y top: Double, width: Double) {
        enum Swatch { case line(Colour, Double, (Double, Double)?), band(Colour), dot(Colour), shot }
        let items: [(Swatch, String)] = [
            (.line(Palette.force, 2, nil), "force"), (.line(Palette.preview, 2.5, nil), "preview progress"),
            (.line(Palette.commit, 2.5, nil), "commit progress"),
            (.band(Palette.preview.with(alpha: 0.16)), "preview phase"),
            (.band(Palette.commit.with(alpha: 0.2)), "commit phase"), (.line(Palette.muted, 1, (5, 4)), "thresholds"),
            (.dot(Palette.completed), "completed"), (.dot(Palette.cancelled), "cancelled"), (.shot, "screenshot"),
        ]
        var x = 24.0
        var y = top
        for (swatch, label) in items {
            let needed = 28 + Double(label.count) * 7.5 + 20
            if x + needed > width - 12 {
                x = 24
                y += 24
            }
            switch swatch {
            case .line(let colour, let lineWidth, let dash):
                canvas.line([(x, y - 4), (x + 22, y - 4)], colour, width: lineWidth, dash: dash)
            case .band(let colour): canvas.fill(x: x, y: y - 11, width: 22, height: 14, colour)
            case .dot(let colour): canvas.circle(x: x + 11, y: y - 4, radius: 6, fill: colour)
            case .shot:
                canvas.circle(x: x + 11, y: y - 4, radius: 7, fill: Palette.shot)
                canvas.text("n", x: x + 11, y: y, size: 9, Palette.background, align: .centre, bold: true)
            }
            x += 28 + canvas.text(label, x: x + 28, y: y, size: 12, Palette.ink) + 20
        }
    }

    static func niceStep(_ raw: Double) -> Double {
        guard raw > 0, raw.isFinite else { return 1 }
        var magnitude = 1.0
        while magnitude > raw { magnitude /= 10 }
        while magnitude * 10 <= raw { magnitude *= 10 }
        for factor in [1.0, 2, 2.5, 5, 10] where magnitude * factor >= raw { return magnitude * factor }
        return magnitude * 10
    }

    /// A tick label with as many decimals as the step needs.
    static func label(_ value: Double, step: Double) -> String {
        var digits = 0
        var scaled = step
        while digits < 4 && (scaled - scaled.rounded()).magnitude > 1e-9 {
            scaled *= 10
            digits += 1
        }
        return Fixed.format(value, digits: digits)
    }
}

func seconds(_ time: Timestamp) -> Double { Double(time.microseconds) / 1_000_000 }
