import DemoReport
import Foundation
import PreviewEngine
import PreviewTrace
import SystemLayer
import Testing
import _FixtureTestSupport

// Support for the nested tests: our compositor as a window (--backend wayland) inside a parent
// compositor, with peek-client inside it, compared with the same recordings replayed directly.

/// Parent: `preview-compositor --backend headless --replay FILES --fast --exit-when-done`; its
/// `--run` child is the nested `preview-compositor --backend wayland`, whose `--run` child is
/// `peek-client --log`. The parent's recordings reach the nested compositor as its window's
/// input (tablet-v2, wl_pointer, wl_keyboard).
struct NestedRun {
    let folder: String
    let status: Int32?
    /// The nested compositor's trace (what its engine did with the parent's input).
    let trace: [TraceRecord]
    let client: ClientLog
    let diagnostics: String

    init(recordings: [String], name: String = #function, timeout: Double = 120) throws {
        _ = TestRuntimeDirectory.path
        folder = scratchDirectory("nested-" + name)
        let clientLog = folder + "/client.log"
        let client =
            "exec \(shellQuote(tools.client)) --log > \(shellQuote(clientLog)) 2> \(shellQuote(folder + "/client.stderr"))"
        let nested = [
            "exec", shellQuote(tools.compositor), "--backend", "wayland", "--trace",
            shellQuote(folder + "/nested.jsonl"),
            "--should-begin-timeout", String(slowClientShouldBeginTimeout), "--run", shellQuote(client),
            "2>", shellQuote(folder + "/nested.log"),
        ].joined(separator: " ")
        let parent = try ChildProcess(
            [tools.compositor, "--backend", "headless", "--replay"] + recordings + [
                "--fast", "--exit-when-done", "--trace", folder + "/parent.jsonl", "--run", nested,
            ], output: .file(folder + "/parent.log"))
        // The parent exits once its replay has ended and its client (the nested compositor)
        // settled; the timeout only catches a hang.
        status = parent.wait(timeout: timeout)
        trace = (try? TraceReader.read(path: folder + "/nested.jsonl")) ?? []
        self.client = ClientLog(path: clientLog)
        let directory = folder
        diagnostics = ["parent.log", "nested.log", "client.stderr"].map { file in
            "--- \(file)\n"
                + ((try? String(contentsOfFile: directory + "/" + file, encoding: .utf8)) ?? "").suffix(3000)
        }.joined(separator: "\n")
    }
}

/// Where a nested run's engine differs from a direct run's: the same interactions with the same
/// phase outline and end, and per phase the same progress (within `tolerance`): every nested
/// value on the direct run's curve, the peaks and the last values alike. Returns one line per
/// problem.
func differences(nested: [TraceRecord], direct: [TraceRecord], tolerance: Double = 0.02) -> [String] {
    let nestedInteractions = TracedInteractions(nested).interactions
    let directInteractions = TracedInteractions(direct).interactions
    var problems: [String] = []
    if nestedInteractions.count != directInteractions.count {
        problems.append("\(nestedInteractions.count) nested interactions, \(directInteractions.count) direct")
    }
    for (index, (ours, theirs)) in zip(nestedInteractions, directInteractions).enumerated() {
        let number = index + 1
        if PhaseStep.outline(ours.steps) != PhaseStep.outline(theirs.steps) {
            problems.append(
                "interaction \(number): nested \(PhaseStep.outline(ours.steps).map(\.description)), direct \(PhaseStep.outline(theirs.steps).map(\.description))"
            )
        }
        for event in [TraceEvent.preview, .commit] {
            let a = ours.records.filter { $0.event == event }.map(\.progress)
            let b = theirs.records.filter { $0.event == event }.map(\.progress)
            // The parent's pen does not wait for the nested client's answer, the direct replay
            // does: the nested curve may begin later; either may be coalesced by flow control.
            problems += ProgressCurves.mismatches("interaction \(number) \(event)", a, against: b, tolerance: tolerance)
            if abs((a.last ?? 0) - (b.last ?? 0)) > tolerance {
                problems.append("interaction \(number) \(event): last \(a.last ?? 0) nested, \(b.last ?? 0) direct")
            }
        }
    }
    return problems
}

/// `handwritten-usb-mouse.yml` with its click held for 2 s: a long press through a mouse (the
/// recording's own click is shorter than any long-press setting).
func mouseLongPressRecording(in folder: String) throws -> String {
    let original = try String(contentsOfFile: Fixtures.path("handwritten-usb-mouse.yml"), encoding: .utf8)
    guard let events = original.range(of: "  events:\n") else {
        throw NestedTestError("no events in the mouse recording")
    }
    let frames = [
        (0, 200_000, [(2, 0, 4), (2, 1, 2)]),
        (0, 216_000, [(2, 0, 4), (2, 1, 2)]),
        (0, 600_000, [(4, 4, 589_825), (1, 272, 1)]),
        (2, 600_000, [(4, 4, 589_825), (1, 272, 0)]),
    ]
    var text = String(original[..<events.upperBound])
    for (seconds, micro, codes) in frames {
        text += "  - evdev:\n"
        for (type, code, value) in codes { text += "    - [\(seconds), \(micro), \(type), \(code), \(value)]\n" }
        text += "    - [\(seconds), \(micro), 0, 0, 0]\n"
    }
    let path = folder + "/mouse-long-press.yml"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

struct NestedTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
