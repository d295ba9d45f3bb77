import CCompositorModule
import CWaylandClient
import CompositorModule
import Testing
import _PreviewProtocolTestSupport

/// Version 2's pressure behaviours through the C library's entry points, as a C compositor
/// drives them: a pen with pressure, every callback set, a real version 2 client.
@Suite struct EmbeddedAcceleratorTests {
    static let accelerator = SPI_PREVIEW_INTERACTION_V1_BEHAVIOUR_ACCELERATOR.rawValue
    static let generic = SPI_PREVIEW_INTERACTION_V1_BEHAVIOUR_GENERIC.rawValue

    /// A version 2 client whose surface is generic on the left (x < 100) and a 3-stage
    /// accelerator on the right, committed through the host; a pen with pressure 0...1.
    struct Setup {
        let host: EmbeddedHost
        let client: PreviewClient
        let interaction: ClientInteraction
        let surface: OpaquePointer
        let pen: OpaquePointer
    }

    static func setUp(_ recorder: HostRecorder, callbacks: preview_interaction_callbacks) throws -> Setup {
        let host = try EmbeddedHost(callbacks: callbacks, userData: recorder.userData)
        recorder.compositor = host.compositor
        let client = try PreviewClient(display: host.display, version: 2)
        let surface = client.surface()
        let interaction = client.interaction(for: surface)
        interaction.setBehaviour(generic, region: client.region([(0, 0, 100, 100)]))
        interaction.setBehaviour(accelerator, stages: 3, region: client.region([(100, 0, 100, 100)]))
        wl_surface_commit(surface)
        let resource = try #require(host.serverResource(of: surface, for: client))
        #expect(previewInteractionSurfaceCommit(host.context, resource) == 0)
        var pen: OpaquePointer?
        #expect(previewInteractionDeviceAdd(host.context, PREVIEW_INTERACTION_DEVICE_PEN, "pen", 0, 1, 0, &pen) == 0)
        return Setup(host: host, client: client, interaction: interaction, surface: resource, pen: try #require(pen))
    }

    /// Ramps the pen's force up to 1 and down to 0.3 at (x, 50), 5 ms a sample on the host's
    /// clock, accepting every should_begin; then lifts. Returns whether the release was swallowed.
    /// `live`: every call must succeed (false: the context may be destroyed on the way).
    @discardableResult
    static func rampAndLift(_ setup: Setup, _ recorder: HostRecorder, x: Double, live: Bool = true) -> Bool {
        var answered: Set<UInt32> = []
        setup.interaction.clear()
        let forces = (0...50).map { Double($0) / 50 } + (0...35).map { 1 - Double($0) / 50 }
        for (index, force) in forces.enumerated() {
            recorder.now += 5_000
            let status =
                index == 0
                ? previewInteractionContactDown(setup.pen, 0, setup.surface, x, 50, force, recorder.now)
                : previewInteractionContactUpdate(setup.pen, 0, x, 50, force, recorder.now)
            #expect(status == 0 || !live)
            settle(setup, answered: &answered)
        }
        recorder.now += 5_000
        var swallow = true
        #expect(previewInteractionContactUp(setup.pen, 0, recorder.now, &swallow) == 0 || !live)
        setup.client.roundtrip()
        return swallow
    }

    /// After a sample: the client accepts every new should_begin, and both sides dispatch.
    static func settle(_ setup: Setup, answered: inout Set<UInt32>) {
        setup.client.roundtrip()
        for case .shouldBegin(let id, _, _) in setup.interaction.events where !answered.contains(id) {
            answered.insert(id)
            setup.interaction.accept(id)
        }
        setup.client.roundtrip()
        setup.host.display.dispatch(timeoutMilliseconds: 0)
    }

    @Test("A press on an accelerator area with the phase callback set: the host hears each stage, then completed")
    func acceleratorStagesReachTheHost() throws {
        let recorder = HostRecorder()
        let setup = try Self.setUp(recorder, callbacks: recorder.callbacks())
        let swallowed = Self.rampAndLift(setup, recorder, x: 150)
        let levels = setup.interaction.phaseEvents.compactMap { if case .stage(_, let l) = $0 { l } else { nil } }
        #expect(levels.first == 1 && levels.contains(3), "the client: \(setup.interaction.phaseEvents)")
        // The host hears every level through the stage callback (the client's may be coalesced).
        let heard = recorder.stages.map(\.stage)
        #expect(heard.first == 1 && heard.last == levels.last && Set(levels).isSubset(of: heard), "\(recorder.stages)")
        #expect(zip(heard, heard.dropFirst()).allSatisfy { $0 != $1 }, "only changes: \(heard)")
        let stage = PREVIEW_INTERACTION_PHASE_STAGE.rawValue
        #expect(recorder.stages.allSatisfy { $0.phase == stage && $0.interaction == 1 })
        // Phase notifications are only the phases a 1.1 host knows: here, the end.
        #expect(recorder.phases == [.init(interaction: 1, phase: 5, reason: 0, stage: 0)], "\(recorder.phases)")
        // An accelerator never takes its contact away: its release is the client's.
        #expect(recorder.takenAway.isEmpty && !swallowed)
        var running: UInt32 = 9
        #expect(previewInteractionRunningCount(setup.host.context, &running) == 0 && running == 0)
    }

    @Test("A host built against 1.1 (a shorter callbacks struct, no stage member) runs an accelerator unchanged")
    func hostBuiltAgainstOnePointOne() throws {
        let recorder = HostRecorder()
        var callbacks = recorder.callbacks()
        // The 1.1 struct ends with now_usec; whatever lies past it is not the host's.
        callbacks.size = MemoryLayout<preview_interaction_callbacks>.offset(of: \.stage)!
        callbacks.stage = { _, _ in Issue.record("a 1.1 host's stage member was read") }
        let setup = try Self.setUp(recorder, callbacks: callbacks)
        Self.rampAndLift(setup, recorder, x: 150)
        let levels = setup.interaction.phaseEvents.compactMap { if case .stage(_, let l) = $0 { l } else { nil } }
        #expect(levels.contains(3), "\(setup.interaction.phaseEvents)")
        #expect(recorder.stages.isEmpty)
        #expect(recorder.phases.map(\.phase) == [5], "only phases 1...6 reach a 1.1 host: \(recorder.phases)")
    }

    @Test("A generic area asks nothing and tells the host nothing; elsewhere a deep click takes its contact away")
    func genericAndDeepClick() throws {
        let recorder = HostRecorder()
        let setup = try Self.setUp(recorder, callbacks: recorder.callbacks())
        Self.rampAndLift(setup, recorder, x: 50)
        #expect(setup.interaction.events.isEmpty, "\(setup.interaction.events)")
        #expect(recorder.phases.isEmpty && recorder.stages.isEmpty)
        // Where no area lies the behaviour is deep click: preview, commit (the contact taken away), pop.
        let swallowed = Self.rampAndLift(setup, recorder, x: 250)
        let phases = recorder.phases.map(\.phase)
        #expect(phases.first == 1 && phases.contains(3) && phases.last == 5, "\(recorder.phases)")
        #expect(recorder.takenAway == [0] && recorder.givenBack == [0] && swallowed)
        #expect(recorder.stages.isEmpty)
    }

    @Test("The phase callback destroys the context during the client's answer: later calls fail cleanly")
    func destroyedFromThePhaseCallback() throws {
        let recorder = HostRecorder()
        let setup = try Self.setUp(recorder, callbacks: recorder.callbacks())
        recorder.destroyFromPhase = setup.host.context
        // The deep click's preview begins when the client's accept arrives: the callback
        // destroys the context while the library handles the client's request.
        Self.rampAndLift(setup, recorder, x: 250, live: false)
        // The destroy cancels the interaction (system), as destroy does.
        #expect(
            recorder.phases == [
                .init(interaction: 1, phase: 1, reason: 0, stage: 0),
                .init(interaction: 1, phase: 6, reason: 9, stage: 0),
            ],
            "\(recorder.phases)")
        var running: UInt32 = 0
        #expect(
            previewInteractionRunningCount(setup.host.context, &running)
                == PREVIEW_INTERACTION_ERROR_INVALID_CONTEXT.rawValue)
        setup.client.roundtrip()
        #expect(setup.interaction.phaseEvents.last == .cancelled(1, reason: 9), "\(setup.interaction.phaseEvents)")
    }
}
