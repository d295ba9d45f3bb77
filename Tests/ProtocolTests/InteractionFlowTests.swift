import CWaylandClient
import PreviewEngine
import PreviewProtocolServer
import Testing
import WaylandServer
import _PreviewProtocolTestSupport

// Every event, and the requests that answer them, with a real libwayland client.
// Surfaces are numbered by the mini compositor from 1 in creation order.

private let touchscreen = UInt32(SPI_PREVIEW_INTERACTION_V1_SOURCE_TOUCHSCREEN.rawValue)
private let measured = UInt32(SPI_PREVIEW_INTERACTION_V1_FORCE_MEASURED.rawValue)

@Suite struct InteractionFlowTests {
    @Test func aCompletedInteractionDeliversEveryPhaseInOrder() throws {
        let harness = try ProtocolHarness()
        let client = try PreviewClient(harness)
        let interaction = client.interaction(for: client.surface())
        client.roundtrip()
        #expect(harness.server.allowsInteraction(on: SurfaceID(1), at: Point(x: 5, y: 5), source: .pen))

        harness.server.perform(.askShouldBegin(.test(7, at: Point(x: 10.5, y: 20.25), time: 5_000_000_123)))
        client.roundtrip()
        #expect(
            interaction.events == [
                .shouldBegin(1, source: touchscreen, force: measured), .location(1, x: 10.5, y: 20.25),
                .frame(1, serial: 1, microseconds: 5_000_000_123),
            ])

        interaction.accept(1)
        client.roundtrip()
        #expect(harness.inputs.count == 1)
        guard case .answered(InteractionID(7), accept: true, _) = harness.inputs.first else {
            Issue.record("expected the answer, got \(harness.inputs)")
            return
        }

        interaction.clear()
        harness.server.perform(.phase(.previewProgress, .test(7, progress: 0.25, at: Point(x: 10.5, y: 20.25))))
        client.roundtrip()
        harness.server.perform(.phase(.previewProgress, .test(7, progress: 0.5, at: Point(x: 12, y: 20.25))))
        client.roundtrip()
        harness.server.perform(.phase(.previewProgress, .test(7, progress: 0.3)))  // force may go down
        client.roundtrip()
        harness.server.perform(.phase(.previewEnded, .test(7, progress: 1)))
        client.roundtrip()
        harness.server.perform(.phase(.commitProgress, .test(7, progress: 0.5)))
        client.roundtrip()
        harness.server.perform(.phase(.completed, .test(7, progress: 1, at: Point(x: 11, y: 21))))
        client.roundtrip()
        #expect(
            interaction.phaseEvents == [
                .preview(1, 0.25), .location(1, x: 12, y: 20.25), .preview(1, 0.5), .location(1, x: 10, y: 20),
                .preview(1, 0.30078125), .previewEnded(1), .commit(1, 0.5), .location(1, x: 11, y: 21),
                .completed(1),
            ])
        #expect(interaction.events.filter(\.isFrame).count == 6, "one frame per hardware event")

        // Nothing about a finished interaction reaches the client any more.
        interaction.clear()
        harness.server.perform(.phase(.commitProgress, .test(7, progress: 0.7)))
        harness.server.perform(.phase(.cancelled(.lifted), .test(7)))
        client.roundtrip()
        #expect(interaction.events.isEmpty)
    }

    @Test func declineIsReportedAndEndsWithCancelledDeclined() throws {
        let harness = try ProtocolHarness()
        harness.react = { input in
            if case .answered(let id, false, _) = input { return [.phase(.cancelled(.declined), .test(id.rawValue))] }
            return []
        }
        let client = try PreviewClient(harness)
        let interaction = client.interaction(for: client.surface())
        harness.server.perform(.askShouldBegin(.test(3, source: .pen, simulated: true)))
        client.roundtrip()
        #expect(
            interaction.events.first
                == .shouldBegin(
                    1, source: SPI_PREVIEW_INTERACTION_V1_SOURCE_PEN.rawValue,
                    force: SPI_PREVIEW_INTERACTION_V1_FORCE_SIMULATED.rawValue))
        interaction.decline(1)
        client.roundtrip()
        #expect(
            interaction.phaseEvents.last
                == .cancelled(1, reason: SPI_PREVIEW_INTERACTION_V1_CANCEL_REASON_DECLINED.rawValue))
        guard case .answered(InteractionID(3), accept: false, _) = harness.inputs.first else {
            Issue.record("expected a decline, got \(harness.inputs)")
            return
        }
    }

    @Test func theCancelRequestReachesTheEngineAndLateRequestsAreHarmless() throws {
        let harness = try ProtocolHarness()
        harness.react = { input in
            if case .cancelled(let id, _) = input { return [.phase(.cancelled(.clientCancelled), .test(id.rawValue))] }
            return []
        }
        let client = try PreviewClient(harness)
        let interaction = client.interaction(for: client.surface())
        harness.server.perform(.askShouldBegin(.test(1)))
        client.roundtrip()
        interaction.accept(1)
        harness.server.perform(.phase(.previewProgress, .test(1, progress: 0.4)))
        client.roundtrip()
        interaction.cancel(1)
        client.roundtrip()
        #expect(
            interaction.phaseEvents.last
                == .cancelled(1, reason: SPI_PREVIEW_INTERACTION_V1_CANCEL_REASON_CLIENT_CANCELLED.rawValue))
        #expect(harness.inputs.filter { if case .cancelled = $0 { true } else { false } }.count == 1)

        // Racing requests for an interaction that already ended: ignored, no error.
        interaction.cancel(1)
        harness.server.perform(.askShouldBegin(.test(2)))
        client.roundtrip()
        harness.server.perform(.phase(.cancelled(.timeout), .test(2)))
        client.roundtrip()
        interaction.accept(2)  // too late: the compositor already timed it out
        #expect(client.roundtrip())
        #expect(client.connection.protocolError == nil)
        #expect(
            interaction.phaseEvents.last
                == .cancelled(2, reason: SPI_PREVIEW_INTERACTION_V1_CANCEL_REASON_TIMEOUT.rawValue))
    }

    // `dismissed` is version 2's: a version 1 object hears `system` (ProtocolVersionTests).
    @Test(arguments: CancelReason.allCases.filter { $0 != .dismissed })
    func everyCancelReasonReachesTheClientAsItsWireValue(reason: CancelReason) throws {
        let harness = try ProtocolHarness()
        let client = try PreviewClient(harness)
        let interaction = client.interaction(for: client.surface())
        harness.server.perform(.askShouldBegin(.test(1)))
        harness.server.perform(.phase(.cancelled(reason), .test(1)))
        client.roundtrip()
        #expect(interaction.phaseEvents.last == .cancelled(1, reason: UInt32(reason.rawValue)))
    }

    @Test func interactionsOnOneSurfaceAreToldApartAndNumberedPerObject() throws {
        let harness = try ProtocolHarness()
        let client = try PreviewClient(harness)
        let interaction = client.interaction(for: client.surface())
        harness.server.perform(.askShouldBegin(.test(40)))
        client.roundtrip()
        harness.server.perform(.askShouldBegin(.test(41, at: Point(x: 1, y: 2))))
        client.roundtrip()
        interaction.accept(2)
        interaction.decline(1)
        client.roundtrip()
        #expect(harness.inputs.count == 2)
        guard case .answered(InteractionID(41), accept: true, _) = harness.inputs.first,
            case .answered(InteractionID(40), accept: false, _) = harness.inputs.last
        else {
            Issue.record("answers mapped to the wrong interactions: \(harness.inputs)")
            return
        }
    }

    @Test func destroyingTheManagerKeepsInteractionObjectsWorking() throws {
        let harness = try ProtocolHarness()
        let client = try PreviewClient(harness)
        let interaction = client.interaction(for: client.surface())
        spi_preview_interaction_manager_v1_destroy(client.manager)
        client.roundtrip()
        #expect(harness.server.liveManagers == 0)
        harness.server.perform(.askShouldBegin(.test(1)))
        client.roundtrip()
        #expect(interaction.events.first == .shouldBegin(1, source: touchscreen, force: measured))
    }
}
