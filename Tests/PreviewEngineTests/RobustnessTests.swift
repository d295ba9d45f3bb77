import PreviewEngine
import Testing

@Suite("Robustness: odd hosts and odd input")
struct RobustnessTests {
    @Test("A host that fires timers late sees the same events, stamped with the times they were due")
    func lateTimers() {
        func run(lateBy lateness: Int64) -> [String] {
            var engine = InteractionEngine()
            let finger = Script.finger()
            var timer: Timestamp?
            var seen: [String] = []
            func perform(_ actions: Actions) {
                var asks: [PhaseUpdate] = []
                for action in actions {
                    switch action {
                    case .scheduleTimer(let time): timer = time
                    case .askShouldBegin(let update): asks.append(update)
                    case .phase:
                        seen.append("\(Script.seen(action)) @\(Script.update(action).time)")
                    }
                }
                for ask in asks { perform(engine.clientAnswered(ask.interaction, accept: true, at: ask.time)) }
            }
            let sample = { (ms: Int64, force: Double) in
                ForceSample(
                    time: Timestamp(milliseconds: ms), force: force, location: .zero, source: .pen, contact: finger)
            }
            perform(engine.contactBegan(sample(0, 0.2), surface: SurfaceID(1), hasForce: true))
            perform(engine.forceChanged(sample(8, 0.6)))
            perform(engine.forceChanged(sample(16, 0.97)))
            // The device goes quiet; the host's timers come `lateness` ms after they were due.
            var rounds = 0
            while let due = timer, rounds < 20 {
                rounds += 1
                timer = nil
                perform(engine.timerFired(at: due + .milliseconds(lateness)))
            }
            perform(engine.contactEnded(finger, at: Timestamp(milliseconds: 1_000), reason: .lifted))
            return seen
        }
        let punctual = run(lateBy: 0)
        #expect(punctual.last?.hasPrefix("commit(1.0, ended)") == true)
        #expect(run(lateBy: 300) == punctual)
        #expect(run(lateBy: 1) == punctual)
    }

    @Test("A host that answers should-begin in-line, mid-loop, still ends with the newest timer")
    func nestedAnswers() {
        var engine = InteractionEngine()
        var timer: Timestamp?
        var previews: [Timestamp] = []
        func perform(_ actions: Actions) {
            for action in actions {
                switch action {
                case .scheduleTimer(let time): timer = time
                case .askShouldBegin(let update):
                    perform(engine.clientAnswered(update.interaction, accept: true, at: update.time))
                case .phase(let event, let update) where event.isPreview: previews.append(update.time)
                case .phase: break
                }
            }
        }
        let key = Script.finger()
        let sample = ForceSample(
            time: Timestamp(milliseconds: 0), force: 0, location: .zero, source: .pointer, contact: key)
        perform(engine.contactBegan(sample, surface: SurfaceID(1), hasForce: false))
        for _ in 0..<3 {
            guard let due = timer else { break }
            timer = nil
            perform(engine.timerFired(at: due))
        }
        // Long press at 500 ms, answered in-line: the ramp ticks at once, not after the 150 ms timeout.
        #expect(previews == [500, 516, 532].map { Timestamp(milliseconds: $0) })
    }

    @Test("Inputs stamped before what the engine has seen are treated as happening now")
    func timeGoesBackwards() {
        var script = Script()
        script.press(0.2, at: 100)
        var engine = script.engine
        let finger = Script.finger()
        let early = engine.forceChanged(
            ForceSample(time: Timestamp(milliseconds: 50), force: 0.4, location: .zero, source: .pen, contact: finger))
        let updates = early.compactMap {
            if case .phase(let event, let update) = $0, event.isPreview { update } else { nil }
        }
        #expect(updates.map(\.time) == [Timestamp(milliseconds: 100)])
    }

    @Test("Absurd timestamps near the ends of the clock saturate instead of trapping")
    func absurdTimes() {
        for start in [Int64.max - 1_000, Int64.min + 10] {
            var engine = InteractionEngine()
            for hasForce in [true, false] {
                let key = ContactKey(device: DeviceID(hasForce ? 1 : 2))
                let sample = ForceSample(
                    time: Timestamp(microseconds: start), force: 0.9, location: .zero, source: .pen, contact: key)
                for action in engine.contactBegan(sample, surface: SurfaceID(1), hasForce: hasForce) {
                    if case .askShouldBegin(let update) = action {
                        _ = engine.clientAnswered(update.interaction, accept: true, at: update.time)
                    }
                }
            }
            _ = engine.timerFired(at: Timestamp(microseconds: .max))
            _ = engine.timerFired(at: Timestamp(microseconds: .max))
            _ = engine.endAllContacts(at: Timestamp(microseconds: .max), reason: .system)
            _ = engine.timerFired(at: Timestamp(microseconds: .max))
            #expect(engine.contactCount == 0)
        }
        #expect(Timestamp(milliseconds: .max) == Timestamp(microseconds: .max))
        #expect(Timestamp(microseconds: .min) - Timestamp(microseconds: .max) == Timestamp.Duration(microseconds: .min))
    }

    @Test("Ending all contacts cancels running interactions with the host's reason")
    func endAll() {
        var script = Script()
        script.press(0.3, at: 0, finger: Script.finger(0))
        script.press(0.05, at: 0, finger: Script.finger(1))  // armed, no interaction: silent
        _ = script.seen()
        var engine = script.engine
        let actions = engine.endAllContacts(at: Timestamp(milliseconds: 10), reason: .system)
        #expect(actions.map(Script.seenOrTimer) == ["cancel(system)"], "no timer was pending, so none is re-asked")
        #expect(engine.contactCount == 0)
    }

    @Test("More transitions than the log holds are counted, not lost silently")
    func transitionOverflow() {
        var engine = InteractionEngine()
        for finger in 0..<12 {
            let sample = ForceSample(
                time: Timestamp(milliseconds: 0), force: 0.05, location: .zero, source: .touchscreen,
                contact: Script.finger(Int32(finger)))
            _ = engine.contactBegan(sample, surface: SurfaceID(1), hasForce: true)
        }
        _ = engine.deviceRemoved(DeviceID(1), at: Timestamp(milliseconds: 5))
        #expect(engine.transitions.count == TransitionLog.capacity)
        #expect(engine.transitions.dropped == 12 - TransitionLog.capacity)
        #expect(engine.transitions.allSatisfy { $0.to == .ended && $0.event == .contactEnded(.deviceRemoved) })
        #expect(engine.contactCount == 0, "armed contacts end silently, so all fit at once")
    }

    @Test("New presets apply to contacts that begin afterwards")
    func reconfigure() {
        var script = Script(EngineConfiguration(sensitivity: .light))
        script.press(0.09, at: 0, finger: Script.finger(0))
        script.engine.configure(EngineConfiguration(sensitivity: .firm))
        script.press(0.09, at: 10, finger: Script.finger(1))
        script.advance(to: 100)
        let updates = script.updates()
        #expect(Set(updates.map(\.contact)) == [Script.finger(0)], "0.09 is past light's begin, not firm's")
        #expect(script.engine.interaction(for: Script.finger(1))?.tuning.thresholds == Sensitivity.firm.thresholds)
    }

    @Test("The registry holds at most maximumContacts contacts; the rest are ignored")
    func registryBound() {
        var script = Script()
        for finger in 0..<(InteractionEngine.maximumContacts + 5) {
            script.press(0.05, at: 0, finger: Script.finger(Int32(finger)))
        }
        #expect(script.engine.contactCount == InteractionEngine.maximumContacts)
        script.removeDevice(at: 10)
        #expect(script.engine.contactCount == 0)
    }

    @Test("awaitingAnswerCount follows the should-begin questions: asked, answered, timed out")
    func awaitingAnswerCount() {
        var engine = InteractionEngine()
        func press(_ device: UInt32) -> InteractionID? {
            let sample = ForceSample(
                time: Timestamp(milliseconds: 0), force: 0.9, location: .zero, source: .pen,
                contact: ContactKey(device: DeviceID(device)))
            for case .askShouldBegin(let update) in engine.contactBegan(sample, surface: SurfaceID(1), hasForce: true) {
                return update.interaction
            }
            return nil
        }
        #expect(engine.awaitingAnswerCount == 0)
        let first = press(1)
        let second = press(2)
        #expect(first != nil && second != nil)
        #expect(engine.awaitingAnswerCount == 2)
        if let first { _ = engine.clientAnswered(first, accept: true, at: Timestamp(milliseconds: 10)) }
        #expect(engine.awaitingAnswerCount == 1)
        // The other is never answered: the engine's timeout settles it.
        _ = engine.timerFired(at: Timestamp(milliseconds: 10_000))
        #expect(engine.awaitingAnswerCount == 0)
    }
}
