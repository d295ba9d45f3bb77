import Foundation
import PreviewEngine
import PreviewInteraction
import PreviewProtocolServer
import Testing
import _PreviewProtocolTestSupport

// The library against the scripted protocol server: every event order of the XML's overview
// turns into UIPreviewInteraction's calls, on the app's thread.

@Suite(.serialized) struct EventOrderTests {
    @Test func aCompletedPressMakesEveryCallInOrder() throws {
        let app = try AppHarness()
        app.ask(7, at: Point(x: 10.5, y: 20.25))
        #expect(app.waitForInputs(1), "\(app.delegate.calls)")
        #expect(app.delegate.calls == ["1: shouldBegin"])
        guard case .answered(InteractionID(7), accept: true, _) = app.inputs.first else {
            Issue.record("expected an accept, got \(app.inputs)")
            return
        }
        #expect(app.interaction.location() == PreviewPoint(x: 10.5, y: 20.25))

        // preview, location ... (repeated); preview_ended; commit, location ...; completed
        let steps: [(Action, String)] = [
            (.phase(.previewProgress, .test(7, progress: 0.25)), "1: preview 0.25"),
            (.phase(.previewProgress, .test(7, progress: 0.5, at: Point(x: 12, y: 20))), "1: preview 0.5"),
            (.phase(.previewProgress, .test(7, progress: 0.25)), "1: preview 0.25"),  // force may go down
            (.phase(.previewEnded, .test(7, progress: 1)), "1: preview 1.0 ended"),
            (.phase(.commitProgress, .test(7, progress: 0.5)), "1: commit 0.5"),
            // Moved: hit-test again
            (.phase(.commitProgress, .test(7, progress: 0.5, at: Point(x: 30, y: 40))), "1: commit 0.5"),
            (.phase(.completed, .test(7, progress: 1, at: Point(x: 31, y: 41))), "1: commit 1.0 ended"),
        ]
        var expected = ["1: shouldBegin"]
        for (action, call) in steps {
            app.perform(action)
            expected.append(call)
            #expect(app.dispatch(until: { app.delegate.calls.count == expected.count }), "\(app.delegate.calls)")
        }
        #expect(app.delegate.calls == expected)
        #expect(app.interaction.location() == PreviewPoint(x: 31, y: 41))
        #expect(app.interaction.currentPress?.phase == .completed)
        #expect(app.interaction.runningPresses.isEmpty)
        #expect(!app.delegate.offThread, "every call on the app's thread")
        let press = try #require(app.delegate.pressesSeen.first)
        #expect(press.source == .pen && press.force == .measured && press.id == 1)
    }

    @Test func locationInAViewIsRelativeToItsOrigin() throws {
        let app = try AppHarness()
        app.ask(1, at: Point(x: 110, y: 220))
        #expect(app.waitForInputs(1))
        #expect(
            app.interaction.location(in: PreviewRect(x: 100, y: 200, width: 50, height: 50))
                == PreviewPoint(x: 10, y: 20))
        #expect(app.interaction.location(in: nil) == PreviewPoint(x: 110, y: 220))
    }

    @Test func simulatedForceAndTheSourceReachTheDelegate() throws {
        let app = try AppHarness()
        app.ask(1, source: .pointer, simulated: true)
        #expect(app.waitForInputs(1))
        let press = try #require(app.delegate.pressesSeen.first)
        #expect(press.source == .pointer && press.force == .simulated)
    }

    @Test func aDeclinedPressMakesNoCancelCall() throws {
        let app = try AppHarness(answer: .no)
        app.ask(3)
        #expect(app.waitForInputs(1))
        guard case .answered(InteractionID(3), accept: false, _) = app.inputs.first else {
            Issue.record("expected a decline, got \(app.inputs)")
            return
        }
        app.perform(.phase(.cancelled(.declined), .test(3)))
        // A later press shows the cancelled(declined) was read and made no call.
        app.ask(4)
        #expect(app.waitForInputs(2))
        #expect(app.delegate.calls == ["1: shouldBegin", "2: shouldBegin"])
    }

    @Test func withoutADelegatePressesAreDeclined() throws {
        let app = try AppHarness()
        app.interaction.delegate = nil
        app.ask(5)
        #expect(app.waitForInputs(1))
        guard case .answered(InteractionID(5), accept: false, _) = app.inputs.first else {
            Issue.record("expected a decline, got \(app.inputs)")
            return
        }
    }

    @Test func theWireObserverSeesEveryEventAsRead() throws {
        let app = try AppHarness()
        let seen = EventBox()
        app.interaction.wireObserver = { event in seen.append(event) }
        app.ask(9, at: Point(x: 1, y: 2))
        #expect(app.waitForInputs(1))
        let events = seen.events
        // Version 2's should_begin frame also says the behaviour and whether haptics can be felt.
        #expect(events.count == 5, "\(events)")
        #expect(events.first == .shouldBegin(interaction: 1, source: 1, force: 1))
        #expect(events.dropFirst().first == .location(interaction: 1, x: 1, y: 2))
        let versionTwo: [PreviewWireEvent] = [
            .behaviour(interaction: 1, behaviour: 1, stages: 0), .haptics(interaction: 1, state: 0),
        ]
        #expect(Array(events.dropFirst(2).prefix(2)) == versionTwo)
        guard case .frame(1, serial: 1, _) = events.last else {
            Issue.record("no frame: \(events)")
            return
        }
    }
}

final class EventBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [PreviewWireEvent] = []
    func append(_ event: PreviewWireEvent) { lock.withLock { stored.append(event) } }
    var events: [PreviewWireEvent] { lock.withLock { stored } }
}
