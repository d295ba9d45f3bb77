import CWaylandClient
import PreviewEngine
import PreviewProtocolServer
import Testing
import WaylandServer
import _PreviewProtocolTestSupport

/// The real engine behind the protocol: the host's loop as the compositor runs it (engine
/// actions → server.perform, client inputs → engine), on a virtual clock, with a real client.
final class EngineHost {
    var engine = InteractionEngine()
    let harness: ProtocolHarness
    private(set) var now = Timestamp(milliseconds: 10_000)
    private var timer: Timestamp?

    init(_ harness: ProtocolHarness) {
        self.harness = harness
        harness.react = { [unowned self] input in
            switch input {
            case .answered(let id, let accept, _):
                return self.collect(self.engine.clientAnswered(id, accept: accept, at: self.now))
            case .cancelled(let id, _): return self.collect(self.engine.clientCancelled(id, at: self.now))
            case .surfaceDestroyed(let surface, _):
                return self.collect(self.engine.surfaceDestroyed(surface, at: self.now))
            }
        }
    }

    /// Actions for the server; timers kept for `advance`.
    private func collect(_ actions: Actions) -> [Action] {
        var forServer: [Action] = []
        for action in actions {
            if case .scheduleTimer(let time) = action { timer = time } else { forServer.append(action) }
        }
        return forServer
    }

    func perform(_ actions: Actions) {
        for action in collect(actions) { harness.server.perform(action) }
    }

    /// Moves the clock, firing the engine's timers on the way.
    func advance(to time: Timestamp) {
        while let due = timer, due <= time {
            timer = nil
            now = due
            perform(engine.timerFired(at: due))
        }
        now = time
    }

    func press(
        _ force: Double, at location: Point = Point(x: 30, y: 40), surface: UInt64 = 1, began: Bool = false,
        hasForce: Bool = true
    ) {
        let sample = ForceSample(
            time: now, force: force, location: location, source: hasForce ? .pen : .pointer, simulated: false,
            contact: ContactKey(device: DeviceID(1)))
        if began {
            let target = SurfaceID(surface)
            let allowed = harness.server.allowsInteraction(on: target, at: location, source: sample.source)
            perform(engine.contactBegan(sample, surface: allowed ? target : nil, hasForce: hasForce))
        } else {
            perform(engine.forceChanged(sample))
        }
    }

    func lift() {
        perform(engine.contactEnded(ContactKey(device: DeviceID(1)), at: now, reason: .lifted))
    }
}

@Suite struct EngineEndToEndTests {
    /// The client answers every should_begin it sees with `accept` (or not).
    func answerNewQuestions(_ interaction: ClientInteraction, accept: Bool, answered: inout Set<UInt32>) {
        for case .shouldBegin(let id, _, _) in interaction.events where !answered.contains(id) {
            answered.insert(id)
            if accept { interaction.accept(id) } else { interaction.decline(id) }
        }
    }

    @Test func aFirmPressIsAskedPreviewedCommittedAndCompleted() throws {
        let harness = try ProtocolHarness()
        let host = EngineHost(harness)
        let client = try PreviewClient(harness)
        let interaction = client.interaction(for: client.surface())
        var answered: Set<UInt32> = []

        host.press(0.02, began: true)
        for step in 1...120 {  // 5 ms apart: ramp to full force in 250 ms, then hold
            host.advance(to: host.now + .milliseconds(5))
            host.press(min(1, Double(step) / 50), at: Point(x: 30 + Double(step % 3), y: 40))
            client.roundtrip()
            answerNewQuestions(interaction, accept: true, answered: &answered)
        }
        host.advance(to: host.now + .milliseconds(200))
        client.roundtrip()
        host.lift()
        client.roundtrip()

        let phases = interaction.phaseEvents.filter { if case .location = $0 { false } else { true } }
        #expect(phases.first == .shouldBegin(1, source: 1, force: 1))
        #expect(phases.last == .completed(1), "\(phases)")
        let endedAt = try #require(phases.firstIndex(of: .previewEnded(1)))
        let previews = phases[..<endedAt].compactMap { if case .preview(_, let p) = $0 { p } else { nil } }
        let commits = phases[endedAt...].compactMap { if case .commit(_, let p) = $0 { p } else { nil } }
        #expect(!previews.isEmpty && previews == previews.sorted(), "a rising force previews upwards: \(previews)")
        #expect(!commits.isEmpty)
        #expect(phases.filter { if case .cancelled = $0 { true } else { false } }.isEmpty)
        guard case .answered(_, accept: true, _) = harness.inputs.first else {
            Issue.record("the engine got no answer: \(harness.inputs)")
            return
        }
    }

    @Test func aDeclinedPressIsCancelledAsDeclined() throws {
        let harness = try ProtocolHarness()
        let host = EngineHost(harness)
        let client = try PreviewClient(harness)
        let interaction = client.interaction(for: client.surface())
        var answered: Set<UInt32> = []
        host.press(0.3, began: true)
        for _ in 1...10 {
            host.advance(to: host.now + .milliseconds(5))
            host.press(0.3)
            client.roundtrip()
            answerNewQuestions(interaction, accept: false, answered: &answered)
        }
        #expect(
            interaction.phaseEvents.last
                == .cancelled(1, reason: SPI_PREVIEW_INTERACTION_V1_CANCEL_REASON_DECLINED.rawValue))
    }

    @Test func anUnansweredPressTimesOut() throws {
        let harness = try ProtocolHarness()
        let host = EngineHost(harness)
        let client = try PreviewClient(harness)
        let interaction = client.interaction(for: client.surface())
        host.press(0.3, began: true)
        client.roundtrip()
        #expect(interaction.events.first == .shouldBegin(1, source: 1, force: 1))
        host.advance(to: host.now + .milliseconds(200))  // past the 150 ms should-begin wait
        client.roundtrip()
        #expect(
            interaction.phaseEvents.last
                == .cancelled(1, reason: SPI_PREVIEW_INTERACTION_V1_CANCEL_REASON_TIMEOUT.rawValue))
        interaction.accept(1)  // too late: ignored, no error
        #expect(client.roundtrip())
    }

    @Test func aClientCancelAndADestroyedSurfaceReachTheEngine() throws {
        let harness = try ProtocolHarness()
        let host = EngineHost(harness)
        let client = try PreviewClient(harness)
        let surface = client.surface()
        let interaction = client.interaction(for: surface)
        var answered: Set<UInt32> = []
        host.press(0.3, began: true)
        client.roundtrip()
        answerNewQuestions(interaction, accept: true, answered: &answered)
        client.roundtrip()
        interaction.cancel(1)
        client.roundtrip()
        #expect(
            interaction.phaseEvents.last
                == .cancelled(1, reason: SPI_PREVIEW_INTERACTION_V1_CANCEL_REASON_CLIENT_CANCELLED.rawValue))
        host.lift()

        host.advance(to: host.now + .milliseconds(50))
        host.press(0.3, began: true)
        client.roundtrip()
        answerNewQuestions(interaction, accept: true, answered: &answered)
        client.roundtrip()
        wl_surface_destroy(surface)
        client.roundtrip()
        #expect(
            interaction.phaseEvents.last
                == .cancelled(2, reason: SPI_PREVIEW_INTERACTION_V1_CANCEL_REASON_SURFACE_GONE.rawValue))
        host.press(0.9)
        client.roundtrip()
        #expect(
            interaction.phaseEvents.last
                == .cancelled(2, reason: SPI_PREVIEW_INTERACTION_V1_CANCEL_REASON_SURFACE_GONE.rawValue),
            "nothing after the terminal event")
    }

    @Test func aPressOutsideTheRegionNeverReachesTheClient() throws {
        let harness = try ProtocolHarness()
        let host = EngineHost(harness)
        let client = try PreviewClient(harness)
        let surface = client.surface()
        let interaction = client.interaction(for: surface)
        let region = client.region([(0, 0, 10, 10)])
        interaction.setRegion(region)
        wl_surface_commit(surface)
        client.roundtrip()
        host.press(0.5, at: Point(x: 30, y: 40), began: true)
        host.advance(to: host.now + .milliseconds(300))
        client.roundtrip()
        #expect(interaction.events.isEmpty)
    }
}
