import LibinputBackend
import LibinputRecording
import PreviewEngine
import ReplayTool
import Testing
import UmockdevHarness

/// Whether the testbed can run here; the reason is printed when it cannot.
enum Testbed {
    static let availability = LibinputTestbed.availability()
    static var available: Bool {
        if case .unavailable(let why) = availability {
            print("LibinputBackendTests: skipping the real-libinput testbed: \(why)")
            return false
        }
        return true
    }
}

/// One interaction's fate, from a JSON-lines trace.
struct InteractionOutcome: Hashable, CustomStringConvertible {
    var id: Int
    var end: String
    var peakPreview: Double
    var start: Int64
    var description: String { "#\(id) \(end) peak \(peakPreview) at \(start)µs" }
}

/// Replays `input` through the engine and returns its summary and per-interaction outcomes.
func replay<Input: ReplayInput>(_ input: Input) throws -> (ReplaySummary, [InteractionOutcome]) {
    var options = ReplayOptions()
    options.format = .json
    var lines: [String] = []
    let summary = try Replay.replay(input: input, clock: VirtualClock(), options: options, output: { lines.append($0) })
    var outcomes: [Int: InteractionOutcome] = [:]
    for line in lines {
        guard let id = field(line, "interaction").flatMap({ Int($0) }), let event = field(line, "event"),
            let time = field(line, "time_us").flatMap({ Int64($0) })
        else { continue }
        var outcome = outcomes[id] ?? InteractionOutcome(id: id, end: "open", peakPreview: 0, start: time)
        let progress = field(line, "progress").flatMap { Double($0) } ?? 0
        let ended = field(line, "ended") == "true"
        switch event {
        case "preview": outcome.peakPreview = max(outcome.peakPreview, progress)
        case "commit" where ended: outcome.end = "completed"
        case "cancel": outcome.end = "cancel:" + (field(line, "reason") ?? "?")
        default: break
        }
        outcomes[id] = outcome
    }
    return (summary, outcomes.keys.sorted().map { outcomes[$0]! })
}

/// A value from one flat JSON line (the trace's own format: no nesting, no escaped quotes in values we read).
func field(_ line: String, _ key: String) -> String? {
    guard let range = line.range(of: "\"\(key)\":") else { return nil }
    var value = line[range.upperBound...].drop(while: { $0 == " " })
    if value.first == "\"" {
        value = value.dropFirst()
        return String(value.prefix(while: { $0 != "\"" }))
    }
    return String(value.prefix(while: { $0 != "," && $0 != "}" }))
}
