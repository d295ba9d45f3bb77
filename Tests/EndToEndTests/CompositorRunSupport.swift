import DemoReport
import Foundation
import PreviewEngine
import PreviewTrace
import SystemLayer
import Testing
import _FixtureTestSupport

// Support for the end-to-end tests that run the real preview-compositor with peek-client:
// reading peek-client's `--log`, the compositor's trace and its screenshots, and checking one
// against the other.

/// What peek-client printed with `--log` (examples/peek-client/README.md): the protocol events it
/// received, per interaction in the order they began, as `PhaseStep`s numbered 1 each.
struct ClientLog {
    /// Wire interaction id → its steps (`should_begin`, progress, `preview_ended`, the end).
    private(set) var interactions: [(wire: UInt32, steps: [PhaseStep])] = []
    /// `result=` lines: what completed interactions (or clicks) did.
    private(set) var results: [String] = []
    /// Every `key=value` line, for messages.
    let text: String

    /// The cancel_reason entry names, as the protocol numbers them (= `CancelReason.rawValue`).
    static let reasons: [String: UInt32] = [
        "lifted": 1, "client_cancelled": 2, "declined": 3, "timeout": 4, "device_removed": 5, "surface_gone": 6,
        "desynchronised": 7, "moved": 8, "system": 9,
    ]

    init(path: String) {
        self.init(text: (try? String(contentsOfFile: path, encoding: .utf8)) ?? "")
    }

    init(text: String) {
        self.text = text
        for line in text.split(separator: "\n") {
            var fields: [Substring: Substring] = [:]
            for word in line.split(separator: " ") {
                guard let equals = word.firstIndex(of: "=") else { continue }
                fields[word[..<equals]] = word[word.index(after: equals)...]
            }
            if fields["result"] != nil { results.append(String(line)) }
            guard let wire = fields["interaction"].flatMap({ UInt32($0) }), let event = fields["event"] else {
                continue
            }
            let step: PhaseStep
            switch event {
            case "should_begin": step = .shouldBegin(1)
            case "preview": step = .preview(1, Self.wire(fields["progress"]))
            case "preview_ended": step = .previewEnded(1)
            case "commit": step = .commit(1, Self.wire(fields["progress"]))
            case "completed": step = .completed(1)
            case "cancelled": step = .cancelled(1, fields["reason"].flatMap { Self.reasons[String($0)] } ?? 0)
            default: continue  // frame, location: not phases
            }
            if let index = interactions.firstIndex(where: { $0.wire == wire }) {
                interactions[index].steps.append(step)
            } else {
                interactions.append((wire, [step]))
            }
        }
    }

    /// Interactions (wire ids) that ended before the client answered their should-begin: the
    /// press was over before the client got to it, so it reached the client as a plain click.
    var endedBeforeAnswered: [UInt32] {
        var asked: [UInt32] = []
        var late: [UInt32] = []
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ")
            guard let first = words.first, first.hasPrefix("interaction="), let wire = UInt32(first.dropFirst(12)),
                words.count > 1
            else { continue }
            if words[1] == "event=should_begin" {
                asked.append(wire)
            } else if words[1].hasPrefix("request=") {
                asked.removeAll { $0 == wire }
            } else if words[1] == "event=cancelled" || words[1] == "event=completed", asked.contains(wire) {
                asked.removeAll { $0 == wire }
                late.append(wire)
            }
        }
        return late
    }

    /// The wire value back from its 4-decimal print: a wl_fixed_t is a multiple of 1/256.
    private static func wire(_ text: Substring?) -> Double {
        guard let value = text.flatMap({ Double($0) }) else { return .nan }
        return (value * 256).rounded() / 256
    }

    /// Whether the log holds any preview-interaction event at all.
    var isEmpty: Bool { interactions.isEmpty }

    /// Interactions that have ended (their last step is completed or cancelled).
    var ended: Int { interactions.filter { $0.steps.last.map(\.isEnd) == true }.count }
}

extension PhaseStep {
    var isEnd: Bool {
        switch self {
        case .completed, .cancelled: true
        case .shouldBegin, .preview, .previewEnded, .commit: false
        }
    }

    /// The phase outline: the steps without progress values.
    static func outline(_ steps: [PhaseStep]) -> [PhaseStep] { steps.filter { !$0.isProgress } }
}

/// The compositor's trace split per interaction, in the order they began, each as the steps the
/// protocol promises the client (a should_begin first, since every traced interaction was asked).
struct TracedInteractions {
    var interactions: [(records: [TraceRecord], steps: [PhaseStep])] = []

    init(_ records: [TraceRecord]) {
        var order: [InteractionID] = []
        var byID: [InteractionID: [TraceRecord]] = [:]
        for record in records {
            if byID[record.interaction] == nil { order.append(record.interaction) }
            byID[record.interaction, default: []].append(record)
        }
        for id in order {
            let records = byID[id]!
            var steps = PhaseStep.steps(of: records)
            if steps.first != .shouldBegin(1) { steps.insert(.shouldBegin(1), at: 0) }
            interactions.append((records, steps))
        }
    }

    var count: Int { interactions.count }
}

/// Compares what the client received with what the engine produced, interaction by interaction.
///
/// The protocol coalesces progress under flow control: a frame that only carries progress is
/// held back while the client owes an `ack_frame`, and only the latest value is sent when the
/// ack arrives; a phase frame (`preview_ended`, `completed`, `cancelled`) is sent at once and
/// implies the threshold (preview 1.0, commit 1.0). A slow client (a debug build drawing a blur
/// at 1280×800) may therefore see a handful of the engine's samples, or none. So the check is:
/// the same phase steps in the same order, and every progress value received is one the engine
/// produced, in order, within wl_fixed precision (`PhaseStep.received(_:matches:)`), never
/// every sample.
///
/// A traced interaction the client never heard of must have ended while being asked: the server
/// declines on a client's behalf when it owes an ack for longer than the should-begin wait
/// (protocol.md, "Backpressure") and then sends nothing; the decline reaches the engine on the
/// next idle turn, so a tap that already lifted is traced as `lifted`. Returns one line per
/// problem.
func mismatches(client: ClientLog, trace: TracedInteractions) -> [String] {
    var problems: [String] = []
    var heard = client.interactions[...]
    for (index, traced) in trace.interactions.enumerated() {
        let number = index + 1
        if let next = heard.first, PhaseStep.received(next.steps, matches: traced.steps) {
            heard = heard.dropFirst()
            continue
        }
        if traced.steps.count == 2, traced.steps[1].isEnd, traced.steps[1] != .completed(1) { continue }
        problems.append(
            "traced interaction \(number): the engine produced \(traced.steps.map(\.description)), "
                + "the client received \(heard.first.map { $0.steps.map(\.description) } ?? ["nothing"])")
        if !heard.isEmpty { heard = heard.dropFirst() }
    }
    for extra in heard {
        problems.append("client interaction \(extra.wire) was never traced: \(extra.steps.map(\.description))")
    }
    return problems
}

/// One screenshot of a phase change: `NNNN-interaction<K>-<moment>.png`.
struct PhaseShot {
    var sequence: Int
    var interaction: Int
    /// preview, commit, completed, cancelled today; preview-half, commit-half, settled may come.
    var moment: String
    var path: String

    init?(file: String, in directory: String) {
        guard file.hasSuffix(".png") else { return nil }
        let parts = file.dropLast(4).split(separator: "-", maxSplits: 2)
        guard parts.count == 3, let sequence = Int(parts[0]), parts[1].hasPrefix("interaction"),
            let interaction = Int(parts[1].dropFirst("interaction".count))
        else { return nil }
        self.sequence = sequence
        self.interaction = interaction
        moment = String(parts[2])
        path = directory + "/" + file
    }

    static func all(in directory: String) -> [PhaseShot] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return files.compactMap { PhaseShot(file: $0, in: directory) }.sorted { $0.sequence < $1.sequence }
    }
}

/// One run of the real `preview-compositor` executable, as a user starts it:
/// `--replay FILE --fast --trace T --screenshot-dir D --exit-when-done --run 'peek-client --log'`.
struct CompositorRun {
    let folder: String
    let status: Int32?
    let trace: [TraceRecord]
    let client: ClientLog
    let shots: [PhaseShot]
    /// The compositor's stderr and the client's diagnostics, for messages.
    let diagnostics: String

    init(recording: String, extra: [String] = [], timeout: Double = 90) throws {
        _ = TestRuntimeDirectory.path
        folder = scratchDirectory("run-" + URL(fileURLWithPath: recording).deletingPathExtension().lastPathComponent)
        let shotsDirectory = folder + "/shots"
        try FileManager.default.createDirectory(atPath: shotsDirectory, withIntermediateDirectories: true)
        let clientLog = folder + "/client.log"
        let clientErrors = folder + "/client.stderr"
        let command = "exec \(shellQuote(tools.client)) --log > \(shellQuote(clientLog)) 2> \(shellQuote(clientErrors))"
        let child = try ChildProcess(
            [
                tools.compositor, "--backend", "headless", "--replay", recording, "--fast", "--trace",
                folder + "/trace.jsonl",
                "--screenshot-dir", shotsDirectory, "--exit-when-done", "--run", command,
                "--should-begin-timeout", String(slowClientShouldBeginTimeout),
            ] + extra, output: .file(folder + "/compositor.log"))
        // Synchronisation: the compositor exits by itself once the replay has ended and the
        // engine and clients have settled (--exit-when-done); the timeout only catches a hang.
        status = child.wait(timeout: timeout)
        trace = (try? TraceReader.read(path: folder + "/trace.jsonl")) ?? []
        client = ClientLog(path: clientLog)
        shots = PhaseShot.all(in: shotsDirectory)
        diagnostics =
            ((try? String(contentsOfFile: folder + "/compositor.log", encoding: .utf8)) ?? "")
            + ((try? String(contentsOfFile: clientErrors, encoding: .utf8)) ?? "")
    }

    func removeFiles() { try? FileManager.default.removeItem(atPath: folder) }
}
