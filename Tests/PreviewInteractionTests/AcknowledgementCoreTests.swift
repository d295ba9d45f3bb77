import PreviewClientCore
import Testing

// The client core on an object of protocol version 3 (the acknowledgement window): frames that
// change a phase are acknowledged as read, progress frames once per `acknowledgeEvery`, so one
// request stands for several frames; before version 3 every frame is.

@Suite struct AcknowledgementCoreTests {
    static let every = Int(InteractionCore.acknowledgeEvery)

    static func acks(_ script: CoreScript) -> [UInt32] {
        script.requests.compactMap { if case .ackFrame(let serial) = $0 { serial } else { nil } }
    }

    @Test func progressFramesShareOneAcknowledgementAndPhaseFramesHaveTheirOwn() {
        var script = CoreScript(core: InteractionCore(version: 3))
        script.begin(1)
        #expect(Self.acks(script) == [1], "should_begin's frame at once")
        for step in 1...(2 * Self.every) {
            script.group(1, .preview(interaction: 1, progress: Double(step) / 64))
        }
        // Frames 2...17: acknowledged at 9 and 17 (every 8th read since the last ack).
        #expect(Self.acks(script) == [1, 9, 17], "\(script.requests)")
        script.group(1, .preview(interaction: 1, progress: 0.5))
        script.group(1, .location(interaction: 1, x: 5, y: 5))
        #expect(Self.acks(script).last == 17, "two progress frames wait")
        script.group(1, .previewEnded(interaction: 1))
        #expect(Self.acks(script).last == 20, "preview_ended's frame acknowledges those before it")
        script.group(1, .commit(interaction: 1, progress: 0.5))
        script.group(1, .completed(interaction: 1))
        #expect(Self.acks(script).suffix(1) == [22], "the end at once")
        #expect(script.calls().last == "1: commit 1.0 ended")
    }

    @Test func aChangeOfHapticsIsAcknowledgedAtOnce() {
        var script = CoreScript(core: InteractionCore(version: 3))
        script.begin(1)
        script.group(1, .preview(interaction: 1, progress: 0.25))
        script.group(1, .haptics(interaction: 1, state: 1))
        #expect(Self.acks(script) == [1, 3])
    }

    @Test func versionTwoAcknowledgesEveryFrame() {
        var script = CoreScript(core: InteractionCore(version: 2))
        script.begin(1)
        for step in 1...5 { script.group(1, .preview(interaction: 1, progress: Double(step) / 8)) }
        #expect(Self.acks(script) == Array(1...6))
    }

    /// Held for the app's pictures: a frame that gave calls waits for the picture whatever its
    /// kind; frames that gave none follow the window's rule.
    @Test func heldAcknowledgementsWaitForThePictureAlsoWithTheWindow() {
        var script = CoreScript(core: InteractionCore(version: 3))
        script.record(script.core.holdAcknowledgements(true))
        script.group(1, .shouldBegin(interaction: 1, source: 1, force: 1), .location(interaction: 1, x: 1, y: 2))
        #expect(Self.acks(script).isEmpty, "should_begin gave a call: it waits for the picture")
        _ = script.calls()
        script.record(script.core.acknowledgeShown(applied: 1))
        #expect(Self.acks(script) == [1])
        if let output = try? script.core.answer(1, accept: true) { script.record(output) }
        script.group(1, .preview(interaction: 1, progress: 0.5))
        #expect(Self.acks(script) == [1], "a call waits for the picture")
        _ = script.calls()
        script.record(script.core.acknowledgeShown(applied: 2))
        #expect(Self.acks(script) == [1, 2])
    }
}
