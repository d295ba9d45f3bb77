import DemoReport
import Foundation
import PreviewEngine
import PreviewTrace
import SystemLayer
import Testing
import _FixtureTestSupport

/// preview-compositor as a window (`--backend wayland`) inside our own headless compositor,
/// which replays a recording: the parent's pen reaches the nested compositor over tablet-v2 with
/// its measured pressure, its mouse over wl_pointer, its keyboard over wl_keyboard, and
/// peek-client inside the nested compositor does what it does when the recording drives it
/// directly.
@Suite("Nested in our own compositor: the parent's devices drive peek-client inside the window")
struct NestedTests {
    @Test("Dell Canvas pen through tablet-v2: the same peek and pop, measured force, progress within 0.02")
    func pen() throws {
        let recording = Fixtures.path("dell-canvas-isdv4-pen.yml")
        let nested = try NestedRun(recordings: [recording])
        #expect(nested.status == 0, "\(nested.diagnostics)")
        let direct = try CompositorRun(recording: recording)
        defer { direct.removeFiles() }
        #expect(direct.status == 0, "\(direct.diagnostics)")

        #expect(!nested.trace.isEmpty, "the nested compositor traced nothing\n\(nested.diagnostics)")
        #expect(nested.trace.allSatisfy { $0.source == .pen && !$0.simulated }, "pen with measured force")
        // A 47 ms stroke lifted at once (libinput's pressure thresholds), then the peek and pop.
        // The parent's pen does not wait for the nested client (the direct replay does): one
        // too slow to answer within the 47 ms gets the stroke as a click, which opens the photo.
        let late = nested.client.endedBeforeAnswered
        withKnownIssue("the nested client answered after the 47 ms stroke lifted: a click", isIntermittent: true) {
            let problems = differences(nested: nested.trace, direct: direct.trace)
            #expect(problems.isEmpty, "\(problems)\n\(nested.diagnostics)")
            #expect(
                TracedInteractions(nested.trace).interactions.map { PhaseStep.outline($0.steps) } == [
                    [.shouldBegin(1), .cancelled(1, UInt32(CancelReason.lifted.rawValue))],
                    [.shouldBegin(1), .previewEnded(1), .completed(1)],
                ])
        } when: {
            !late.isEmpty
        }
        #expect(
            nested.client.results.contains { $0.contains("result=opened") },
            "peek-client popped:\n\(nested.client.text)")
        // Our compositor offers xdg-decoration: the window asks it for server-side decorations.
        #expect(nested.diagnostics.contains("decorations: server-side (xdg-decoration)"), "\(nested.diagnostics)")
    }

    @Test("A mouse long press through wl_pointer: simulated force, the same interaction as direct")
    func mouseLongPress() throws {
        let folder = scratchDirectory("mouse")
        let recording = try mouseLongPressRecording(in: folder)
        let nested = try NestedRun(recordings: [recording])
        #expect(nested.status == 0, "\(nested.diagnostics)")
        let direct = try CompositorRun(recording: recording)
        defer { direct.removeFiles() }

        #expect(!nested.trace.isEmpty, "the nested compositor traced nothing\n\(nested.diagnostics)")
        #expect(nested.trace.allSatisfy { $0.source == .pointer }, "pointer source")
        #expect(nested.trace.contains { $0.simulated }, "a long press simulates force")
        let problems = differences(nested: nested.trace, direct: direct.trace)
        #expect(problems.isEmpty, "\(problems)\n\(nested.diagnostics)")
    }

    @Test("Keyboard: Escape from the parent leaves the pop, so a second press pops again")
    func escapeLeavesThePop() throws {
        let pen = Fixtures.path("dell-canvas-isdv4-pen.yml")
        let escape = Fixtures.path("handwritten-usb-keyboard-escape.yml")
        let nested = try NestedRun(recordings: [pen, escape, pen])
        #expect(nested.status == 0, "\(nested.diagnostics)")
        // After the first pop peek-client shows the photo; only Escape brings the grid back,
        // where the second press on the same photo pops again.
        let opened = nested.client.results.filter { $0.contains("result=opened") }
        #expect(opened.count == 2, "\(nested.client.results)\n\(nested.diagnostics)")
        // Each press is a short stroke lifted at once, then the pop (see above for a client too
        // slow for the short stroke: it opens the photo by a click instead).
        let lifted = PhaseStep.cancelled(1, UInt32(CancelReason.lifted.rawValue))
        let outcomes = TracedInteractions(nested.trace).interactions.map { $0.steps.last }
        withKnownIssue("the nested client answered after a 47 ms stroke lifted: a click", isIntermittent: true) {
            #expect(outcomes == [lifted, .completed(1), lifted, .completed(1)], "\(outcomes)")
        } when: {
            !nested.client.endedBeforeAnswered.isEmpty
        }
    }

    @Test("docs/compositor.md's command nests ours in our own headless compositor as written, and logs no noise")
    func documentedCommand() throws {
        let folder = scratchDirectory("nested-docs")
        let text = try String(contentsOfFile: checkout + "/docs/compositor.md", encoding: .utf8)
        let marker = try #require(text.range(of: "so it opens a window there):"))
        let open = try #require(text[marker.upperBound...].range(of: "```sh\n"))
        let close = try #require(text[open.upperBound...].range(of: "```"))
        // As a user types it in the checkout, with this build's executables.
        let command = text[open.upperBound..<close.lowerBound]
            .replacingOccurrences(of: ".build/debug/", with: tools.directory + "/")
            .replacingOccurrences(of: "Tests/Fixtures/", with: checkout + "/Tests/Fixtures/")
        let log = folder + "/run.log"
        let run = try ChildProcess(
            ["/bin/sh", "-c", "cd \(shellQuote(folder)) && " + command],
            environment: ["XDG_RUNTIME_DIR": TestRuntimeDirectory.path],
            unsetting: ["WAYLAND_DISPLAY", "WAYLAND_SOCKET"],
            output: .file(log))
        let status = run.wait(timeout: 120)
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(status == 0, "\(output)")
        let trace = (try? TraceReader.read(path: folder + "/nested.jsonl")) ?? []
        #expect(
            TracedInteractions(trace).interactions.count >= 1, "the nested compositor traced no interaction:\n\(output)"
        )
        #expect(output.contains("decorations: server-side (xdg-decoration)"), "\(output)")
        // A normal run says nothing alarming: the nested compositor finds a free socket name
        // without libwayland's lock-file error, peek-client ignores nothing it was sent.
        for noise in ["lockfile", "ignored:"] {
            #expect(!output.contains(noise), "'\(noise)' in a normal run:\n\(output)")
        }
    }
}
