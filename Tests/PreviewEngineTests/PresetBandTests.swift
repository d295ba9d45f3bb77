import PreviewEngine
import Testing

/// The default preset's bands, as the issue pins them.
@Suite("Default preset bands")
struct PresetBandTests {
    @Test("A press peaking below 0.08 starts no interaction")
    func lightTouch() {
        var script = Script()
        script.press(0.02, at: 0)
        for (ms, force) in zip(stride(from: Int64(10), through: 200, by: 10), [0.04, 0.06, 0.079, 0.079, 0.07, 0.05]) {
            script.force(force, at: ms)
        }
        script.advance(to: 400)
        script.lift(at: 500)
        #expect(script.seen() == [])
        #expect(script.engine.contactCount == 0)
        #expect(script.engine.nextDeadline == nil)
    }

    @Test("A press peaking between 0.15 and 0.45 previews, then cancels on lift without a commit")
    func peek() {
        var script = Script()
        script.press(0.05, at: 0)
        script.force(0.15, at: 10)
        script.force(0.30, at: 20)
        script.force(0.45, at: 30)
        script.force(0.45, at: 40)
        script.force(0.25, at: 50)
        script.advance(to: 300)
        let seen = script.seen()
        #expect(seen.phases == ["ask", "preview"])
        let progress = seen.compactMap { if case .preview(let p, _) = $0 { p } else { nil } }
        #expect(progress.contains { $0 > 0.5 }, "progress follows the force up")
        #expect(progress.last! < progress.max()!, "and back down")
        script.lift(at: 310)
        #expect(script.seen() == [.cancel(.lifted)])
        script.advance(to: 1000)
        #expect(script.seen() == [])
    }

    @Test("Reaching 0.95 and holding it for 100 ms completes, with no samples while it is held")
    func pop() {
        var script = Script()
        script.press(0.10, at: 0)
        script.force(0.50, at: 8)
        script.force(0.95, at: 16)
        // evdev is silent while the pressure is constant: only timers move it on.
        script.advance(to: 116)
        let seen = script.seen()
        #expect(seen.phases == ["ask", "preview", "preview-ended", "commit", "completed"])
        #expect(seen.last == .commit(1, ended: true))
        script.force(0.2, at: 150)
        script.lift(at: 200)
        #expect(script.seen() == [], "nothing after completion")
    }

    @Test("A single jump from nothing to 0.95 also completes within 100 ms (smoothing lags one sample)")
    func jump() {
        var script = Script()
        script.press(0, at: 0)
        script.force(0.95, at: 5)
        script.advance(to: 105)
        #expect(script.seen().phases == ["ask", "preview", "preview-ended", "commit", "completed"])
    }

    @Test("A spike to full force that does not hold does not complete")
    func spike() {
        var script = Script()
        script.press(0.3, at: 0)
        script.force(0.7, at: 8)
        script.force(1.0, at: 16)
        script.force(0.5, at: 24)
        script.force(0.6, at: 32)
        script.advance(to: 500)
        #expect(script.seen().phases == ["ask", "preview", "preview-ended", "commit"])
        script.lift(at: 510)
        #expect(script.seen() == [.cancel(.lifted)])
    }

    @Test("Every preset orders its thresholds and keeps a hysteresis gap wider than ±0.02 noise")
    func tables() {
        for sensitivity in Sensitivity.allCases {
            let t = sensitivity.thresholds
            #expect(t.begin < t.commit && t.commit < t.completeLeave && t.completeLeave < t.completeEnter)
            #expect(t.completeEnter - t.completeLeave > 0.04 + 1e-9)
        }
        #expect(LongPressDuration.default.duration == .milliseconds(500))
        #expect(LongPressDuration.fast.duration < LongPressDuration.default.duration)
        #expect(LongPressDuration.default.duration < LongPressDuration.slow.duration)
    }

    @Test("Firmer presets need more force for the same phase", arguments: [0.35, 0.6])
    func sensitivityOrder(force: Double) {
        func phases(_ sensitivity: Sensitivity) -> [String] {
            var script = Script(EngineConfiguration(sensitivity: sensitivity))
            script.press(0.05, at: 0)
            script.force(force, at: 10)
            script.advance(to: 300)
            return script.seen().phases
        }
        if force == 0.35 {
            #expect(phases(.light) == ["ask", "preview"])
            #expect(phases(.firm) == ["ask", "preview"])
        } else {
            #expect(phases(.light) == ["ask", "preview", "preview-ended", "commit"])
            #expect(phases(.medium) == ["ask", "preview", "preview-ended", "commit"])
            #expect(phases(.firm) == ["ask", "preview"])
        }
    }
}
