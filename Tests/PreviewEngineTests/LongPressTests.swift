import Foundation
import PreviewEngine
import PropertyBased
import Testing

/// Sources without force: after the long-press duration within the slop, a simulated force
/// ramps up on timers (seed 004's recogniser) so the interaction completes unless released.
@Suite("Long-press fallback")
struct LongPressTests {
    @Test("Held still: asked at 500 ms, preview rises, commit, completed; every event simulated")
    func completes() {
        var script = Script()
        script.press(0, at: 0, source: .pointer, hasForce: false)
        script.advance(to: 499)
        #expect(script.seen() == [])
        script.advance(to: 500)
        let asked = script.updates()
        #expect(asked.map(\.time) == [Timestamp(milliseconds: 500)] + [Timestamp(milliseconds: 500)])
        script.advance(to: 1_500)
        let updates = script.all.map(Script.update)
        #expect(updates.allSatisfy { $0.simulated })
        #expect(updates.allSatisfy { $0.source == .pointer })
        let seen = script.all.map(Script.seen)
        #expect(seen.phases == ["ask", "preview", "preview-ended", "commit", "completed"])
        let previews = seen.filter { if case .preview(_, false) = $0 { true } else { false } }
        #expect(previews.count >= 5, "the ramp reports progress frame by frame")
        let completedAt = updates.last!.time
        #expect(completedAt > Timestamp(milliseconds: 700) && completedAt < Timestamp(milliseconds: 900))
        _ = script.seen()
        script.lift(at: 1_600)
        #expect(script.updates().isEmpty)
    }

    @Test("Released during the ramp: cancelled (lifted)")
    func releasedDuringRamp() {
        var script = Script()
        script.press(0, at: 0, hasForce: false)
        script.advance(to: 600)
        script.lift(at: 600)
        #expect(script.seen().phases == ["ask", "preview", "cancel(lifted)"])
    }

    @Test("Released before the long-press duration: no interaction")
    func releasedEarly() {
        var script = Script()
        script.press(0, at: 0, hasForce: false)
        script.lift(at: 300)
        script.advance(to: 2_000)
        #expect(script.seen() == [])
        #expect(script.engine.nextDeadline == nil)
    }

    @Test("Moving within the slop (10 px) keeps it a long press; beyond it, nothing starts")
    func slop() {
        var within = Script()
        within.press(0, at: 0, at: Point(x: 100, y: 100), hasForce: false)
        within.move(to: Point(x: 106, y: 108), at: 100)  // exactly 10 px away
        within.advance(to: 600)
        #expect(within.seen().phases.starts(with: ["ask", "preview"]))

        var beyond = Script()
        beyond.press(0, at: 0, at: Point(x: 100, y: 100), hasForce: false)
        beyond.move(to: Point(x: 107, y: 108), at: 100)
        beyond.move(to: Point(x: 100, y: 100), at: 200)  // coming back does not re-arm it
        beyond.advance(to: 2_000)
        #expect(beyond.seen() == [])
        #expect(beyond.engine.interaction(for: Script.finger())?.state == .abandoned)
    }

    @Test("Moving beyond the slop once the interaction started cancels it (moved)")
    func movedDuringRamp() {
        var script = Script()
        script.press(0, at: 0, at: Point(x: 50, y: 50), hasForce: false)
        script.advance(to: 550)
        script.move(to: Point(x: 80, y: 50), at: 560)
        #expect(script.seen().phases == ["ask", "preview", "cancel(moved)"])
    }

    @Test("Long-press durations follow the preset", arguments: LongPressDuration.allCases)
    func durations(preset: LongPressDuration) {
        var script = Script(EngineConfiguration(longPress: preset))
        script.press(0, at: 0, hasForce: false)
        script.advance(to: 5_000)
        let asked = script.updates().first
        #expect(asked?.time == Timestamp(microseconds: 0) + preset.duration)
    }
}

@Suite("Long-press fallback (property-based)")
struct LongPressPropertyTests {
    /// Pointer jitter: angle, distance as a fraction of the slop, gap in ms.
    static let jitter = zip(Gen.double(in: 0...6.28), Gen.double(in: 0...1), Gen.int64(in: 1...40)).array(of: 0...60)

    @Test("Held within the slop for the duration plus the ramp: always completes, every event simulated")
    func heldCompletes() async {
        await propertyCheck(input: Self.jitter, Gen<LongPressDuration>.case) { jitter, preset in
            var script = Script(EngineConfiguration(longPress: preset))
            let origin = Point(x: 200, y: 200)
            script.press(0, at: 0, at: origin, source: .touchscreen, hasForce: false)
            var ms: Int64 = 0
            for (angle, fraction, gap) in jitter {
                ms += gap
                let distance = fraction * 9.99
                let point = Point(x: origin.x + distance * cos(angle), y: origin.y + distance * sin(angle))
                script.move(to: point, at: ms)
            }
            let end = max(ms, preset.duration.microseconds / 1_000 + 400)
            script.advance(to: end)
            let updates = script.all.map(Script.update)
            #expect(script.all.map(Script.seen).last == .commit(1, ended: true))
            #expect(updates.allSatisfy { $0.simulated })
        }
    }

    @Test("Moved beyond the slop before the duration: no interaction at all")
    func movedNeverStarts() async {
        await propertyCheck(input: Self.jitter, Gen.double(in: 10.01...200), Gen.double(in: 0...6.28)) {
            jitter, distance, angle in
            var script = Script()
            script.press(0, at: 0, at: .zero, source: .pointer, hasForce: false)
            var ms: Int64 = 0
            for (_, fraction, gap) in jitter where ms + gap < 499 {
                ms += gap
                script.move(to: Point(x: fraction * 5, y: 0), at: ms)
            }
            script.move(to: Point(x: distance * cos(angle), y: distance * sin(angle)), at: ms + 1)
            script.advance(to: 3_000)
            #expect(script.all.isEmpty)
        }
    }
}
