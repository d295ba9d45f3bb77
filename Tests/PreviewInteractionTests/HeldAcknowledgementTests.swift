import PreviewClientCore
import Testing

// Acknowledgements held for a toolkit that commits on its own: a frame that gave the app calls
// is acknowledged when the app says its next commit shows it, never as it is read; frames that
// gave the app nothing still leave at once, so flow control never waits for them.

@Suite struct HeldAcknowledgementTests {
    static func acks(_ requests: [CoreOutput.Request]) -> [UInt32] {
        requests.compactMap { if case .ackFrame(let serial) = $0 { serial } else { nil } }
    }

    @Test func aFrameWithCallsIsAcknowledgedWhenTheAppWillCommitIt() {
        var script = CoreScript()
        script.record(script.core.holdAcknowledgements(true))
        script.begin(1)  // frame 1: should_begin
        #expect(Self.acks(script.requests).isEmpty, "held while the app has not drawn it")
        script.record(script.core.acknowledgeShown(applied: 1))
        #expect(Self.acks(script.requests) == [1])
        script.group(1, .preview(interaction: 1, progress: 0.5))  // frame 2
        script.group(1, .preview(interaction: 1, progress: 0.6))  // frame 3, merged with 2
        #expect(Self.acks(script.requests) == [1])
        #expect(script.calls() == ["1: preview 0.6"])
        // Frame 4 read after the app took its calls: the picture shows 3, not 4.
        script.group(1, .preview(interaction: 1, progress: 0.7))
        script.record(script.core.acknowledgeShown(applied: 3))
        #expect(Self.acks(script.requests) == [1, 3])
        #expect(script.calls() == ["1: preview 0.7"])
        script.record(script.core.acknowledgeShown(applied: 4))
        script.record(script.core.acknowledgeShown(applied: 4))
        #expect(Self.acks(script.requests) == [1, 3, 4], "nothing new: nothing sent")
    }

    @Test func framesThatGiveTheAppNothingAreAcknowledgedAsRead() {
        var script = CoreScript()
        script.record(script.core.holdAcknowledgements(true))
        script.begin(1, accept: false)  // frame 1, declined
        script.record(script.core.acknowledgeShown(applied: 1))
        script.group(1, .preview(interaction: 1, progress: 0.5))  // nothing for the app
        script.group(1, .cancelled(interaction: 1, reason: 3))
        #expect(Self.acks(script.requests) == [1, 2, 3])
        #expect(script.calls().isEmpty)
    }

    @Test func aFrameWithNothingAfterOneHeldWaitsAndLeavesWithIt() {
        var script = CoreScript()
        script.record(script.core.holdAcknowledgements(true))
        script.begin(1)
        script.record(script.core.acknowledgeShown(applied: 1))
        script.begin(2, accept: false)  // frame 2: should_begin of press 2, taken and declined
        script.group(1, .preview(interaction: 1, progress: 0.5))  // frame 3
        script.group(2, .preview(interaction: 2, progress: 0.5))  // frame 4: nothing for the app
        #expect(Self.acks(script.requests) == [1], "frame 4 would say frame 3 is shown")
        #expect(script.calls() == ["1: preview 0.5"])
        script.record(script.core.acknowledgeShown(applied: 4))
        #expect(Self.acks(script.requests) == [1, 4])
    }

    @Test func releasingTheHoldAcknowledgesWhatWasRead() {
        var script = CoreScript()
        script.record(script.core.holdAcknowledgements(true))
        script.begin(1)
        script.group(1, .preview(interaction: 1, progress: 0.5))
        #expect(Self.acks(script.requests).isEmpty)
        script.record(script.core.holdAcknowledgements(false))
        #expect(Self.acks(script.requests) == [2])
        script.group(1, .preview(interaction: 1, progress: 0.6))
        #expect(Self.acks(script.requests) == [2, 3], "acknowledged as read again")
    }
}
