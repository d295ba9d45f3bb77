import CWaylandClient
import Foundation
import PreviewEngine
import PreviewInteraction
import PreviewProtocolServer
import Testing
import _PreviewProtocolTestSupport

// A cancel at each point of a press, for each reason: one previewInteractionDidCancel, with
// the reason, and nothing after it.

@Suite(.serialized) struct CancelTests {
    /// How far the press got before the cancel.
    enum Point_: String, CaseIterable, Sendable {
        case beforeTheAnswer, afterTheAnswer, inThePreview, atTheCommit, inTheCommit
    }

    /// Brings engine interaction 7 to `point`; returns the calls expected so far.
    static func press(_ app: AppHarness, to point: Point_) -> [String] {
        app.ask(7)
        var expected = ["1: shouldBegin"]
        if point == .beforeTheAnswer {
            #expect(app.dispatch(until: { app.delegate.calls.count == 1 }))
            return expected
        }
        #expect(app.waitForInputs(1))
        let steps: [(Action, String)] = [
            (.phase(.previewProgress, .test(7, progress: 0.4)), "1: preview 0.3984375"),
            (.phase(.previewEnded, .test(7, progress: 1)), "1: preview 1.0 ended"),
            (.phase(.commitProgress, .test(7, progress: 0.25)), "1: commit 0.25"),
        ]
        let count: Int
        switch point {
        case .beforeTheAnswer, .afterTheAnswer: count = 0
        case .inThePreview: count = 1
        case .atTheCommit: count = 2
        case .inTheCommit: count = 3
        }
        for (action, call) in steps.prefix(count) {
            app.perform(action)
            expected.append(call)
            #expect(app.dispatch(until: { app.delegate.calls.count == expected.count }), "\(app.delegate.calls)")
        }
        return expected
    }

    /// The compositor's cancels that can happen at each point: a lift or an unplugged device at
    /// any point, a timeout only before the answer.
    static let compositorCancels: [(Point_, CancelReason)] = Point_.allCases.flatMap { point in
        let reasons: [CancelReason] =
            point == .beforeTheAnswer ? [.lifted, .deviceRemoved, .timeout] : [.lifted, .deviceRemoved]
        return reasons.map { (point, $0) }
    }

    @Test(arguments: compositorCancels)
    func theCompositorCancels(at point: Point_, reason: CancelReason) throws {
        let app = try AppHarness(answer: point == .beforeTheAnswer ? .later : .yes)
        var expected = Self.press(app, to: point)
        app.perform(.phase(.cancelled(reason), .test(7)))
        let name = PreviewCancelReason(wire: UInt32(reason.rawValue)).description
        expected.append("1: cancel \(name)")
        #expect(app.dispatch(until: { app.delegate.calls.count == expected.count }), "\(app.delegate.calls)")
        #expect(app.delegate.calls == expected)
        #expect(app.interaction.currentPress?.cancelReason == PreviewCancelReason(wire: UInt32(reason.rawValue)))
        #expect(app.interaction.runningPresses.isEmpty)
        // A late answer (after a timeout) is ignored, never an error.
        app.delegate.answers.first?.accept()
        #expect(wl_display_roundtrip(app.display) >= 0 && wl_display_get_error(app.display) == 0)
        // Nothing follows the cancel: the next press's call comes right after it.
        app.delegate.answering = .yes
        app.ask(8)
        #expect(app.dispatch(until: { app.delegate.calls.count == expected.count + 1 }))
        #expect(app.delegate.calls == expected + ["2: shouldBegin"])
    }

    @Test(arguments: Point_.allCases)
    func theAppCancels(at point: Point_) throws {
        let app = try AppHarness(answer: point == .beforeTheAnswer ? .later : .yes)
        var expected = Self.press(app, to: point)
        let inputsBefore = app.inputs.count
        app.interaction.cancel()
        // At once, on the calling thread (UIKit's cancelInteraction).
        expected.append("1: cancel client_cancelled")
        #expect(app.delegate.calls == expected)
        // The compositor hears it (before the answer, a cancel declines).
        #expect(app.waitForInputs(inputsBefore + 1))
        guard case .cancelled(InteractionID(7), _) = app.inputs.last else {
            Issue.record("expected a cancel, got \(String(describing: app.inputs.last))")
            return
        }
        app.perform(.phase(.cancelled(.clientCancelled), .test(7)))
        // The compositor's own cancelled event makes no second call.
        app.ask(8)
        #expect(app.dispatch(until: { app.delegate.calls.count == expected.count + 1 }))
        #expect(app.delegate.calls == expected + ["2: shouldBegin"])
    }

    @Test func theCompositorGoingAwayCancelsWithSystem() throws {
        let app = try AppHarness()
        app.ask(7)
        #expect(app.waitForInputs(1))
        app.perform(.phase(.previewProgress, .test(7, progress: 0.5)))
        #expect(app.dispatch(until: { app.delegate.calls.count == 2 }))
        app.server.disconnectClient()
        // The app's own dispatch sees the end; the library ends the running presses when told.
        var alive = true
        for _ in 0..<200 where alive { alive = AppHarness.dispatchOnce(app.display, timeoutMilliseconds: 50) }
        #expect(!alive, "the app's dispatch sees the connection end")
        #expect(app.delegate.calls == ["1: shouldBegin", "1: preview 0.5"])
        app.client.deliverPendingCalls()
        #expect(app.delegate.calls == ["1: shouldBegin", "1: preview 0.5", "1: cancel system"])
        #expect(app.client.hasFailed)
    }

    @Test func aCancelFromAnotherThreadIsRefused() throws {
        let app = try AppHarness()
        app.ask(7)
        #expect(app.waitForInputs(1))
        let interaction = UncheckedBox(app.interaction)
        let done = DispatchSemaphore(value: 0)
        Thread {
            interaction.value.cancel()
            done.signal()
        }.start()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(app.delegate.calls == ["1: shouldBegin"], "no cancel was made")
        #expect(app.interaction.runningPresses.count == 1)
        app.interaction.cancel()
        #expect(app.delegate.calls == ["1: shouldBegin", "1: cancel client_cancelled"])
    }

    @Test func cancellingFromInsideADelegateCallReportsAfterIt() throws {
        let app = try AppHarness()
        app.delegate.onCall = { interaction in
            if interaction.currentPress?.phase == .preview { interaction.cancel() }
        }
        app.ask(7)
        #expect(app.waitForInputs(1))
        app.perform(.phase(.previewProgress, .test(7, progress: 0.5)))
        #expect(app.dispatch(until: { app.delegate.calls.count == 3 }))
        #expect(app.delegate.calls == ["1: shouldBegin", "1: preview 0.5", "1: cancel client_cancelled"])
        #expect(app.waitForInputs(2))
    }

    @Test(arguments: [Point_.afterTheAnswer, .inThePreview, .inTheCommit])
    func theSurfaceIsDestroyed(at point: Point_) throws {
        let app = try AppHarness()
        var expected = Self.press(app, to: point)
        // The engine's part: a destroyed surface cancels its interactions.
        app.server.sync { harness in
            harness.react = { input in
                guard case .surfaceDestroyed = input else { return [] }
                return [.phase(.cancelled(.surfaceGone), .test(7))]
            }
        }
        app.destroySurfaceKeepingTheInteraction()
        expected.append("1: cancel surface_gone")
        #expect(app.dispatch(until: { app.delegate.calls.count == expected.count }), "\(app.delegate.calls)")
        #expect(app.delegate.calls == expected)
    }
}

/// Hands a non-Sendable object to another thread in a test that checks the thread contract.
final class UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
