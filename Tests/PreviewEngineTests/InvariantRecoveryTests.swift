import Testing

@testable import PreviewEngine

/// The engine runs inside compositors, where a trap kills the host: every invariant check is a
/// recovery instead. Each test breaks one through the public API (an `Interaction` driven out of
/// the order `InteractionEngine` keeps) and expects the interaction cancelled with `system`, the
/// machine made inert and a fault for the host to log, not a crash.
@Suite("Engine: broken invariants recover")
struct InvariantRecoveryTests {
    static let contact = ContactKey(device: DeviceID(1))
    static let surface = SurfaceID(7)

    static func sample(_ force: Double, at milliseconds: Int64) -> ForceSample {
        ForceSample(
            time: Timestamp(milliseconds: milliseconds), force: force, location: .zero, source: .pen, contact: contact)
    }

    /// A machine as `InteractionEngine` makes it, before `began`.
    static func machine(force: Double = 0.9, hasForce: Bool = true) -> Interaction {
        Interaction(
            began: sample(force, at: 0), surface: surface, hasForce: hasForce, tuning: Tuning(EngineConfiguration()))
    }

    /// A machine that asked should-begin (pressed hard from the start).
    static func asking(_ context: inout EngineContext) -> Interaction {
        var machine = machine()
        var actions = Actions()
        machine.began(into: &actions, &context)
        #expect(machine.state.kind == .awaitingAnswer)
        return machine
    }

    static func phases(_ actions: Actions) -> [PhaseEvent] {
        actions.compactMap { if case .phase(let event, _) = $0 { event } else { nil } }
    }

    @Test("began applied twice cancels the running interaction (system)")
    func beganTwice() {
        var context = EngineContext()
        var machine = Self.asking(&context)
        var actions = Actions()
        machine.began(into: &actions, &context)
        #expect(Self.phases(actions) == [.cancelled(.system)])
        #expect(machine.state == .cancelled(.system))
        #expect(context.fault?.kind == .beganTwice)
        #expect(context.fault?.interaction == machine.id)
    }

    @Test("began applied twice before asking leaves the contact inert")
    func beganTwiceArmed() {
        var context = EngineContext()
        var machine = Self.machine(force: 0.01)
        var actions = Actions()
        machine.began(into: &actions, &context)
        #expect(machine.state.kind == .armed)
        machine.began(into: &actions, &context)
        #expect(machine.state == .abandoned)
        #expect(context.fault?.kind == .beganTwice)
        // Inert: a hard press later asks nothing.
        actions.removeAll()
        machine.forceChanged(Self.sample(1, at: 10), into: &actions, &context)
        #expect(actions.isEmpty)
    }

    typealias Input = @Sendable (inout Interaction, inout Actions, inout EngineContext) -> Void

    static let inputs: [(String, Input)] = [
        ("sample", { $0.forceChanged(InvariantRecoveryTests.sample(0.5, at: 5), into: &$1, &$2) }),
        ("answer", { $0.answered(accept: true, at: Timestamp(milliseconds: 5), into: &$1, &$2) }),
        ("client cancel", { $0.clientCancelled(at: Timestamp(milliseconds: 5), into: &$1, &$2) }),
        ("surface destroyed", { $0.surfaceDestroyed(at: Timestamp(milliseconds: 5), into: &$1, &$2) }),
        ("dismissed", { $0.dismissed(at: Timestamp(milliseconds: 5), into: &$1, &$2) }),
        ("contact ended", { $0.contactEnded(reason: .lifted, at: Timestamp(milliseconds: 5), into: &$1, &$2) }),
    ]

    @Test("An input before began: a fault, nothing sent, the contact inert", arguments: inputs.indices)
    func inputBeforeBegan(_ index: Int) {
        var context = EngineContext()
        var machine = Self.machine()
        var actions = Actions()
        Self.inputs[index].1(&machine, &actions, &context)
        #expect(actions.isEmpty, "\(Self.inputs[index].0)")
        #expect(context.fault?.kind == .inputOutOfOrder, "\(Self.inputs[index].0)")
        #expect(machine.isOver, "\(Self.inputs[index].0): \(machine.state)")
        #expect(machine.deadline == nil)
    }

    @Test("An input after the contact ended: a fault, nothing sent, still ended", arguments: inputs.indices)
    func inputAfterEnded(_ index: Int) {
        var context = EngineContext()
        var machine = Self.asking(&context)
        var actions = Actions()
        machine.contactEnded(reason: .lifted, at: Timestamp(milliseconds: 1), into: &actions, &context)
        #expect(machine.state == .ended)
        #expect(context.fault == nil)
        actions.removeAll()
        Self.inputs[index].1(&machine, &actions, &context)
        #expect(actions.isEmpty, "\(Self.inputs[index].0)")
        #expect(context.fault?.kind == .inputOutOfOrder, "\(Self.inputs[index].0)")
        #expect(machine.state == .ended)
    }

    @Test("A fault names the contact, the state and the input for the host's log")
    func faultDescription() {
        var context = EngineContext()
        var machine = Self.machine()
        var actions = Actions()
        machine.answered(accept: false, at: Timestamp(milliseconds: 3), into: &actions, &context)
        let line = context.fault.map { "\($0)" } ?? ""
        #expect(line.contains("engine invariant broken"))
        #expect(line.contains("\(Self.contact)"))
        #expect(line.contains("idle"))
        #expect(line.contains("declined"))
        #expect(context.faultCount == 1)
    }

    @Test("The engine clears the fault at the next input and reports none on its own inputs")
    func engineFaultCleared() {
        var engine = InteractionEngine()
        _ = engine.contactBegan(Self.sample(0.9, at: 0), surface: Self.surface, hasForce: true)
        _ = engine.contactBegan(Self.sample(0.9, at: 1), surface: Self.surface, hasForce: true)  // ignored
        #expect(engine.fault == nil)
        #expect(engine.faultCount == 0)
    }

    @Test("Actions beyond the capacity are dropped and counted, not a trap")
    func actionsOverflow() {
        var actions = Actions()
        for millisecond in 0...Int64(Actions.capacity) {
            actions.append(.scheduleTimer(Timestamp(milliseconds: millisecond)))
        }
        #expect(actions.count == Actions.capacity)
        #expect(actions.dropped == 1)
        // The timer still goes first: the last action makes room.
        actions.prepend(.scheduleTimer(nil))
        #expect(actions.count == Actions.capacity)
        #expect(actions.dropped == 2)
        #expect(actions[0] == .scheduleTimer(nil))
        actions.removeAll()
        #expect(actions.dropped == 0)
    }

    @Test("Indices outside the buffers read a placeholder, not a trap")
    func outOfRangeIndices() {
        var actions = Actions()
        actions.append(.scheduleTimer(Timestamp(milliseconds: 1)))
        #expect(actions[-1] == .scheduleTimer(nil))
        #expect(actions[Int.max] == .scheduleTimer(nil))
        #expect(actions.element(after: Int.max) == nil)
        #expect(actions.element(after: -5) == nil)
        let log = TransitionLog()
        #expect(log[-1].to == .idle)
        #expect(log[Int.max].to == .idle)
    }

    @Test("Every preset's thresholds are ordered; unordered ones make no trap")
    func thresholds() {
        for sensitivity in Sensitivity.allCases { #expect(sensitivity.thresholds.isOrdered, "\(sensitivity)") }
        let odd = ForceThresholds(begin: 0.5, commit: 0.5, completeEnter: 0, completeLeave: 2)
        #expect(!odd.isOrdered)
        _ = odd.previewProgress(0.7)
        _ = odd.commitProgress(0.7)
    }

    @Test("An accelerator's edge below its first level makes no trap")
    func acceleratorEdge() {
        let levels = AcceleratorLevels(stages: 3, thresholds: Sensitivity.medium.thresholds)
        #expect(levels.edge(of: 0) < levels.edge(of: 1))
    }

    @Test("Interaction numbers wrap past 2^32, skipping 0, rather than trap")
    func interactionNumbersWrap() {
        var context = EngineContext()
        context.lastID = .max
        #expect(context.takeID() == InteractionID(1))
    }
}
