import CWaylandClient
import CWaylandServer
import Glibc
import PreviewEngine
import PreviewProtocolServer
import Testing
import WaylandServer
import _PreviewProtocolTestSupport

@Suite struct FlowControlTests {
    @Test func progressWaitsForTheAckAndOnlyTheLatestValueIsSent() throws {
        let harness = try ProtocolHarness()
        let client = try PreviewClient(harness)
        let interaction = client.interaction(for: client.surface())
        interaction.autoAck(false)
        harness.server.perform(.askShouldBegin(.test(1)))
        client.roundtrip()
        interaction.accept(1)
        harness.server.perform(.phase(.previewProgress, .test(1, progress: 0.1)))
        harness.server.perform(.phase(.previewProgress, .test(1, progress: 0.2, at: Point(x: 11, y: 20))))
        client.roundtrip()
        #expect(interaction.phaseEvents == [.shouldBegin(1, source: 3, force: 1), .location(1, x: 10, y: 20)])

        interaction.clear()
        interaction.ack(1)
        client.roundtrip()
        #expect(interaction.phaseEvents == [.location(1, x: 11, y: 20), .preview(1, 0.19921875)], "coalesced")

        // Phase changes are never held back, even while an ack is owed.
        interaction.clear()
        harness.server.perform(.phase(.previewProgress, .test(1, progress: 0.6)))
        harness.server.perform(.phase(.previewEnded, .test(1, progress: 1)))
        harness.server.perform(.phase(.commitProgress, .test(1, progress: 0.3)))
        harness.server.perform(.phase(.commitProgress, .test(1, progress: 0.4)))
        client.roundtrip()
        #expect(
            interaction.phaseEvents == [.location(1, x: 10, y: 20), .previewEnded(1)],
            "the superseded preview value is dropped, the latest location is not")
        guard case .frame(1, let serial, _) = interaction.events.last else {
            Issue.record("no frame: \(interaction.events)")
            return
        }
        #expect(serial == 3)

        interaction.clear()
        interaction.ack(serial)
        client.roundtrip()
        #expect(interaction.phaseEvents == [.commit(1, 0.3984375)])
        harness.server.perform(.phase(.completed, .test(1, progress: 1)))
        client.roundtrip()
        #expect(interaction.phaseEvents.last == .completed(1))
    }

    /// A client that acknowledges only when told, asked about interaction 1, which it accepts
    /// and acknowledges in one batch (as a client answering in its should_begin handler does).
    static func acceptedWithItsAck(_ harness: ProtocolHarness, version: UInt32 = 1) throws
        -> (PreviewClient, ClientInteraction)
    {
        let client = try PreviewClient(harness, version: version)
        let interaction = client.interaction(for: client.surface())
        interaction.autoAck(false)
        harness.server.perform(.askShouldBegin(.test(1)))
        client.roundtrip()
        interaction.accept(1)
        interaction.ack(1)
        client.roundtrip()
        return (client, interaction)
    }

    /// A client answers in its should_begin handler and acknowledges in its frame handler: the
    /// accept and the ack arrive in one batch, the accept first. The answer takes effect once
    /// the batch is read, so the first preview finds nothing owed and is sent at once; an
    /// accept without the ack still leaves the progress waiting for it.
    @Test func anAcceptSentWithItsAckIsNotHeldForIt() throws {
        let harness = try ProtocolHarness()
        harness.react = { input in
            guard case .answered(let id, true, _) = input else { return [] }
            return [.phase(.previewBegan, .test(id.rawValue, progress: 0.1))]
        }
        let (client, interaction) = try Self.acceptedWithItsAck(harness)
        client.roundtrip()
        #expect(interaction.phaseEvents.last == .preview(1, 0.1015625), "\(interaction.phaseEvents)")
        var statistics = harness.server.flowStatistics
        #expect(statistics.sentAtOnce == 1 && statistics.held == 0, "\(statistics.summary)")

        // The same without the ack: the preview waits for it.
        harness.server.perform(.askShouldBegin(.test(2)))
        client.roundtrip()
        interaction.clear()
        interaction.accept(2)
        client.roundtrip()
        client.roundtrip()
        #expect(!interaction.phaseEvents.contains(.preview(2, 0.1015625)), "\(interaction.phaseEvents)")
        interaction.ack(3)
        client.roundtrip()
        #expect(interaction.phaseEvents.last == .preview(2, 0.1015625), "\(interaction.phaseEvents)")
        statistics = harness.server.flowStatistics
        #expect(statistics.sentAtOnce == 1 && statistics.held == 1, "\(statistics.summary)")
    }

    /// One sample that crosses the commit threshold ends the preview and gives the first commit
    /// progress: both go out in preview_ended's frame, so the progress waits for no ack.
    @Test func theFirstCommitProgressRidesInPreviewEndedsFrame() throws {
        let harness = try ProtocolHarness()
        let (client, interaction) = try Self.acceptedWithItsAck(harness)
        harness.server.perform(.phase(.previewBegan, .test(1, progress: 0.5)))
        client.roundtrip()
        interaction.clear()
        // The preview frame (serial 2) is not acknowledged: a commit frame on its own would wait.
        let joined = harness.server.perform(
            .phase(.previewEnded, .test(1, progress: 1)), joining: .phase(.commitProgress, .test(1, progress: 0.25)))
        client.roundtrip()
        #expect(joined)
        #expect(interaction.phaseEvents == [.previewEnded(1), .commit(1, 0.25)], "\(interaction.events)")
        guard case .frame(1, let serial, _) = interaction.events.last else {
            Issue.record("no frame: \(interaction.events)")
            return
        }
        #expect(serial == 3 && interaction.events.filter { if case .frame = $0 { true } else { false } }.count == 1)
        #expect(harness.server.flowStatistics.held == 0, "\(harness.server.flowStatistics.summary)")

        // Anything else is performed on its own, and `next` is left to the host.
        let alone = harness.server.perform(
            .phase(.commitProgress, .test(1, progress: 0.5)), joining: .phase(.completed, .test(1, progress: 1)))
        #expect(!alone)
    }

    @Test func anUnresponsiveClientIsNotAskedAgain() throws {
        let clock = ManualClock()
        let harness = try ProtocolHarness(clock: clock)
        let client = try PreviewClient(harness)
        let interaction = client.interaction(for: client.surface())
        interaction.autoAck(false)
        harness.server.perform(.askShouldBegin(.test(1)))
        // Owing an ack for less than `unresponsiveAfter` (150 ms) is only being slow.
        clock.advance(milliseconds: 149)
        harness.server.perform(.askShouldBegin(.test(2)))
        client.roundtrip()
        #expect(interaction.phaseEvents.contains(.shouldBegin(2, source: 3, force: 1)), "a slow client is asked")
        interaction.clear()
        clock.advance(milliseconds: 1)
        harness.server.perform(.askShouldBegin(.test(3)))
        client.roundtrip()
        #expect(interaction.phaseEvents.isEmpty, "no should_begin for a client that owes an ack for 150 ms")
        harness.display.dispatch()
        guard case .answered(InteractionID(3), accept: false, _) = harness.inputs.last else {
            Issue.record("the engine must hear a decline: \(harness.inputs)")
            return
        }
        interaction.ack(2)
        client.roundtrip()
        harness.server.perform(.askShouldBegin(.test(4)))
        client.roundtrip()
        #expect(interaction.phaseEvents.contains(.shouldBegin(3, source: 3, force: 1)), "asked again once caught up")
    }

    /// A client that stops reading while progress keeps coming, with socket buffers shrunk
    /// to their minimum so that anything unbounded overflows libwayland's 4 KiB buffer.
    @Test func aStalledClientIsNotBlockedOnNorDisconnectedAndGetsTheLatestValue() throws {
        let harness = try ProtocolHarness()
        let stalled = try PreviewClient(harness)
        let slow = stalled.interaction(for: stalled.surface())  // surface 1
        let lively = try PreviewClient(harness)
        let quick = lively.interaction(for: lively.surface())  // surface 2
        shrinkBuffers(stalled)
        var disconnected = false
        let watch = Listener { _ in disconnected = true }
        watch.listen(toDestroyOf: stalled.connection.serverClient)

        for (client, interaction, surface) in [(stalled, slow, UInt64(1)), (lively, quick, UInt64(2))] {
            harness.server.perform(.askShouldBegin(.test(UInt32(surface), surface: surface)))
            client.roundtrip()
            interaction.accept(1)
            client.roundtrip()
        }

        // The stalled client reads nothing from now on; the server keeps going.
        for step in 1...20_000 {
            let progress = Double(step % 997) / 997
            harness.server.perform(
                .phase(
                    .previewProgress, .test(1, surface: 1, progress: progress, at: Point(x: Double(step % 300), y: 7))))
            if step % 500 == 0 {
                harness.server.perform(.phase(.previewProgress, .test(2, surface: 2, progress: progress)))
                #expect(lively.roundtrip(), "other clients keep being served")
            }
            harness.display.dispatch()
        }
        harness.server.perform(.phase(.previewProgress, .test(1, surface: 1, progress: 0.75, at: Point(x: 42, y: 43))))
        harness.display.dispatch()
        #expect(!disconnected, "libwayland did not drop the stalled client")
        #expect(quick.phaseEvents.filter { if case .preview = $0 { true } else { false } }.count == 40)

        // It resumes: the first frame it reads is acked, then the latest value arrives.
        slow.clear()
        #expect(stalled.roundtrip())
        #expect(stalled.roundtrip())
        let previews = slow.phaseEvents.filter { if case .preview = $0 { true } else { false } }
        #expect(previews.count <= 2, "coalesced, not queued: \(previews)")
        #expect(previews.last == .preview(1, 0.75))
        #expect(
            slow.phaseEvents.last(where: { if case .location = $0 { true } else { false } })
                == .location(1, x: 42, y: 43))
        withExtendedLifetime(watch) {}
    }

    /// Phase events are never coalesced, so what bounds them is that an unresponsive client
    /// is not asked again: a flood of presses while it stalls adds nothing to its queue.
    @Test func pressesWhileAClientStallsDoNotQueueAnythingForIt() throws {
        let clock = ManualClock()
        let harness = try ProtocolHarness(clock: clock)
        let stalled = try PreviewClient(harness)
        let slow = stalled.interaction(for: stalled.surface())
        shrinkBuffers(stalled)
        harness.server.perform(.askShouldBegin(.test(1)))
        harness.display.dispatch()  // sent; the client will not read it for a while
        clock.advance(milliseconds: 150)
        for id in 2...5_001 as ClosedRange<UInt32> {
            harness.server.perform(.askShouldBegin(.test(id)))
            harness.display.dispatch()  // the decline on its behalf, from an idle callback
            harness.server.perform(.phase(.cancelled(.declined), .test(id)))
        }
        #expect(harness.inputs.count == 5_000, "every press declined on the stalled client's behalf")
        #expect(stalled.roundtrip(), "still connected")
        #expect(slow.phaseEvents == [.shouldBegin(1, source: 3, force: 1), .location(1, x: 10, y: 20)])
    }

    /// The control for the test above: the same load sent without flow control does
    /// overflow and disconnect the client, so that test can fail.
    @Test func withoutFlowControlTheSameLoadDisconnectsTheClient() throws {
        let harness = try ProtocolHarness()
        let stalled = try PreviewClient(harness)
        let slow = stalled.interaction(for: stalled.surface())
        shrinkBuffers(stalled)
        let resource = try #require(
            wl_client_get_object(stalled.connection.serverClient.raw, wl_proxy_get_id(slow.proxy)))
        for step in 1...20_000 {
            spi_preview_interaction_v1_send_preview(resource, 1, wl_fixed_from_double(Double(step % 997) / 997))
            harness.display.dispatch()
        }
        // libwayland 1.21 marks the client dead when its buffer overflows and drops it at
        // its next request: the connection is lost.
        #expect(!stalled.roundtrip())
        #expect(harness.server.liveInteractionObjects == 0)
    }

    private func shrinkBuffers(_ client: PreviewClient) {
        var size: Int32 = 1  // the kernel rounds up to its minimum
        let length = socklen_t(MemoryLayout<Int32>.size)
        setsockopt(wl_client_get_fd(client.connection.serverClient.raw), SOL_SOCKET, SO_SNDBUF, &size, length)
        setsockopt(wl_display_get_fd(client.connection.display), SOL_SOCKET, SO_RCVBUF, &size, length)
    }
}

@Suite struct WireValueTests {
    // The keyboard is version 2's source: a version 1 object cannot even ask for it.
    @Test(arguments: InputSource.allCases.filter { $0 != .keyboard })
    func everySourceIsSentAsItsWireValue(source: InputSource) throws {
        let harness = try ProtocolHarness()
        let client = try PreviewClient(harness)
        let surface = client.surface()
        let interaction = client.interaction(for: surface)
        // Only this source may begin interactions: its bit in the sources bitfield is the one.
        interaction.setSources(1 << (UInt32(source.rawValue) - 1))
        wl_surface_commit(surface)
        client.roundtrip()
        harness.server.perform(.askShouldBegin(.test(1, source: source)))
        client.roundtrip()
        #expect(interaction.events.first == .shouldBegin(1, source: UInt32(source.rawValue), force: 1))
    }

    @Test func answersToLongForgottenInteractionsAreIgnored() throws {
        let harness = try ProtocolHarness()
        let client = try PreviewClient(harness)
        let interaction = client.interaction(for: client.surface())
        for id in 1...100 as ClosedRange<UInt32> {
            harness.server.perform(.askShouldBegin(.test(id)))
            harness.server.perform(.phase(.cancelled(.timeout), .test(id)))
        }
        client.roundtrip()
        interaction.accept(1)  // far beyond what the server remembers: ignored
        interaction.accept(100)  // remembered, first answer: fine (already ended: ignored)
        #expect(client.roundtrip())
        interaction.accept(100)
        #expect(!client.roundtrip())
        #expect(client.connection.protocolError?.code == SPI_PREVIEW_INTERACTION_V1_ERROR_ALREADY_ANSWERED.rawValue)
    }
}
