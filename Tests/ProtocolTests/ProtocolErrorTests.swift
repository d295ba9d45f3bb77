import CWaylandClient
import PreviewEngine
import PreviewProtocolServer
import Testing
import WaylandServer
import _PreviewProtocolTestSupport

/// Each misuse gets its documented error; only the offending client is disconnected.
@Suite struct ProtocolErrorTests {
    /// Runs `misuse` on a fresh client next to a bystander with a running interaction,
    /// and checks the error and that the bystander is unaffected.
    func expectError(
        _ interface: String, _ code: UInt32, sourceLocation: SourceLocation = #_sourceLocation,
        _ misuse: (PreviewClient, ClientInteraction, ProtocolHarness) -> Void
    ) throws {
        let harness = try ProtocolHarness()
        let bystander = try PreviewClient(harness)
        let calm = bystander.interaction(for: bystander.surface())  // surface 1
        let offender = try PreviewClient(harness)
        let interaction = offender.interaction(for: offender.surface())  // surface 2
        harness.server.perform(.askShouldBegin(.test(1, surface: 1)))
        harness.server.perform(.askShouldBegin(.test(2, surface: 2)))
        bystander.roundtrip()
        offender.roundtrip()

        misuse(offender, interaction, harness)
        #expect(!offender.roundtrip(), "the offender is disconnected", sourceLocation: sourceLocation)
        let error = offender.connection.protocolError
        #expect(error?.interface == interface, sourceLocation: sourceLocation)
        #expect(error?.code == code, sourceLocation: sourceLocation)

        // The engine learns that the offender's interaction is over (its surface or its
        // interaction object went first), and the offender's objects are gone.
        #expect(
            harness.inputs.contains {
                switch $0 {
                case .cancelled(InteractionID(2), _), .surfaceDestroyed(SurfaceID(2), _): true
                default: false
                }
            }, "\(harness.inputs)", sourceLocation: sourceLocation)
        #expect(harness.compositor.liveSurfaces == 1, sourceLocation: sourceLocation)
        // The bystander's interaction goes on.
        #expect(harness.server.liveInteractionObjects == 1, sourceLocation: sourceLocation)
        calm.accept(1)
        harness.server.perform(.phase(.previewProgress, .test(1, surface: 1, progress: 0.5)))
        #expect(bystander.roundtrip(), sourceLocation: sourceLocation)
        #expect(calm.phaseEvents.last == .preview(1, 0.5), sourceLocation: sourceLocation)
    }

    @Test func aSecondInteractionObjectForTheSameSurface() throws {
        try expectError(
            "spi_preview_interaction_manager_v1",
            SPI_PREVIEW_INTERACTION_MANAGER_V1_ERROR_INTERACTION_EXISTS.rawValue
        ) { client, _, _ in
            // The object is surface 2's; ask for another one.
            let surface = client.surface()
            _ = client.interaction(for: surface, sync: false)
            _ = client.interaction(for: surface, sync: false)
        }
    }

    @Test func anAnswerToAnInteractionNeverAsked() throws {
        try expectError("spi_preview_interaction_v1", SPI_PREVIEW_INTERACTION_V1_ERROR_INVALID_INTERACTION.rawValue) {
            _, interaction, _ in interaction.accept(2)
        }
        try expectError("spi_preview_interaction_v1", SPI_PREVIEW_INTERACTION_V1_ERROR_INVALID_INTERACTION.rawValue) {
            _, interaction, _ in interaction.decline(0)
        }
        try expectError("spi_preview_interaction_v1", SPI_PREVIEW_INTERACTION_V1_ERROR_INVALID_INTERACTION.rawValue) {
            _, interaction, _ in interaction.cancel(99)
        }
    }

    @Test func anAnswerGivenTwice() throws {
        try expectError("spi_preview_interaction_v1", SPI_PREVIEW_INTERACTION_V1_ERROR_ALREADY_ANSWERED.rawValue) {
            _, interaction, _ in
            interaction.accept(1)
            interaction.decline(1)
        }
    }

    @Test func aBadSourcesBitfield() throws {
        try expectError("spi_preview_interaction_v1", SPI_PREVIEW_INTERACTION_V1_ERROR_INVALID_SOURCES.rawValue) {
            _, interaction, _ in interaction.setSources(0x10)
        }
    }

    @Test func anAckForAFrameNeverSent() throws {
        try expectError("spi_preview_interaction_v1", SPI_PREVIEW_INTERACTION_V1_ERROR_INVALID_FRAME.rawValue) {
            _, interaction, _ in interaction.ack(1_000)
        }
    }

    @Test func aRequestOnAnInertObject() throws {
        try expectError("spi_preview_interaction_v1", SPI_PREVIEW_INTERACTION_V1_ERROR_INERT.rawValue) {
            client, interaction, _ in
            // Surface 2 is the one the offender made; destroy it under its interaction object.
            let surface = client.surface()
            let second = client.interaction(for: surface)
            wl_surface_destroy(surface)
            client.roundtrip()
            second.setSources(1)
            _ = interaction
        }
    }

    @Test func validRequestsRaiseNoError() throws {
        let harness = try ProtocolHarness()
        let client = try PreviewClient(harness)
        let interaction = client.interaction(for: client.surface())
        interaction.setSources(0)
        interaction.setSources(0xF)
        interaction.setRegion(nil)
        harness.server.perform(.askShouldBegin(.test(1)))
        client.roundtrip()
        interaction.ack(1)  // already acknowledged automatically: harmless
        #expect(client.roundtrip())
        #expect(client.connection.protocolError == nil)
    }
}
