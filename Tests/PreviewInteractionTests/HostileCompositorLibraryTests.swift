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

    /// The flood: 10,000 pen presses the compositor never ends, in batches the app answers as
    /// they come, then a fresh one. True when the fresh press was asked and accepted.
    static func flood(_ app: AppHarness) -> Bool {
        for first in stride(from: 1, through: 10_000, by: 100) {
            for id in first..<first + 100 { app.ask(UInt64(id)) }
            guard app.dispatch(until: { Self.asked(app, first + 99) }) else { return false }
        }
        app.ask(10_001)
        return app.dispatch(until: { Self.asked(app, 10_001) })
            && app.dispatch(until: {
                app.inputs.contains { if case .answered(InteractionID(10_001), true, _) = $0 { true } else { false } }
            })
    }

    @Test func afterTenThousandPressesNeverEndedAnAppThatTakesOnePressAtATimeAcceptsTheFreshOne() throws {
        // As the sample apps answer: busy while a press of theirs runs. The pen cannot press
        // twice at once: each new pen press ends the one the compositor never ended, and the app
        // is free for the next (without that, the first press it took held it busy for good).
        let app = try AppHarness(answer: .oneAtATime)
        #expect(Self.flood(app), "the fresh press was not accepted: \(app.delegate.calls.suffix(4))")
        #expect(app.interaction.runningPresses.map(\.id) == [10_001])
        #expect(
            app.delegate.calls.suffix(3) == [
                "10000: shouldBegin", "10000: cancel desynchronised", "10001: shouldBegin",
            ])
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
        // One pen: each new press ended the one before.
        #expect(app.interaction.runningPresses.count == 1)
        app.ask(10_001)
        #expect(app.dispatch(until: { Self.asked(app, 10_001) }), "the fresh press was not asked")
        #expect(
            app.dispatch(until: {
                app.inputs.contains { if case .answered(InteractionID(10_001), true, _) = $0 { true } else { false } }
            }), "the fresh press was not accepted")
        #expect(app.interaction.runningPresses.map(\.id).last == 10_001)
        // The stale presses were cancelled on the wire, oldest first, and told to the app once.
        let cancelledOnTheWire = app.inputs.compactMap { if case .cancelled(let id, _) = $0 { id } else { nil } }
        #expect(cancelledOnTheWire.first == InteractionID(1) && cancelledOnTheWire.count == 10_000)
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
