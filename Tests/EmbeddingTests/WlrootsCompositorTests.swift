import DemoReport
import Foundation
import PreviewTrace
import SystemLayer
import Testing
import _FixtureTestSupport

/// The wlroots proof: examples/wlroots-compositor, built by make against Debian's wlroots 0.15
/// and libpreview-interaction, on wlroots' headless backend with the pixman renderer. A
/// recording drives virtual wlroots devices, so the events take wlroots' input path into the
/// library; peek-client runs inside.
@Suite(.serialized) struct WlrootsCompositorTests {
    // A client on a loaded machine may answer late
    static let shouldBeginTimeout = String(slowClientShouldBeginTimeout)

    struct Run {
        var status: Int32?
        var trace: [TraceRecord]
        var client: String
        var log: String
        /// What peek-client wrote on stderr.
        var clientErrors: String
    }

    /// One compositor (`arguments` before the common ones) with peek-client, to the end.
    static func run(_ arguments: [String], recording: String, label: String) throws -> Run {
        let folder = Paths.scratch(label)
        let trace = folder + "/trace.jsonl"
        let client = folder + "/client.log"
        let command = "exec '\(Paths.binaries)/peek-client' --log > '\(client)' 2> '\(folder)/client.stderr'"
        let process = try ChildProcess(
            arguments + [
                "--replay", Fixtures.path(recording), "--trace", trace, "--exit-when-done", "--should-begin-timeout",
                shouldBeginTimeout, "--run", command,
            ], environment: ["XDG_RUNTIME_DIR": folder], unsetting: ["WAYLAND_DISPLAY"],
            output: .file(folder + "/compositor.log"))
        let status = process.wait(timeout: 120)
        let records = (try? TraceReader.read(path: trace)) ?? []
        return Run(
            status: status, trace: records, client: FileWatch.contents(of: client),
            log: FileWatch.contents(of: folder + "/compositor.log"),
            clientErrors: FileWatch.contents(of: folder + "/client.stderr"))
    }

    @Test("The Dell Canvas pen: peek-client completes the peek and pop through the C library, as in preview-compositor")
    func dellCanvasPeekAndPop() throws {
        let build = try make("examples/wlroots-compositor", log: Paths.scratch("wlroots-build") + "/make.log")
        try #require(build.status == 0, "\(build.output)")
        let compositor = Paths.binaries + "/wlroots-compositor/preview-wlroots-compositor"
        let recording = "dell-canvas-isdv4-pen.yml"

        let wlroots = try Self.run(
            [compositor, "--decoder", Paths.binaries + "/preview-replay"], recording: recording, label: "wlroots")
        #expect(wlroots.status == 0, "\(wlroots.log)")
        #expect(wlroots.log.contains("libpreview-interaction 1."), "\(wlroots.log)")
        #expect(
            wlroots.client.contains("result=opened"), "peek-client popped the photo\n\(wlroots.client)\n\(wlroots.log)")
        // The documented run is quiet: no error from wlroots looking for a GPU the headless
        // pixman renderer does not need, and peek-client ends before its connection does
        // (no "Broken pipe").
        #expect(!wlroots.log.contains("[ERROR]") && !wlroots.log.contains("drmGetDevices2"), "\(wlroots.log)")
        #expect(wlroots.clientErrors.isEmpty, "\(wlroots.clientErrors)")

        let reference = try Self.run(
            [Paths.binaries + "/preview-compositor", "--fast"], recording: recording, label: "reference")
        #expect(reference.status == 0, "\(reference.log)")

        let ours = TracedInteraction.all(wlroots.trace)
        let theirs = TracedInteraction.all(reference.trace)
        // A 47 ms stroke lifted at once (libinput's pressure thresholds), then the peek and pop.
        #expect(ours.map(\.outcome) == ["cancelled (lifted)", "completed"], "wlroots: \(ours)\nreference: \(theirs)")
        #expect(theirs.map(\.outcome) == ours.map(\.outcome), "wlroots: \(ours)\nreference: \(theirs)")
        // The engine alone (every should-begin answered at once): every sample of each curve,
        // which the compositors' traces begin wherever their client's answer landed.
        let replayed = Paths.scratch("wlroots-replay") + "/trace.jsonl"
        let replay = try ChildProcess(
            [Paths.binaries + "/preview-replay", "--format", "json", Fixtures.path(recording)], output: .file(replayed))
        #expect(replay.wait(timeout: 60) == 0)
        let engine = TracedInteraction.all(try TraceReader.read(path: replayed))
        #expect(engine.map(\.outcome) == ours.map(\.outcome), "\(engine)")
        for (mine, other) in zip(ours, theirs) {
            // A client that answers after the force passed the commit threshold sees the
            // preview begin and end at once (no preview-began): how fast peek-client answers
            // varies with the machine's load, in either compositor.
            #expect(
                mine.phases.filter { $0 != "preview-began" } == other.phases.filter { $0 != "preview-began" },
                "\(mine)\n\(other)")
        }
        for (index, curve) in engine.enumerated() where index < ours.count && index < theirs.count {
            for (label, traced) in [("wlroots", ours[index]), ("preview-compositor", theirs[index])] {
                let problems = traced.progressMismatches(against: curve, tolerance: 0.02)
                #expect(problems.isEmpty, "\(label): \(problems.joined(separator: "\n"))\n\(traced)\n\(curve)")
            }
        }
        // Every record names the pen, as preview-compositor's do.
        #expect(wlroots.trace.allSatisfy { $0.device == "Wacom ISD-V4 Pen" && $0.source == .pen })
    }

    @Test("A recorded Menu key held over a version 2 client: a keyboard interaction through the example's key handler")
    func heldMenuKey() throws {
        let build = try make("examples/wlroots-compositor", log: Paths.scratch("wlroots-build") + "/make.log")
        try #require(build.status == 0, "\(build.output)")
        let folder = Paths.scratch("wlroots-keyboard")
        let client = folder + "/client.log"
        let process = try ChildProcess(
            [
                Paths.binaries + "/wlroots-compositor/preview-wlroots-compositor", "--decoder",
                Paths.binaries + "/preview-replay", "--replay", Fixtures.path("handwritten-usb-keyboard-menu-hold.yml"),
                "--trace", folder + "/trace.jsonl", "--exit-when-done", "--run",
                "exec /usr/bin/python3 '\(Paths.root)/Tests/python/v2_client.py' > '\(client)' 2>&1",
            ], environment: ["XDG_RUNTIME_DIR": folder], unsetting: ["WAYLAND_DISPLAY"],
            output: .file(folder + "/compositor.log"))
        let status = process.wait(timeout: 120)
        let lines = FileWatch.contents(of: client).split(separator: "\n").map(String.init)
        let log = FileWatch.contents(of: folder + "/compositor.log")
        #expect(status == 0, "\(log)")
        #expect(lines.contains("should_begin 1 5 2"), "source keyboard, force simulated: \(lines)\n\(log)")
        #expect(lines.contains("location 1 20.0 30.0"), "at the focus point: \(lines)")
        #expect(lines.last == "v2_client: completed", "\(lines)")
        let trace = (try? TraceReader.read(path: folder + "/trace.jsonl")) ?? []
        #expect(trace.last?.phase == .completed && trace.allSatisfy { $0.source == .keyboard }, "\(trace)")
    }
}
