import PreviewEngine
import Testing

@Suite("Several contacts at once")
struct ConcurrencyTests {
    @Test("Two fingers on two surfaces run independent interactions with increasing ids")
    func twoFingers() {
        var script = Script()
        let left = Script.finger(0)
        let right = Script.finger(1)
        script.press(0.2, at: 0, finger: left, surface: SurfaceID(1))
        script.press(0.2, at: 5, finger: right, surface: SurfaceID(2))
        script.force(0.95, at: 10, finger: left)
        script.force(0.3, at: 10, finger: right)
        script.advance(to: 200)
        let updates = script.updates()
        let leftIDs = Set(updates.filter { $0.contact == left }.map(\.interaction))
        let rightIDs = Set(updates.filter { $0.contact == right }.map(\.interaction))
        #expect(leftIDs == [InteractionID(1)])
        #expect(rightIDs == [InteractionID(2)])
        #expect(updates.filter { $0.contact == left }.allSatisfy { $0.surface == SurfaceID(1) })
        #expect(updates.filter { $0.contact == right }.allSatisfy { $0.surface == SurfaceID(2) })
        let leftSeen = script.all.filter { Script.update($0).contact == left }.map(Script.seen)
        let rightSeen = script.all.filter { Script.update($0).contact == right }.map(Script.seen)
        #expect(leftSeen.phases.last == "completed")
        #expect(rightSeen.phases == ["ask", "preview"])
        #expect(script.engine.interactions.map(\.surface) == [SurfaceID(1), SurfaceID(2)])
        #expect(script.engine.interactions.map(\.state.kind) == [.completed, .preview])
        script.lift(at: 210, finger: right)
        #expect(script.seen() == [.cancel(.lifted)])
    }

    @Test("Destroying one surface cancels only the interactions bound to it")
    func surfaceBinding() {
        var script = Script()
        script.press(0.3, at: 0, finger: Script.finger(0), surface: SurfaceID(1))
        script.press(0.3, at: 0, finger: Script.finger(1), surface: SurfaceID(2))
        script.press(0.3, at: 0, finger: Script.finger(2), surface: SurfaceID(1))
        _ = script.seen()
        script.destroySurface(SurfaceID(1), at: 10)
        let updates = script.updates()
        #expect(updates.map(\.contact) == [Script.finger(0), Script.finger(2)])
        #expect(updates.allSatisfy { $0.surface == SurfaceID(1) })
    }

    @Test("Ten fingers lifted by a device removal: every cancel is delivered, across timers if need be")
    func manyAtOnce() {
        var script = Script()
        for finger in 0..<10 { script.press(0.3, at: 0, finger: Script.finger(Int32(finger))) }
        _ = script.seen()
        script.removeDevice(at: 10)
        script.advance(to: 10)
        let updates = script.updates()
        #expect(updates.count == 10)
        #expect(Set(updates.map(\.contact)).count == 10)
        #expect(script.engine.contactCount == 0)
        #expect(script.engine.nextDeadline == nil)
    }

    @Test("A contact that begins again while its end is still parked gets that end first")
    func beginAfterParkedEnd() {
        var engine = InteractionEngine()
        let fingers = (0..<10).map { Script.finger(Int32($0)) }
        var asked: [InteractionID] = []
        for finger in fingers {
            let sample = ForceSample(
                time: Timestamp(milliseconds: 0), force: 0.3, location: .zero, source: .touchscreen, contact: finger)
            for case .askShouldBegin(let update) in engine.contactBegan(sample, surface: SurfaceID(1), hasForce: true) {
                asked.append(update.interaction)
            }
        }
        let ended = engine.endAllContacts(at: Timestamp(milliseconds: 10), reason: .system)
        let cancelled = ended.compactMap {
            if case .phase(.cancelled(.system), let update) = $0 { update.contact } else { nil }
        }
        #expect(cancelled.count < 10, "not all fit: some ends are parked")
        let last = fingers[9]
        #expect(!cancelled.contains(last))
        // The last finger goes down again before the host's immediate timer fired.
        let again = engine.contactBegan(
            ForceSample(
                time: Timestamp(milliseconds: 11), force: 0.3, location: .zero, source: .touchscreen, contact: last),
            surface: SurfaceID(1), hasForce: true)
        let seen = again.compactMap { action -> String? in
            switch action {
            case .phase(.cancelled(let reason), let update): "cancel \(update.interaction) \(reason)"
            case .askShouldBegin(let update): "ask \(update.interaction)"
            case .phase, .scheduleTimer: nil
            }
        }
        #expect(seen == ["cancel \(asked[9]) system", "ask #11"])
        // The rest of the parked ends still come with the timer.
        var rest: [ContactKey] = []
        for _ in 0..<5 {
            for case .phase(.cancelled(.system), let update) in engine.timerFired(at: Timestamp(milliseconds: 12)) {
                rest.append(update.contact)
            }
        }
        #expect(Set(cancelled + rest + [last]) == Set(fingers))
        #expect(engine.contactCount == 1)
    }

    @Test("The engine asks for the earliest deadline among all contacts, and nil when none is left")
    func earliestTimer() {
        var script = Script(client: .silent)
        script.press(0.3, at: 0, finger: Script.finger(0))  // times out at 150
        script.press(0, at: 100, finger: Script.finger(1), hasForce: false)  // long press at 600
        #expect(script.timer == Timestamp(milliseconds: 150))
        script.advance(to: 151)
        #expect(script.timer == Timestamp(milliseconds: 600))
        script.lift(at: 200, finger: Script.finger(1))
        #expect(script.timer == nil)
        #expect(script.engine.nextDeadline == nil)
    }

    @Test("Transitions are logged from → event → to")
    func transitions() {
        var script = Script()
        script.press(0.3, at: 0)
        script.lift(at: 10)
        let lines = script.transitions.map { "\($0.from.kind) → \($0.event) → \($0.to.kind)" }
        #expect(
            lines == [
                "idle → began → armed",
                "armed → began → awaitingAnswer",
                "awaitingAnswer → accepted → preview",
                "preview → contactEnded(lifted) → ended",
            ])
    }
}
