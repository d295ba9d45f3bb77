import PreviewClientCore
import Testing

// The client core alone: wire events in, UIKit's calls and requests out, whatever the
// compositor sends. Each contract the compositor can break is one test.

struct CoreScript {
    var core: InteractionCore
    var requests: [CoreOutput.Request] = []
    var messages: [CoreMessage] = []
    private var serial: UInt32 = 0

    init(core: InteractionCore = InteractionCore()) { self.core = core }

    mutating func read(_ events: PreviewWireEvent...) {
        for event in events { record(core.read(event)) }
    }

    /// The events, then the frame that closes them (about `id`).
    mutating func group(_ id: UInt32, _ events: PreviewWireEvent...) {
        for event in events { record(core.read(event)) }
        serial += 1
        record(core.read(.frame(interaction: id, serial: serial, time: UInt64(serial) * 1000)))
    }

    mutating func record(_ output: CoreOutput) {
        if let request = output.request { requests.append(request) }
        if let message = output.message { messages.append(message) }
    }

    /// The calls ready for the app, as "id: call".
    mutating func calls() -> [String] {
        var lines: [String] = []
        while let entry = core.nextCall() { lines.append("\(entry.press.id): \(Self.name(entry.call))") }
        return lines
    }

    /// The requests other than acks.
    var answers: [CoreOutput.Request] {
        requests.filter { if case .ackFrame = $0 { false } else { true } }
    }

    static func name(_ call: DelegateCall) -> String {
        switch call {
        case .shouldBegin: "shouldBegin"
        case .preview(let p, let ended): "preview \(p)\(ended ? " ended" : "")"
        case .commit(let p, let ended): "commit \(p)\(ended ? " ended" : "")"
        case .cancel(let reason): "cancel \(reason)"
        case .stage(let level): "stage \(level)"
        case .haptics(let available): "haptics \(available)"
        case .acceleratorEnded: "accelerator ended"
        }
    }

    /// A press of `source` (a touch by default: touches run side by side).
    mutating func begin(_ id: UInt32, accept: Bool = true, source: UInt32 = 3) {
        group(id, .shouldBegin(interaction: id, source: source, force: 1), .location(interaction: id, x: 1, y: 2))
        _ = calls()
        if let output = try? core.answer(id, accept: accept) { record(output) }
    }
}

@Suite struct InteractionCoreTests {
    @Test func aPressMakesEveryCallInOrderAndEachFrameIsAcknowledged() {
        var script = CoreScript()
        script.group(1, .shouldBegin(interaction: 1, source: 1, force: 2), .location(interaction: 1, x: 3, y: 4))
        var first = script.core.nextCall()
        #expect(first?.call == .shouldBegin && first?.press.location == PreviewPoint(x: 3, y: 4))
        #expect(first?.press.source == .pen && first?.press.force == .simulated && first?.press.timestamp == 1000)
        first = nil
        #expect((try? script.core.answer(1, accept: true)) == CoreOutput(request: .accept(1)))
        var calls: [String] = []
        for event in [
            PreviewWireEvent.preview(interaction: 1, progress: 0.5), .previewEnded(interaction: 1),
            .commit(interaction: 1, progress: 0.25), .location(interaction: 1, x: 9, y: 9), .completed(interaction: 1),
        ] {
            script.group(1, event)
            calls += script.calls()
        }
        #expect(
            calls == [
                "1: preview 0.5", "1: preview 1.0 ended", "1: commit 0.25", "1: commit 0.25", "1: commit 1.0 ended",
            ])
        #expect(script.requests == (1...6).map { .ackFrame(UInt32($0)) })
        #expect(script.messages.isEmpty)
        #expect(script.core.runningCount == 0)
    }

    @Test func callsWaitForTheirFrameAndASlowAppGetsTheLatestValues() {
        var script = CoreScript()
        script.begin(1)
        script.read(.preview(interaction: 1, progress: 0.25))
        #expect(script.calls().isEmpty, "no frame yet")
        script.read(.frame(interaction: 1, serial: 9, time: 0))
        script.group(1, .preview(interaction: 1, progress: 0.5))
        script.group(1, .previewEnded(interaction: 1))
        script.group(1, .commit(interaction: 1, progress: 0.5))
        script.group(1, .commit(interaction: 1, progress: 0.75))
        #expect(script.calls() == ["1: preview 0.5", "1: preview 1.0 ended", "1: commit 0.75"])
    }

    @Test func aRepeatedShouldBeginIsNotAskedAgain() {
        var script = CoreScript()
        script.begin(1)
        script.group(1, .shouldBegin(interaction: 1, source: 1, force: 1))
        #expect(script.calls() == ["1: cancel desynchronised"], "the press broke the order: it ends")
        #expect(script.answers == [.accept(1), .cancel(1)])
        // Asked again after its end: ignored, and the next press is asked as usual.
        script.group(1, .cancelled(interaction: 1, reason: 2))
        script.group(1, .shouldBegin(interaction: 1, source: 1, force: 1))
        #expect(script.calls().isEmpty)
        script.group(2, .shouldBegin(interaction: 2, source: 1, force: 1))
        #expect(script.calls() == ["2: shouldBegin"])
        #expect((try? script.core.answer(2, accept: true)) == CoreOutput(request: .accept(2)), "not declined for good")
    }

    @Test func aDeclinedPressDeliversNothingMore() {
        var script = CoreScript()
        script.begin(1, accept: false)
        #expect(script.answers == [.decline(1)])
        #expect(throws: CoreRefusal.alreadyAnswered) { try script.core.answer(1, accept: true) }
        script.group(1, .preview(interaction: 1, progress: 0.5))
        script.group(1, .previewEnded(interaction: 1))
        script.group(1, .completed(interaction: 1))
        script.group(1, .cancelled(interaction: 1, reason: 3))
        #expect(script.calls().isEmpty)
        #expect(script.answers == [.decline(1)], "no cancel for a press that is already over")
        #expect(throws: CoreRefusal.pressEnded) { try script.core.answer(1, accept: true) }
    }

    @Test func beyondTheLimitANewPressEndsTheOldestOne() {
        var script = CoreScript()
        let limit = UInt32(InteractionCore.maximumRunning)
        for id in 1...limit { script.begin(id) }
        script.group(limit + 1, .shouldBegin(interaction: limit + 1, source: 3, force: 1))
        #expect(script.answers.last == .cancel(1), "the oldest is cancelled on the wire")
        #expect(script.messages == [.evicted(1, for: limit + 1)])
        #expect(script.calls() == ["1: cancel desynchronised", "\(limit + 1): shouldBegin"])
        // The compositor's late end of the evicted press is silent.
        script.group(1, .cancelled(interaction: 1, reason: 2))
        #expect(script.calls().isEmpty)
        #expect(script.core.runningCount == InteractionCore.maximumRunning)
    }

    @Test(arguments: [PreviewSource.pen, .pointer, .keyboard])
    func aNewPressOfASourceThatPressesOnceAtATimeEndsItsOlderOne(source: PreviewSource) {
        var script = CoreScript()
        script.begin(1, source: source.rawValue)
        script.group(1, .preview(interaction: 1, progress: 0.25))
        script.begin(2, source: PreviewSource.touchscreen.rawValue)
        script.group(3, .shouldBegin(interaction: 3, source: source.rawValue, force: 1))
        #expect(script.messages == [.superseded(1, by: 3, source)])
        #expect(script.calls() == ["1: cancel desynchronised", "3: shouldBegin"])
        #expect(script.answers == [.accept(1), .accept(2), .cancel(1)], "the touch runs on")
        #expect(script.core.runningPresses.map(\.id) == [2, 3])
    }

    @Test func touchesRunSideBySide() {
        var script = CoreScript()
        for id in UInt32(1)...3 { script.begin(id, source: PreviewSource.touchscreen.rawValue) }
        script.begin(4, source: PreviewSource.touchpad.rawValue)
        script.begin(5, source: PreviewSource.touchpad.rawValue)
        #expect(script.core.runningCount == 5 && script.messages.isEmpty)
    }

    @Test func tenThousandPressesNeverEndedLeaveTheFreshPressAskedEveryTime() {
        var script = CoreScript()
        for id in UInt32(1)...10_000 {
            script.group(id, .shouldBegin(interaction: id, source: 3, force: 1), .location(interaction: id, x: 1, y: 2))
            #expect(script.calls().last == "\(id): shouldBegin", "press \(id) not asked")
            if let output = try? script.core.answer(id, accept: true) { script.record(output) }
            script.group(id, .preview(interaction: id, progress: 0.25))
            _ = script.calls()
        }
        #expect(script.core.runningCount == InteractionCore.maximumRunning)
        #expect(
            script.core.runningPresses.map(\.id) == Array((10_001 - UInt32(InteractionCore.maximumRunning))...10_000))
        #expect(!script.answers.contains { if case .decline = $0 { true } else { false } })
    }

    @Test func eventsNeverClosedByAFrameAreBoundedAndBlockNothing() {
        var script = CoreScript()
        // Unknown interactions, without frames: nothing kept.
        for id in UInt32(100)..<UInt32(200) { script.read(.location(interaction: id, x: 0, y: 0)) }
        #expect(
            script.messages.count == 100
                && script.messages.allSatisfy { if case .unknownInteraction = $0 { true } else { false } })
        // Presses announced without their frame: closed by the next frame, whoever it is about.
        for id in UInt32(1)...40 { script.read(.shouldBegin(interaction: id, source: 3, force: 1)) }
        script.read(.frame(interaction: 41, serial: 1, time: 0))
        let asked = script.calls()
        #expect(asked.count == InteractionCore.maximumRunning)
        for id in UInt32(1)...40 { _ = try? script.core.cancel(id) }
        // The declined and cancelled ones end on the wire; later presses are asked as usual.
        for id in UInt32(1)...40 { script.group(id, .cancelled(interaction: id, reason: 2)) }
        for id in UInt32(41)...80 { script.begin(id) }
        #expect(script.core.runningCount == InteractionCore.maximumRunning, "a full set again, not declined for good")
    }

    @Test func anAppThatEndedPressesTheCompositorNeverEndsIsNotDeclinedForGood() {
        var script = CoreScript()
        for id in UInt32(1)...200 {
            script.begin(id)
            _ = try? script.core.cancel(id)
        }
        #expect(!script.answers.contains(.decline(200)))
        #expect(script.core.runningCount == 0)
    }

    @Test func aPhaseOutOfOrderCancelsThatPressOnly() {
        var script = CoreScript()
        script.begin(1)
        script.begin(2)
        script.group(1, .commit(interaction: 1, progress: 0.5))  // no preview_ended
        script.group(2, .preview(interaction: 2, progress: 0.5))
        #expect(script.calls() == ["1: cancel desynchronised", "2: preview 0.5"])
        #expect(script.answers == [.accept(1), .accept(2), .cancel(1)])
        script.group(1, .preview(interaction: 1, progress: 0.7))
        script.group(1, .cancelled(interaction: 1, reason: 2))
        #expect(script.calls().isEmpty, "nothing after the end")
    }

    @Test(arguments: [1.5, -0.25])
    func aProgressOutsideTheRangeCancels(progress: Double) {
        var script = CoreScript()
        script.begin(1)
        script.group(1, .preview(interaction: 1, progress: progress))
        #expect(script.calls() == ["1: cancel desynchronised"])
        #expect(script.answers.last == .cancel(1))
    }

    @Test func progressBeforeTheAnswerOrACompletionInThePreviewAreOutOfOrder() {
        var script = CoreScript()
        script.group(1, .shouldBegin(interaction: 1, source: 1, force: 1))
        _ = script.calls()
        script.group(1, .preview(interaction: 1, progress: 0.5))
        #expect(script.calls() == ["1: cancel desynchronised"])
        script.begin(2)
        script.group(2, .preview(interaction: 2, progress: 0.5), .completed(interaction: 2))
        #expect(script.calls() == ["2: cancel desynchronised"], "the compositor ended it: no cancel request")
        #expect(script.answers == [.cancel(1), .accept(2)])
    }

    @Test func aPressOverBeforeTheAppHeardOfItMakesNoCall() {
        var script = CoreScript()
        script.group(1, .shouldBegin(interaction: 1, source: 1, force: 1))
        script.group(1, .cancelled(interaction: 1, reason: 4))
        #expect(script.calls().isEmpty)
        #expect(throws: CoreRefusal.pressEnded) { try script.core.answer(1, accept: true) }
        #expect(throws: CoreRefusal.unknownPress) { try script.core.answer(7, accept: true) }
    }

    @Test func aLocalCancelIsReportedOnceAndTheWireEndIsSilent() throws {
        var script = CoreScript()
        script.begin(1)
        script.group(1, .preview(interaction: 1, progress: 0.25))
        script.group(1, .preview(interaction: 1, progress: 0.5))
        let (output, call) = try script.core.cancel(1)
        #expect(output.request == .cancel(1) && call?.call == .cancel(.clientCancelled))
        #expect(script.calls().isEmpty, "the preview waiting for the app is dropped")
        #expect(throws: CoreRefusal.pressEnded) { _ = try script.core.cancel(1) }
        script.group(1, .preview(interaction: 1, progress: 0.75))
        script.group(1, .cancelled(interaction: 1, reason: 2))
        #expect(script.calls().isEmpty)
        #expect(script.messages.isEmpty)
    }

    @Test func theConnectionLostEndsRunningPressesWithSystem() {
        var script = CoreScript()
        script.begin(1)
        script.group(1, .preview(interaction: 1, progress: 0.5))
        script.group(2, .shouldBegin(interaction: 2, source: 3, force: 1))
        script.read(.previewEnded(interaction: 1))
        script.record(script.core.connectionLost())
        #expect(
            script.calls() == ["1: preview 0.5", "1: cancel system"],
            "the unframed end and the unheard press are dropped")
        #expect(script.messages == [.connectionLost])
        #expect(script.core.runningCount == 0)
    }

    @Test func anUnknownReasonIsReportedAndDeclinedIsNotTheCompositorsToSay() {
        var script = CoreScript()
        script.begin(1)
        script.group(1, .cancelled(interaction: 1, reason: 99))
        #expect(script.calls() == ["1: cancel unknown(99)"])
        script.begin(2)
        script.group(2, .cancelled(interaction: 2, reason: 3))
        #expect(script.calls() == ["2: cancel desynchronised"])
    }
}
