import CWaylandClient
import PreviewEngine
import PreviewInteraction
import PreviewProtocolServer
import Testing
import _PreviewProtocolTestSupport

// The Swift library under a compositor that sends wire-valid but hostile sequences, the same
// scenarios the C library (Tests/capi-client/items.c) and the GTK adapter
// (gtk/tests, "hostile-*") face: the same answer from every one, every time.

@Suite(.serialized) struct HostileCompositorLibraryTests {
    /// The server's protocol number of the n-th interaction it asked about (from 1, in order).
    static func asked(_ app: AppHarness, _ id: Int) -> Bool {
        app.delegate.calls.last == "\(id): shouldBegin"
    }

    @Test func tenThousandPressesTheCompositorNeverEndsLeaveTheFreshPressAsked() throws {
        let app = try AppHarness(answer: .yes)
        // In batches the app answers as they come: the newest press is asked every time (older
        // ones a newer press pushed out before the app heard of them are never asked).
        for first in stride(from: 1, through: 10_000, by: 100) {
            for id in first..<first + 100 { app.ask(UInt64(id)) }
            let asked = app.dispatch(until: { Self.asked(app, first + 99) })
            #expect(asked, "press \(first + 99) not asked")
            guard asked else { return }
        }
        #expect(app.interaction.runningPresses.count == 32)
        app.ask(10_001)
        #expect(app.dispatch(until: { Self.asked(app, 10_001) }), "the fresh press was not asked")
        #expect(
            app.dispatch(until: {
                app.inputs.contains { if case .answered(InteractionID(10_001), true, _) = $0 { true } else { false } }
            }), "the fresh press was not accepted")
        #expect(app.interaction.runningPresses.map(\.id).last == 10_001)
        // The stale presses were cancelled on the wire, oldest first, and told to the app once.
        let cancelledOnTheWire = app.inputs.compactMap { if case .cancelled(let id, _) = $0 { id } else { nil } }
        #expect(cancelledOnTheWire.first == InteractionID(1) && cancelledOnTheWire.count == 10_001 - 32)
        #expect(!app.delegate.calls.contains { $0.hasSuffix("cancel declined") })
    }

    @Test func aPressTheAppCancelledWhoseCommitAndCompletionKeepComingLeavesTheNextPressAsked() throws {
        let app = try AppHarness(answer: .yes)
        app.ask(1)
        #expect(app.waitForInputs(1))
        app.perform(.phase(.previewProgress, .test(1, progress: 0.4)))
        #expect(app.dispatch(until: { app.delegate.calls.count == 2 }))
        app.interaction.cancel()
        #expect(app.delegate.calls.last == "1: cancel client_cancelled")
        // The compositor ignores the cancel: the commit, the completion, and again.
        for _ in 0..<2 {
            app.perform(.phase(.previewEnded, .test(1, progress: 1)))
            app.perform(.phase(.commitProgress, .test(1, progress: 0.5)))
            app.perform(.phase(.completed, .test(1, progress: 1)))
        }
        app.ask(2)
        #expect(app.dispatch(until: { Self.asked(app, 2) }), "\(app.delegate.calls)")
        #expect(
            app.dispatch(until: {
                app.inputs.contains { if case .answered(InteractionID(2), true, _) = $0 { true } else { false } }
            }))
        #expect(
            app.delegate.calls == [
                "1: shouldBegin", "1: preview 0.3984375", "1: cancel client_cancelled", "2: shouldBegin",
            ])
    }
}
