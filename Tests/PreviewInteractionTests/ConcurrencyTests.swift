import CWaylandClient
import Foundation
import PreviewEngine
import PreviewInteraction
import PreviewProtocolServer
import Testing
import _PreviewProtocolTestSupport

// Asynchronous should-begin answers, several presses at once, and the app's thread.

@Suite(.serialized) struct ConcurrencyTests {
    @Test func anAnswerGivenLaterFromAnotherThreadLetsThePressBegin() throws {
        let app = try AppHarness(answer: .later)
        app.ask(7)
        #expect(app.dispatch(until: { app.delegate.answers.count == 1 }))
        #expect(app.inputs.isEmpty, "no answer yet: the app is looking something up")
        let answer = app.delegate.answers[0]
        #expect(answer.press.id == 1 && !answer.isAnswered)
        // A lookup on another thread answers; the event loop was never blocked.
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            answer.accept()
            answer.decline()  // a second answer does nothing
            done.signal()
        }
        done.wait()
        #expect(answer.isAnswered)
        #expect(app.waitForInputs(1))
        guard case .answered(InteractionID(7), accept: true, _) = app.inputs.first else {
            Issue.record("expected one accept, got \(app.inputs)")
            return
        }
        app.perform(.phase(.previewProgress, .test(7, progress: 0.5)))
        #expect(app.dispatch(until: { app.delegate.calls.count == 2 }))
        #expect(app.delegate.calls == ["1: shouldBegin", "1: preview 0.5"])
        #expect(app.inputs.count == 1, "exactly one answer went out")
    }

    @Test func twoContactsAtOnceAreToldApart() throws {
        let app = try AppHarness()
        app.ask(7, at: Point(x: 10, y: 10))
        app.ask(8, at: Point(x: 300, y: 10), source: .touchscreen)
        #expect(app.waitForInputs(2))
        #expect(app.interaction.runningPresses.map(\.id) == [1, 2])
        let steps: [(Action, String)] = [
            (.phase(.previewProgress, .test(7, progress: 0.25, at: Point(x: 10, y: 10))), "1: preview 0.25"),
            (.phase(.previewProgress, .test(8, progress: 0.75, at: Point(x: 300, y: 10))), "2: preview 0.75"),
            (.phase(.previewEnded, .test(8, progress: 1, at: Point(x: 300, y: 10))), "2: preview 1.0 ended"),
            (.phase(.cancelled(.lifted), .test(7)), "1: cancel lifted"),
            (.phase(.completed, .test(8, progress: 1, at: Point(x: 300, y: 10))), "2: commit 1.0 ended"),
        ]
        var expected = ["1: shouldBegin", "2: shouldBegin"]
        for (action, call) in steps {
            app.perform(action)
            expected.append(call)
            #expect(app.dispatch(until: { app.delegate.calls.count == expected.count }), "\(app.delegate.calls)")
        }
        #expect(app.delegate.calls == expected)
        // Each call's location is its own press's.
        let seen = app.delegate.pressesSeen
        #expect(seen.filter { $0.id == 1 }.allSatisfy { $0.location == PreviewPoint(x: 10, y: 10) })
        #expect(
            seen.filter { $0.id == 2 }.allSatisfy {
                $0.location == PreviewPoint(x: 300, y: 10) && $0.source == .touchscreen
            })
        #expect(app.interaction.runningPresses.isEmpty)
    }

    @Test func framesAreAcknowledgedWhileTheAppDoesNotDispatch() throws {
        // The app's thread is busy (it does not dispatch) while five progress frames arrive one
        // after the other: the library's thread reads and acknowledges each, so the compositor
        // sends every one at once. The app then gets the latest value, never a stale one.
        let app = try AppHarness()
        app.ask(7)
        #expect(app.waitForInputs(1))
        for progress in [0.125, 0.25, 0.375, 0.5, 0.625] {
            app.perform(.phase(.previewProgress, .test(7, progress: progress)))
            let deadline = AppHarness.now() + 10
            while app.server.sync({ $0.server.awaitsAcknowledgement }) && AppHarness.now() < deadline {}
        }
        let statistics = app.server.sync { $0.server.flowStatistics }
        #expect(statistics.sentAtOnce == 5 && statistics.values == 5, "\(statistics.summary)")
        #expect(app.delegate.calls == ["1: shouldBegin"], "the app has not dispatched yet")
        #expect(app.dispatch(until: { app.delegate.calls.last == "1: preview 0.625" }), "\(app.delegate.calls)")
        #expect(app.delegate.calls == ["1: shouldBegin", "1: preview 0.625"], "one call, the latest value")
    }

    @Test func regionSourcesAndEnablingReachTheCompositorOnCommit() throws {
        let app = try AppHarness()
        let surface = SurfaceID(1)
        func allows(_ x: Double, _ y: Double, _ source: InputSource) -> Bool {
            app.server.sync { $0.server.allowsInteraction(on: surface, at: Point(x: x, y: y), source: source) }
        }
        #expect(allows(500, 500, .pen))
        app.interaction.region = [PreviewRect(x: 0, y: 0, width: 100, height: 100)]
        app.interaction.allowedSources = [.touchscreen, .touchpad]
        app.interaction.commitSurface()
        wl_display_roundtrip(app.display)
        #expect(allows(50, 50, .touchscreen))
        #expect(!allows(500, 500, .touchscreen), "outside the region")
        #expect(!allows(50, 50, .pen), "not an allowed source")
        app.interaction.isEnabled = false
        app.interaction.commitSurface()
        wl_display_roundtrip(app.display)
        #expect(!allows(50, 50, .touchscreen), "disabled")
        app.interaction.isEnabled = true
        app.interaction.region = nil
        app.interaction.commitSurface()
        wl_display_roundtrip(app.display)
        #expect(allows(500, 500, .touchpad))
    }
}
