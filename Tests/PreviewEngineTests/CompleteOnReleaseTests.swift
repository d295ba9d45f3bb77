import PreviewEngine
import PropertyBased
import Testing

/// Complete on release (the user's setting): the lift completes an interaction in the commit
/// phase; easing off below the release line (commit − 0.06) for the release window (100 ms),
/// still touching, cancels first.
@Suite("Complete on release")
struct CompleteOnReleaseTests {
    static let onRelease = EngineConfiguration(completion: .onRelease)

    /// Presses up to `peak` in 10 ms steps (medium preset) and holds it to `holdUntil`.
    static func pressed(to peak: Double, holdUntil: Int64 = 500) -> Script {
        var script = Script(onRelease)
        script.press(0.05, at: 0, source: .pen)
        for step in 1...10 { script.force(0.05 + (peak - 0.05) * Double(step) / 10, at: Int64(step) * 10) }
        script.advance(to: holdUntil)
        return script
    }

    @Test("Full force held does not complete; a quick lift does")
    func quickLift() {
        var script = Self.pressed(to: 1, holdUntil: 3_000)
        #expect(script.seen().phases == ["ask", "preview", "preview-ended", "commit"])
        script.force(0.6, at: 3_005)
        script.force(0.2, at: 3_010)
        script.lift(at: 3_015)
        #expect(script.seen().phases == ["commit", "completed"])
    }

    @Test("Easing off below the release line and staying there cancels (lifted) before the lift")
    func easedOff() {
        var script = Self.pressed(to: 0.7)
        _ = script.seen()
        script.force(0.4, at: 600)  // below 0.49 (medium: commit 0.55 − 0.06)
        script.force(0.4, at: 610)
        script.advance(to: 690)
        #expect(!script.seen().phases.contains("cancel(lifted)"), "not within the window")
        script.advance(to: 720)
        #expect(script.seen().phases == ["cancel(lifted)"])
        script.lift(at: 900)
        #expect(script.seen() == [], "the lift adds nothing")
    }

    @Test("Between the release line and the commit threshold it stays armed; the lift completes")
    func betweenTheLines() {
        var script = Self.pressed(to: 0.7)
        script.force(0.52, at: 600)
        script.advance(to: 2_000)
        _ = script.seen()
        script.lift(at: 2_000)
        #expect(script.seen().phases == ["completed"])
    }

    @Test("A short dip below the line, back at the commit threshold, does not cancel")
    func dip() {
        var script = Self.pressed(to: 0.7)
        script.force(0.3, at: 600)
        script.force(0.3, at: 630)
        script.force(0.6, at: 660)  // back above commit (0.55) within the window
        script.force(0.6, at: 670)
        script.advance(to: 1_500)
        #expect(!script.seen().phases.contains("cancel(lifted)"))
        script.lift(at: 1_500)
        #expect(script.seen().phases == ["completed"])
    }

    @Test("A lift in the preview phase still cancels; other ends cancel with their reason")
    func otherEnds() {
        var preview = Self.pressed(to: 0.3)
        preview.lift(at: 600)
        #expect(preview.seen().phases.last == "cancel(lifted)")
        var removed = Self.pressed(to: 0.8)
        removed.lift(at: 600, reason: .deviceRemoved)
        #expect(removed.seen().phases.last == "cancel(device-removed)")
    }

    static let traces = zip(Gen.double(in: 0...1), Gen.int64(in: 1...40)).array(of: 1...120)

    @Test("Random pressure: a completion comes only with a lift, and only from the commit phase")
    func completesOnlyOnLift() async {
        var completions = 0
        await propertyCheck(count: 500, input: Self.traces, Self.sensitivities) { trace, sensitivity in
            var script = Script(EngineConfiguration(sensitivity: sensitivity, completion: .onRelease))
            var ms: Int64 = 0
            script.press(0, at: 0, source: .pen)
            for (force, gap) in trace {
                ms += gap
                script.force(force, at: ms)
            }
            script.advance(to: ms + 1_000)
            let held = script.seen()
            #expect(!held.phases.contains("completed"), "completed while held: \(held)")
            let inCommit = script.engine.interactions.first.map { $0.state.kind == .commitUntilLift } ?? false
            script.lift(at: ms + 1_000)
            let lifted = script.seen().phases
            #expect(lifted == (inCommit ? ["completed"] : []) || lifted == ["cancel(lifted)"] && !inCommit)
            if inCommit { completions += 1 }
            PropertyTests.check(script.all, asked: script.asked)
        }
        #expect(completions > 0, "the generator never reached the commit phase")
    }

    static let sensitivities = Gen<Sensitivity>.case
}
