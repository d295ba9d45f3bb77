import PreviewClientCore
import Testing

// The client core and protocol version 2's events: the behaviour and haptics of should_begin's
// frame, an accelerator's stages, haptic effects only for a running press, the settings group;
// each rule the compositor can break cancels that press only.

@Suite struct VersionTwoCoreTests {
    /// should_begin's frame of version 2 for `id`, answered yes.
    static func accelerator(_ script: inout CoreScript, _ id: UInt32, stages: UInt32 = 3, haptics: UInt32 = 1) {
        script.group(
            id, .shouldBegin(interaction: id, source: 1, force: 1), .location(interaction: id, x: 1, y: 2),
            .behaviour(interaction: id, behaviour: 3, stages: stages), .haptics(interaction: id, state: haptics))
    }

    @Test func shouldBeginsFrameTellsTheBehaviourAndHapticsWithoutACallOfTheirOwn() {
        var script = CoreScript()
        Self.accelerator(&script, 1)
        let asked = script.core.nextCall()
        #expect(asked?.call == .shouldBegin && asked?.press.behaviour == .accelerator(stages: 3))
        #expect(asked?.press.hapticsAvailable == true && script.core.nextCall() == nil)
        #expect(script.messages.isEmpty)
    }

    @Test func anAcceleratorLiftedBeforeItsFirstLevelEnds() {
        // A tap on an accelerator: the compositor completes it before any stage (no preview or
        // commit phase to go through): its end, not a broken order.
        var script = CoreScript()
        Self.accelerator(&script, 1)
        _ = script.calls()
        _ = try? script.core.answer(1, accept: true)
        script.group(1, .completed(interaction: 1))
        #expect(script.calls() == ["1: accelerator ended"])
        #expect(script.messages.isEmpty && script.core.runningCount == 0)
    }

    @Test func anAcceleratorsStagesAreCalledCoalescedAndItsLiftCompletes() {
        var script = CoreScript()
        Self.accelerator(&script, 1)
        _ = script.calls()
        _ = try? script.core.answer(1, accept: true)
        script.group(1, .stage(interaction: 1, stage: 1))
        #expect(script.calls() == ["1: stage 1"])
        script.group(1, .stage(interaction: 1, stage: 2))
        script.group(1, .stage(interaction: 1, stage: 3))
        #expect(script.calls() == ["1: stage 3"], "a busy app gets the latest level")
        #expect((try? script.core.press(1))?.phase == .accelerating && (try? script.core.press(1))?.stage == 3)
        script.group(1, .haptics(interaction: 1, state: 0))
        script.group(1, .completed(interaction: 1))
        #expect(script.calls() == ["1: haptics false", "1: accelerator ended"])
        #expect(script.messages.isEmpty && script.core.runningCount == 0)
    }

    @Test(arguments: [
        PreviewWireEvent.preview(interaction: 1, progress: 0.5), .previewEnded(interaction: 1),
        .stage(interaction: 1, stage: 4), .behaviour(interaction: 1, behaviour: 1, stages: 0),
        .haptics(interaction: 1, state: 7),
    ])
    func anAcceleratorBreakingTheOrderIsCancelled(event: PreviewWireEvent) {
        var script = CoreScript()
        Self.accelerator(&script, 1)
        _ = script.calls()
        if let output = try? script.core.answer(1, accept: true) { script.record(output) }
        script.group(1, .stage(interaction: 1, stage: 1))
        script.group(1, event)
        #expect(script.calls() == ["1: stage 1", "1: cancel desynchronised"], "\(event)")
        #expect(script.answers == [.accept(1), .cancel(1)])
    }

    @Test(arguments: [
        PreviewWireEvent.behaviour(interaction: 1, behaviour: 2, stages: 0),
        .behaviour(interaction: 1, behaviour: 3, stages: 1), .behaviour(interaction: 1, behaviour: 9, stages: 0),
    ])
    func aBehaviourNoPressCanHaveCancelsIt(event: PreviewWireEvent) {
        var script = CoreScript()
        script.group(1, .shouldBegin(interaction: 1, source: 1, force: 1), event)
        #expect(script.calls().isEmpty, "over before the app heard of it")
        #expect(script.answers == [.cancel(1)])
    }

    @Test func aDeepClickGetsNoStage() {
        var script = CoreScript()
        script.begin(1)
        script.group(1, .stage(interaction: 1, stage: 1))
        #expect(script.calls() == ["1: cancel desynchronised"])
    }

    @Test func aHapticEffectIsForARunningPressOnly() throws {
        var script = CoreScript()
        Self.accelerator(&script, 1)
        _ = script.calls()
        #expect(throws: CoreRefusal.notRunning) { try script.core.playHaptic(1, effect: .tick) }
        #expect(throws: CoreRefusal.unknownPress) { try script.core.playHaptic(2, effect: .tick) }
        _ = try script.core.answer(1, accept: true)
        #expect(try script.core.playHaptic(1, effect: .snap) == CoreOutput(request: .playHaptic(1, effect: 2)))
        script.group(1, .cancelled(interaction: 1, reason: 10))
        #expect(script.calls().last == "1: cancel dismissed")
        #expect(throws: CoreRefusal.pressEnded) { try script.core.playHaptic(1, effect: .tick) }
    }

    @Test func theSettingsApplyTogetherAtDoneAndOddValuesKeepTheOldOnes() {
        var group = SettingsGroup()
        #expect(group.read(.sensitivity(3)) == nil && group.read(.longPressDuration(milliseconds: 800)) == nil)
        #expect(group.current == nil, "nothing applies before settings_done")
        _ = group.read(.thresholds(begin: 0.1, commit: 0.5, complete: 0.9))
        _ = group.read(.done)
        #expect(group.current?.sensitivity == .firm && group.current?.longPressMilliseconds == 800)
        #expect(group.current?.thresholds == .init(begin: 0.1, commit: 0.5, complete: 0.9) && group.generation == 1)
        #expect(group.read(.haptics(9)) != nil && group.read(.thresholds(begin: 0.5, commit: 0.2, complete: 1)) != nil)
        #expect(group.read(.completion(2)) == nil)
        _ = group.read(.done)
        #expect(group.current?.haptics == .off && group.current?.completion == .onRelease && group.generation == 2)
        #expect(group.current?.thresholds.begin == 0.1)
    }
}
