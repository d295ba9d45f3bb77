import PreviewEngine
import PropertyBased
import Testing

/// Per-area pressure behaviours: generic (nothing is ever asked) and accelerator (stage levels
/// with hysteresis, ended by the lift).
@Suite("Pressure behaviours")
struct BehaviourTests {
    @Test("Generic: a firm press asks nothing and leaves nothing tracked")
    func generic() {
        var script = Script()
        script.press(0.2, at: 0, source: .pen, behaviour: .generic)
        for ms in stride(from: 10 as Int64, through: 300, by: 10) { script.force(1, at: ms) }
        script.advance(to: 1_000)
        script.lift(at: 1_000)
        #expect(script.seen() == [])
        #expect(script.engine.contactCount == 0)
    }

    @Test("Generic: a long press asks nothing either")
    func genericLongPress() {
        var script = Script()
        script.press(0, at: 0, source: .pointer, hasForce: false, behaviour: .generic)
        script.advance(to: 3_000)
        #expect(script.seen() == [])
    }

    @Test("Accelerator: levels rise and fall with the force; the lift completes; no preview or commit")
    func accelerator() {
        var script = Script()
        let levels = AcceleratorLevels(stages: 3, thresholds: Sensitivity.medium.thresholds)
        #expect(abs(levels.edge(of: 2) - (0.12 + 0.76 / 3)) < 1e-12)
        script.press(0.05, at: 0, source: .pen, behaviour: .accelerator(stages: 3))
        var ms: Int64 = 0
        for force in [0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.7, 0.5, 0.3, 0.2] {
            ms += 10
            script.force(force, at: ms)
            script.force(force, at: ms + 5)  // the filter reaches it
            ms += 5
        }
        script.lift(at: ms + 10)
        let seen = script.seen()
        #expect(
            seen.phases == ["ask", "stage(1)", "stage(2)", "stage(3)", "stage(2)", "stage(1)", "completed"], "\(seen)")
    }

    @Test("Accelerator: other ends cancel with their reason")
    func acceleratorCancels() {
        var script = Script()
        script.press(0.3, at: 0, source: .pen, behaviour: .accelerator(stages: 2))
        script.lift(at: 50, reason: .deviceRemoved)
        #expect(script.seen().phases == ["ask", "stage(1)", "cancel(device-removed)"])
    }

    @Test("Accelerator on a long press: the level climbs with time to the top and moving does not cancel it")
    func acceleratorLongPress() {
        var script = Script()
        script.press(0, at: 0, source: .pointer, hasForce: false, behaviour: .accelerator(stages: 4))
        script.advance(to: 600)
        script.move(to: Point(x: 50, y: 0), at: 600)
        script.advance(to: 2_000)
        script.lift(at: 2_000)
        #expect(script.seen().phases == ["ask", "stage(1)", "stage(2)", "stage(3)", "stage(4)", "completed"])
    }

    @Test("Accelerator stages are clamped to 2...5")
    func clamped() {
        #expect(AcceleratorLevels(stages: 0, thresholds: Sensitivity.medium.thresholds).stages == 2)
        #expect(AcceleratorLevels(stages: 200, thresholds: Sensitivity.light.thresholds).stages == 5)
    }

    @Test("Every level's band is wider than the hysteresis plus ±0.02 noise, in every preset")
    func bandsAreWideEnough() {
        for sensitivity in Sensitivity.allCases {
            let levels = AcceleratorLevels(
                stages: PressureBehaviour.stageRange.upperBound, thresholds: sensitivity.thresholds)
            let band = levels.edge(of: 3) - levels.edge(of: 2)
            #expect(band > Sensitivity.hysteresis + 0.04, "\(sensitivity): band \(band)")
        }
    }

    static let noise = zip(Gen.double(in: -0.02...0.02), Gen.int64(in: 1...20)).array(of: 5...200)

    @Test("A force oscillating ±0.02 around any level's edge changes the level at most once")
    func noChatter() async {
        await propertyCheck(
            count: 500, input: Self.noise, Gen<Sensitivity>.case, Gen.int(in: 2...5), Gen.int(in: 2...5), Gen.bool
        ) { noise, sensitivity, stages, edgeOf, fromAbove in
            let levels = AcceleratorLevels(stages: UInt8(stages), thresholds: sensitivity.thresholds)
            let edge = levels.edge(of: UInt8(min(edgeOf, stages)))
            var script = Script()
            script.press(0.01, at: 0, source: .pen, behaviour: .accelerator(stages: UInt8(stages)))
            let start = fromAbove ? min(1, edge + 0.03) : max(0, edge - 0.03)
            for step in 1...10 { script.force(0.01 + (start - 0.01) * Double(step) / 10, at: Int64(step) * 5) }
            script.advance(to: 100)
            _ = script.seen()
            var ms: Int64 = 100
            for (offset, gap) in noise {
                ms += gap
                script.force(edge + offset, at: ms)
            }
            script.advance(to: ms + 1_000)
            let changes = script.seen().filter { if case .stage = $0 { true } else { false } }
            #expect(changes.count <= 1, "\(changes) around \(edge) (\(stages) stages, \(sensitivity))")
        }
    }

    static let traces = zip(Gen.double(in: 0...1), Gen.int64(in: 0...40)).array(of: 1...120)

    @Test("Random pressure on an accelerator: levels in 1...N, each a change, one terminal event")
    func acceleratorInvariants() async {
        await propertyCheck(count: 500, input: Self.traces, Gen.int(in: 2...5), Gen.bool) { trace, stages, cancel in
            var script = Script()
            script.press(0, at: 0, source: .pen, behaviour: .accelerator(stages: UInt8(stages)))
            var ms: Int64 = 0
            for (index, (force, gap)) in trace.enumerated() {
                ms += gap
                script.force(force, at: ms)
                if cancel, index == trace.count / 2, let id = script.asked.first { script.clientCancels(id, at: ms) }
            }
            script.lift(at: ms + 5)
            script.advance(to: ms + 2_000)
            var last: UInt8?
            var terminals = 0
            for event in script.seen() {
                switch event {
                case .stage(let level):
                    #expect((1...UInt8(stages)).contains(level))
                    #expect(level != last, "a stage event repeats its level")
                    #expect(terminals == 0, "stage after the end")
                    last = level
                case .cancel, .commit(_, ended: true): terminals += 1
                case .ask: break
                case .preview, .commit: Issue.record("an accelerator has no preview or commit: \(event)")
                }
            }
            #expect(terminals == (script.asked.isEmpty ? 0 : 1))
            #expect(script.engine.contactCount == 0)
        }
    }
}
