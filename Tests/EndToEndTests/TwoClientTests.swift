import Foundation
import LibinputRecording
import PreviewEngine
import PreviewTrace
import ReplayTool
import Testing
import _FixtureTestSupport

/// Two real peek-client windows in the real compositor, side by side (it tiles toplevels in
/// equal columns, oldest on the left); the Dell pen presses at x ≈ 0.6 of the output, on the
/// right window: a 47 ms stroke (libinput's pressure thresholds lift the tip in its pressure
/// dip), then the peek and pop. In-process, because the command line starts the replay at the first map and
/// the second window must be in place before the pen lands.
@Suite("Two clients side by side in preview-compositor")
struct TwoClientTests {
    @Test("The Dell pen lands on the second window: it gets the peek and pop, the first gets nothing")
    func contactOnTheSecondWindow() throws {
        let compositor = try InProcessCompositor()
        defer { compositor.removeFiles() }
        let left = try compositor.launchClient("left")
        // One after the other, so that "left" is the older window (and client1).
        #expect(compositor.waitForWindows(1), "the first window never mapped")
        let right = try compositor.launchClient("right")
        // Both mapped and the first one re-laid out into its column (it acked the new size and
        // drew at it), so the hit-test sees two columns.
        #expect(compositor.waitForWindows(2), "\(compositor.windows)")
        let windows = compositor.windows
        try #require(windows.count == 2)
        #expect(windows[0].client == "client1" && windows[1].client == "client2")

        var input = try RecordingInput(path: Fixtures.path("dell-canvas-isdv4-pen.yml"))
        let events = try allEvents(of: &input)
        #expect(compositor.play(events, devices: input.devices), "the feed did not finish")
        #expect(compositor.settle())
        // The client has it all once its log shows the interaction's end (a protocol event).
        let ended = FileWatch.wait(inDirectoryOf: right.logPath, timeout: 20) { right.log.ended == 2 }
        #expect(ended, "\(right.log.text)")
        let trace = try compositor.finish()

        // The engine's interactions are the right window's, in every record.
        let traced = TracedInteractions(trace)
        #expect(traced.count == 2)
        #expect(
            trace.allSatisfy { $0.surface == windows[1].surface && $0.client == "client2" }, "\(trace.map(\.client))")
        // The right client received exactly that interaction; the left one no interaction event.
        let problems = mismatches(client: right.log, trace: traced)
        #expect(problems.isEmpty, "\(problems)\n\(right.log.text)")
        // The client has 10 s to answer (InProcessCompositor): the short stroke, the peek and pop.
        #expect(
            right.log.interactions.map { PhaseStep.outline($0.steps) } == [
                [.shouldBegin(1), .cancelled(1, UInt32(CancelReason.lifted.rawValue))],
                [.shouldBegin(1), .previewEnded(1), .completed(1)],
            ], "\(right.log.text)")
        #expect(left.log.isEmpty, "\(left.log.text)")
        #expect(left.log.results.isEmpty, "the left window acted: \(left.log.results)")
        // Surface-local: the pen's x on the output minus the right column's origin.
        if let location = trace.first?.location {
            #expect(location.x >= 0 && location.x < Double(windows[1].width), "\(location)")
        }
    }
}
