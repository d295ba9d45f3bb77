import PreviewEngine
import Testing

/// The keyboard source: holding the preview key at the focused item's point is a long press
/// with simulated force; releasing before completion cancels; Escape cancels.
@Suite("Keyboard source")
struct KeyboardTests {
    @Test("Held: asked at the long-press duration, then preview, commit, completed; keyboard, simulated, at the point")
    func heldCompletes() {
        var script = Script()
        script.keyDown(at: 0, at: Point(x: 40, y: 30))
        script.advance(to: 499)
        #expect(script.seen() == [], "a tap shorter than the duration starts nothing")
        script.advance(to: 1_500)
        let updates = script.all.map(Script.update)
        #expect(script.all.map(Script.seen).phases == ["ask", "preview", "preview-ended", "commit", "completed"])
        #expect(updates.first?.time == Timestamp(milliseconds: 500))
        #expect(updates.allSatisfy { $0.source == .keyboard && $0.simulated && $0.location == Point(x: 40, y: 30) })
        _ = script.seen()
        script.keyUp(at: 1_600)
        #expect(script.seen() == [])
        #expect(script.engine.contactCount == 0)
    }

    @Test("Released before the duration: nothing (the host delivers the key as a tap)")
    func tap() {
        var script = Script()
        script.keyDown(at: 0)
        script.keyUp(at: 200)
        script.advance(to: 2_000)
        #expect(script.seen() == [])
        #expect(script.engine.contactCount == 0 && script.engine.nextDeadline == nil)
    }

    @Test("Released during the preview or the commit phase: cancelled (lifted)", arguments: [560, 700] as [Int64])
    func releasedEarly(at ms: Int64) {
        var script = Script()
        script.keyDown(at: 0)
        script.keyUp(at: ms)
        let phases = script.seen().phases
        #expect(phases.first == "ask" && phases.last == "cancel(lifted)", "\(phases)")
        #expect(!phases.contains("completed"))
    }

    @Test("Escape cancels (dismissed); the key's release then adds nothing")
    func escape() {
        var script = Script()
        script.keyDown(at: 0)
        script.advance(to: 600)
        script.escape(at: 600)
        #expect(script.seen().phases == ["ask", "preview", "cancel(dismissed)"])
        script.advance(to: 3_000)
        script.keyUp(at: 3_000)
        #expect(script.seen() == [])
        #expect(script.engine.contactCount == 0)
    }

    @Test("Escape before the duration: nothing is ever asked for that key press")
    func escapeWhileHolding() {
        var script = Script()
        script.keyDown(at: 0)
        script.escape(at: 100)
        script.advance(to: 3_000)
        #expect(script.seen() == [])
        script.keyUp(at: 3_000)
        #expect(script.engine.contactCount == 0)
    }

    @Test("Escape on another seat leaves the interaction alone")
    func escapeOtherSeat() {
        var script = Script()
        script.keyDown(at: 0)
        script.escape(at: 600, seat: 1)
        script.advance(to: 1_500)
        #expect(script.seen().phases.last == "completed")
    }

    @Test("Escape cancels force contacts of the seat too (a press can always be aborted)")
    func escapeCancelsAPen() {
        var script = Script()
        script.press(0.3, at: 0, source: .pen)
        script.force(0.3, at: 10)
        script.escape(at: 20)
        #expect(script.seen().phases == ["ask", "preview", "cancel(dismissed)"])
        script.force(1, at: 30)
        script.advance(to: 1_000)
        #expect(script.seen() == [], "the contact stays inert until it lifts")
    }

    @Test("A key is never a force sensor, whatever the host says")
    func alwaysSimulated() {
        var script = Script()
        script.press(1, at: 0, source: .keyboard, hasForce: true)
        #expect(script.seen() == [], "no force: it waits for the long-press duration")
        script.advance(to: 1_500)
        #expect(script.all.map(Script.update).allSatisfy { $0.simulated })
        #expect(script.all.map(Script.seen).phases.last == "completed")
    }

    @Test("The user's long-press duration applies to the key", arguments: LongPressDuration.allCases)
    func duration(_ duration: LongPressDuration) {
        var script = Script(EngineConfiguration(longPress: duration))
        script.keyDown(at: 0)
        script.advance(to: 2_000)
        #expect(script.all.map(Script.update).first?.time == Timestamp(microseconds: duration.duration.microseconds))
    }

    @Test("On a generic area the key starts nothing")
    func generic() {
        var script = Script()
        script.keyDown(at: 0, behaviour: .generic)
        script.advance(to: 3_000)
        #expect(script.seen() == [])
        #expect(script.engine.contactCount == 0)
    }

    @Test("Complete on release: held past the commit it waits; released, it completes")
    func completeOnRelease() {
        var script = Script(EngineConfiguration(completion: .onRelease))
        script.keyDown(at: 0)
        script.advance(to: 5_000)
        let phases = script.seen().phases
        #expect(phases == ["ask", "preview", "preview-ended", "commit"], "\(phases)")
        script.keyUp(at: 5_000)
        #expect(script.seen().phases == ["completed"])
    }
}

@Suite("Escape with many contacts")
struct EscapeManyTests {
    @Test("Escape with ten pens previewing: every one is cancelled (dismissed), across timers if need be")
    func tenContacts() {
        var script = Script()
        for finger in 0..<10 as Range<Int32> {
            script.press(0.3, at: Int64(finger), finger: Script.finger(finger), source: .pen)
        }
        script.advance(to: 50)
        _ = script.seen()
        script.escape(at: 50)
        script.advance(to: 100)
        let cancels = script.seen().filter { $0 == .cancel(.dismissed) }
        #expect(cancels.count == 10)
        #expect(script.engine.contactCount == 10, "inert until they lift")
        for finger in 0..<10 as Range<Int32> { script.lift(at: 200, finger: Script.finger(finger)) }
        #expect(script.seen() == [])
        #expect(script.engine.contactCount == 0)
    }
}
