import Foundation
import LibinputRecording
import PreviewEngine
import PreviewTrace
import ReplayTool
import Testing
import _FixtureTestSupport

/// A pen recording through the real libinput (umockdev testbed, docs/testing.md) driving the real
/// compositor and a real peek-client, next to the same recording through the evdev decoder: the
/// path a user's own tablet takes with `preview-compositor --libinput`, up to the pixels' owner.
///
/// How: the testbed runs first (`LibinputTestbedInput`: libinput's events, buffered), then an
/// in-process compositor is fed those events exactly as `--replay --fast` feeds decoded ones
/// (`InProcessCompositor.play`). `preview-compositor --libinput` itself cannot run inside the
/// testbed: umockdev's event script is paced by ticks our testbed runner writes (the drift fix
/// in docs/testing.md), and the compositor's libinput source uses the udev seat backend, not the
/// runner's path backend; so the compositor's input is the runner's output instead.
@Suite(.enabled(if: Testbed.available, "needs umockdev-run and mount namespaces (unshare -m)"))
struct LibinputCompositorTests {
    /// The Cintiq 13HD pen: half a second, one press that peeks, enters the commit phase over a
    /// photo and lifts (see the table in CompositorTraceTests).
    static let file = "wacom-cintiq13hd-pen.yml"

    @Test("The Cintiq 13HD pen via the real libinput: peek-client gets the decoder path's peek, commit and lift")
    func penThroughLibinputIntoTheCompositor() throws {
        var viaLibinput = try LibinputTestbedInput(path: Fixtures.path(Self.file))
        let starved = viaLibinput.framesAtRisk
        var decoded = try RecordingInput(path: Fixtures.path(Self.file))
        let direct = try CompositorFeed(&decoded)
        let real = try CompositorFeed(&viaLibinput)

        // Each path on its own: the client received exactly the engine's phases, on its surface.
        for (name, run) in [("decoder", direct), ("libinput", real)] {
            #expect(run.problems.isEmpty, "\(name): \(run.problems)\n\(run.client.text)")
            #expect(run.trace.allSatisfy { $0.client == "client1" && $0.surface == run.surface }, "\(name)")
        }
        // A testbed starved by a busy machine measures the load, not libinput (docs/testing.md):
        // after the harness's retries, its differences are a known issue.
        withKnownIssue("testbed starved (\(starved) frame(s) late) or the client timed out", isIntermittent: true) {
            // libinput decides the tip from pressure (the decoder from BTN_TOUCH): a feather-light
            // flicker may be a stroke of its own; the strokes that matter are the same.
            let significant = { (run: CompositorFeed) in
                run.traced.interactions.filter { interaction in
                    interaction.records.contains { $0.progress >= 0.05 || $0.event == .commit }
                }
            }
            let a = significant(direct)
            let b = significant(real)
            #expect(a.map { PhaseStep.outline($0.steps) } == b.map { PhaseStep.outline($0.steps) })
            #expect(PhaseStep.outline(a.first?.steps ?? []) == [.shouldBegin(1), .previewEnded(1), .cancelled(1, 1)])
            for (x, y) in zip(a, b) {
                // libinput normalises pressure with its own tip threshold: 0.01–0.02 apart.
                let peak = { (records: [TraceRecord]) in
                    records.filter { $0.event == .preview }.map(\.progress).max() ?? 0
                }
                #expect(abs(peak(x.records) - peak(y.records)) <= 0.05, "\(peak(x.records)) vs \(peak(y.records))")
                // The same place on the window (libinput's area mapping against absinfo), where
                // the pen lifted: the first traced sample depends on when the client accepted (the
                // pen moves meanwhile); libinput's pressure threshold may lift a few samples
                // apart. A wrong mapping would be hundreds of pixels off.
                if let p = x.records.last?.location, let q = y.records.last?.location {
                    #expect(abs(p.x - q.x) < 64 && abs(p.y - q.y) < 64, "\(p) vs \(q)")
                }
            }
        } when: {
            // Or a debug peek-client too slow for the 150 ms should-begin wait on a loaded machine.
            starved > 0 || [direct, real].contains { $0.trace.contains { $0.reason == .timeout } }
        }
    }
}

/// One in-process compositor + peek-client run fed with `input`'s events.
struct CompositorFeed {
    let trace: [TraceRecord]
    let traced: TracedInteractions
    let client: ClientLog
    let surface: SurfaceID?
    let problems: [String]

    init(_ input: inout some ReplayInput) throws {
        let events = try allEvents(of: &input)
        let compositor = try InProcessCompositor()
        defer { compositor.removeFiles() }
        let peek = try compositor.launchClient("peek")
        #expect(compositor.waitForWindows(1), "the window never mapped")
        surface = compositor.windows.first?.surface
        #expect(compositor.play(events, devices: input.devices), "the feed did not finish")
        #expect(compositor.settle())
        trace = try compositor.finish()
        client = peek.log
        traced = TracedInteractions(trace)
        problems = mismatches(client: client, trace: traced)
    }
}
