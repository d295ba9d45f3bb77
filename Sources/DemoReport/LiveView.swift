import PreviewEngine
import PreviewTrace

/// The demo's terminal view of a trace as it happens: one line per phase change, and below them
/// a gauge per running interaction that redraws in place (`#1 pen  preview ███████░░░ 0.70`).
/// Without a terminal (CI logs) it prints plain lines: the phase changes, and the progress each
/// time it enters another quarter, so logs stay readable.
/// Pure: it returns the text to write; the caller owns the terminal.
public struct LiveView {
    public let isTerminal: Bool
    public let gaugeWidth: Int
    private var running: [InteractionID: TraceRecord] = [:]
    private var order: [InteractionID] = []
    private var drawnLines = 0
    /// Plain mode: the quarter (0...4) of the progress last printed, per interaction.
    private var quarters: [InteractionID: Int] = [:]
    public private(set) var finished: [InteractionID: Outcome] = [:]
    /// Times are shown from the first record on (a compositor's trace is on CLOCK_MONOTONIC).
    public private(set) var origin: Timestamp?

    public init(isTerminal: Bool, gaugeWidth: Int = 20) {
        self.isTerminal = isTerminal
        self.gaugeWidth = gaugeWidth
    }

    /// The text to write for one record (may be empty).
    public mutating func take(_ record: TraceRecord) -> String {
        if origin == nil { origin = record.time }
        guard record.event != .shouldBegin else { return "" }
        let id = record.interaction
        let phase = record.phaseAfter
        let changed = record.phase?.changesPhase ?? false
        if running[id] == nil && finished[id] == nil { order.append(id) }
        var out = isTerminal ? erase() : ""
        let quarter = Int(min(1, max(0, record.progress)) * 4)
        if changed {
            out += line(record, phase: phase) + "\n"
        } else if !isTerminal && quarters[id] != quarter {
            // No gauges in a log: a line each time the progress enters another quarter instead.
            out += line(record, phase: phase, live: true) + "\n"
        }
        quarters[id] = quarter
        if record.isFinal {
            running[id] = nil
            order.removeAll { $0 == id }
            finished[id] = InteractionStory(id: id, records: [record]).outcome
        } else {
            running[id] = record
        }
        if isTerminal { out += gauges() }
        return out
    }

    /// Clears the gauges at the end (interactions the trace left running stay as plain lines).
    public mutating func finish() -> String {
        var out = isTerminal ? erase() : ""
        for id in order {
            if let record = running[id] {
                out += line(record, phase: record.phaseAfter) + "  (unfinished)\n"
            }
        }
        running = [:]
        order = []
        return out
    }

    private mutating func erase() -> String {
        defer { drawnLines = 0 }
        // Up to the first gauge line, then clear to the end of the screen.
        return drawnLines > 0 ? "\u{1B}[\(drawnLines)F\u{1B}[J" : ""
    }

    private mutating func gauges() -> String {
        var out = ""
        for id in order {
            guard let record = running[id] else { continue }
            out += "  " + line(record, phase: record.phaseAfter, live: true) + "\n"
            drawnLines += 1
        }
        return out
    }

    /// `+6.598s  #1 pen        preview    ███████░░░ 0.70  Wacom ISD-V4 Pen`
    func line(_ record: TraceRecord, phase: Phase, live: Bool = false) -> String {
        let since = Timestamp(microseconds: record.time.microseconds - (origin ?? record.time).microseconds)
        let time = "+" + Fixed.format(seconds(since), digits: 3) + "s"
        let who = pad("\(record.interaction) \(record.source)\(record.simulated ? " (sim)" : "")", 16)
        let name: String
        switch phase {
        case .asking: name = "should-begin"
        case .preview: name = "preview"
        case .commit: name = record.phase == .previewEnded ? "peek → commit" : "commit"
        case .accelerator: name = "stage \(record.stage ?? 1)"
        case .completed: name = "completed (pop)"
        case .cancelled: name = "cancelled (\(record.reason?.description ?? "system"))"
        }
        var text = "\(pad(time, 10))\(who)\(colour(pad(name, 20), phase))"
        // A phase that just began has progress 0 of itself: show where the gauge stands.
        text += gauge(record.progress, phase) + " " + Fixed.format(record.progress, digits: 2)
        if !live {
            text += "  " + record.device
            if let client = record.client { text += " → \(client)" }
        }
        return text
    }

    func gauge(_ progress: Double, _ phase: Phase) -> String {
        let cells = Double(gaugeWidth) * min(1, max(0, progress))
        let full = Int(cells)
        let eighths = Int((cells - Double(full)) * 8)
        let partials = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]
        var bar = String(repeating: "█", count: full)
        if full < gaugeWidth {
            bar += partials[eighths]
            let used = full + (eighths > 0 ? 1 : 0)
            bar = colour(bar, phase) + dim(String(repeating: "░", count: gaugeWidth - used))
        } else {
            bar = colour(bar, phase)
        }
        return bar
    }

    private func colour(_ text: String, _ phase: Phase) -> String {
        guard isTerminal else { return text }
        let code: String
        switch phase {
        case .asking, .preview: code = "34"
        case .commit, .accelerator: code = "33"
        case .completed: code = "1;32"
        case .cancelled: code = "1;31"
        }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }

    private func dim(_ text: String) -> String { isTerminal ? "\u{1B}[2m\(text)\u{1B}[0m" : text }

    private func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(1, width - text.count))
    }
}
