import PreviewEngine
import PreviewProtocolServer
import Testing
import _PreviewProtocolTestSupport

/// The core-input rules: no click after completion, core input untouched before commit.
@Suite struct CoreInputGateTests {
    let contact = ContactKey(device: DeviceID(1))

    /// A real engine pressed on `contact` (surface 1) and driven forward at full force: its
    /// actions go to the gate as a host performs them, and the gate asks the engine the phase.
    struct Press {
        var engine = InteractionEngine()
        var gate = CoreInputGate()
        var changes: [CoreInputGate.Change] = []
        var asked: InteractionID?
        var milliseconds: Int64 = 0

        mutating func perform(_ actions: Actions) {
            for action in actions {
                if case .askShouldBegin(let update) = action { asked = update.interaction }
                if let change = gate.apply(action) { changes.append(change) }
            }
        }

        func sample(_ force: Double, _ contact: ContactKey) -> ForceSample {
            ForceSample(
                time: Timestamp(milliseconds: milliseconds), force: force, location: .zero, source: .pen,
                contact: contact)
        }

        /// Pressed, accepted, then full force every 10 ms (timers fired) until `phase`.
        mutating func press(_ contact: ContactKey, until phase: Phase) {
            perform(engine.contactBegan(sample(0.9, contact), surface: SurfaceID(1), hasForce: true))
            if let asked { perform(engine.clientAnswered(asked, accept: true, at: Timestamp(milliseconds: 1))) }
            while let asked, engine.phase(of: asked) != phase, milliseconds < 5_000 {
                milliseconds += 10
                perform(engine.timerFired(at: Timestamp(milliseconds: milliseconds)))
                perform(engine.forceChanged(sample(1, contact)))
            }
        }
    }

    @Test func aCompletedInteractionTakesTheContactAwayAndSwallowsItsRelease() throws {
        var press = Press()
        press.press(contact, until: .commit)
        let interaction = try #require(press.asked)
        #expect(press.changes == [.takeAway(contact, SurfaceID(1))])
        #expect(press.gate.isTakenAway(contact, in: press.engine))
        press.press(contact, until: .completed)
        #expect(press.engine.phase(of: interaction) == .completed)
        #expect(press.changes == [.takeAway(contact, SurfaceID(1)), .giveBack(contact, SurfaceID(1))])
        #expect(!press.gate.isTakenAway(contact, in: press.engine), "the pointer may enter again")
        press.perform(press.engine.contactEnded(contact, at: Timestamp(milliseconds: 6_000), reason: .lifted))
        var swallow = press.gate.release(contact)
        #expect(swallow, "but its release is never delivered")
        swallow = press.gate.release(contact)
        #expect(!swallow, "only once")
    }

    @Test func coreEventsFlowDuringThePreviewPhase() throws {
        var gate = CoreInputGate()
        var engine = InteractionEngine()
        let began = engine.contactBegan(
            // Past the begin threshold, below the commit one.
            ForceSample(time: Timestamp(milliseconds: 0), force: 0.3, location: .zero, source: .pen, contact: contact),
            surface: SurfaceID(1), hasForce: true)
        var asked: InteractionID?
        for action in began {
            if case .askShouldBegin(let update) = action { asked = update.interaction }
            #expect(gate.apply(action) == nil)
        }
        let interaction = try #require(asked)
        for action in engine.clientAnswered(interaction, accept: true, at: Timestamp(milliseconds: 1)) {
            #expect(gate.apply(action) == nil)
        }
        #expect(engine.phase(of: interaction) == .preview)
        #expect(!gate.isTakenAway(contact, in: engine))
    }

    @Test func aPreviewCancelledByLiftingKeepsItsClick() {
        var gate = CoreInputGate()
        _ = gate.apply(.phase(.previewProgress, .test(1, progress: 0.4)))
        let change = gate.apply(.phase(.cancelled(.lifted), .test(1)))
        #expect(change == nil)
        let swallow = gate.release(contact)
        #expect(!swallow, "deliver the release: an ordinary click after a cancelled preview")
    }

    @Test(arguments: CancelReason.allCases)
    func anyCancelDuringCommitGivesTheContactBack(reason: CancelReason) {
        var gate = CoreInputGate()
        _ = gate.apply(.phase(.previewEnded, .test(1, progress: 1)))
        let change = gate.apply(.phase(.cancelled(reason), .test(1)))
        #expect(change == .giveBack(contact, SurfaceID(1)))
        let swallow = gate.release(contact)
        #expect(swallow)
    }

    @Test func contactsAreIndependent() {
        var press = Press()
        press.press(contact, until: .commit)
        let other = ContactKey(device: DeviceID(2))
        #expect(!press.gate.isTakenAway(other, in: press.engine))
        let swallow = press.gate.release(other)
        #expect(!swallow)
        // A stale end for another interaction on the same contact changes nothing.
        let change = press.gate.apply(.phase(.cancelled(.system), .test(9)))
        #expect(change == nil)
        #expect(press.gate.isTakenAway(contact, in: press.engine))
    }
}
