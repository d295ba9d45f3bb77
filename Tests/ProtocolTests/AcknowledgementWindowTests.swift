import CWaylandClient
import CWaylandServer
import Glibc
import PreviewEngine
import PreviewProtocolServer
import Testing
import WaylandServer
import _PreviewProtocolTestSupport

/// Version 3's acknowledgement window (ack_frame in the XML): progress keeps flowing while
/// fewer than 16 frames are unacknowledged; a client owes promptly only frames that change a
/// phase (or a full window). Versions 1 and 2 keep one unacknowledged frame.
@Suite struct AcknowledgementWindowTests {
    static let window = Int(PreviewInteractionServer.acknowledgementWindow)

    /// A version 3 client that acknowledges only when told, asked about interaction 1, which
    /// it accepts and acknowledges.
    static func accepted(_ harness: ProtocolHarness, version: UInt32 = 3) throws -> (PreviewClient, ClientInteraction) {
        let (client, interaction) = try FlowControlTests.acceptedWithItsAck(harness, version: version)
        interaction.clear()
        return (client, interaction)
    }

    static func previews(_ interaction: ClientInteraction) -> [Event] {
        interaction.phaseEvents.filter { if case .preview = $0 { true } else { false } }
    }

    @Test func progressFlowsUntilTheWindowIsFullThenTheLatestWaitsForAnAck() throws {
        let harness = try ProtocolHarness()
        let (client, interaction) = try Self.accepted(harness)
        // Serial 1 was acknowledged: 16 more frames may go out unacknowledged, then they wait.
        for step in 1...(Self.window + 5) {
            harness.server.perform(.phase(.previewProgress, .test(1, progress: Double(step) / 64)))
        }
        client.roundtrip()
        #expect(Self.previews(interaction).count == Self.window, "\(interaction.phaseEvents)")
        #expect(harness.server.flowStatistics.sentAtOnce == Self.window)
        // One ack of the last frame read opens the window: the latest held value goes out.
        interaction.clear()
        interaction.ack(UInt32(1 + Self.window))
        client.roundtrip()
        #expect(Self.previews(interaction) == [.preview(1, wl_fixed_to_double(wl_fixed_from_double(21.0 / 64)))])
        #expect(harness.server.flowStatistics.held == 1 && harness.server.flowStatistics.superseded == 4)
    }

    @Test func versionTwoStillHoldsBehindOneUnacknowledgedFrame() throws {
        let harness = try ProtocolHarness()
        let (client, interaction) = try Self.accepted(harness, version: 2)
        for step in 1...5 {
            harness.server.perform(.phase(.previewProgress, .test(1, progress: Double(step) / 64)))
        }
        client.roundtrip()
        #expect(Self.previews(interaction).count == 1, "\(interaction.phaseEvents)")
    }

    /// Progress frames left unacknowledged are not owed: the replay does not wait for them, and
    /// a client that leaves them is still asked about new presses after the should_begin wait.
    @Test func unacknowledgedProgressIsNotOwedButAPhaseFrameIs() throws {
        let clock = ManualClock()
        let harness = try ProtocolHarness(clock: clock)
        let (client, interaction) = try Self.accepted(harness)
        #expect(!harness.server.awaitsAcknowledgement)
        for step in 1...3 {
            harness.server.perform(.phase(.previewProgress, .test(1, progress: Double(step) / 8)))
        }
        client.roundtrip()
        #expect(!harness.server.awaitsAcknowledgement, "three progress frames may wait")
        clock.advance(milliseconds: 500)
        harness.server.perform(.askShouldBegin(.test(2)))
        client.roundtrip()
        #expect(interaction.phaseEvents.contains(.shouldBegin(2, source: 3, force: 1)), "\(interaction.phaseEvents)")
        #expect(harness.server.awaitsAcknowledgement, "should_begin's frame is owed")
        // Owed for the should_begin wait: the next press is declined on the client's behalf.
        clock.advance(milliseconds: 150)
        harness.server.perform(.askShouldBegin(.test(3)))
        harness.display.dispatch()
        guard case .answered(InteractionID(3), accept: false, _) = harness.inputs.last else {
            Issue.record("the engine must hear a decline: \(harness.inputs)")
            return
        }
        // Acknowledging the last frame read settles everything before it.
        guard case .frame(_, let serial, _) = interaction.events.last else {
            Issue.record("no frame: \(interaction.events)")
            return
        }
        interaction.ack(serial)
        client.roundtrip()
        #expect(!harness.server.awaitsAcknowledgement)
    }

    @Test func aFullWindowIsOwed() throws {
        let harness = try ProtocolHarness()
        let (client, _) = try Self.accepted(harness)
        for step in 1...(Self.window - 1) {
            harness.server.perform(.phase(.previewProgress, .test(1, progress: Double(step) / 64)))
        }
        client.roundtrip()
        #expect(!harness.server.awaitsAcknowledgement)
        harness.server.perform(.phase(.previewProgress, .test(1, progress: 0.5)))
        #expect(harness.server.awaitsAcknowledgement, "16 unacknowledged frames")
    }

    /// The window's bound, with socket buffers at their minimum: a version 3 client that stops
    /// reading is neither blocked on nor disconnected, and gets the latest value on resuming.
    @Test func aStalledVersionThreeClientIsNotDisconnected() throws {
        let harness = try ProtocolHarness()
        let (client, interaction) = try Self.accepted(harness)
        var size: Int32 = 1  // the kernel rounds up to its minimum
        let length = socklen_t(MemoryLayout<Int32>.size)
        setsockopt(wl_client_get_fd(client.connection.serverClient.raw), SOL_SOCKET, SO_SNDBUF, &size, length)
        setsockopt(wl_display_get_fd(client.connection.display), SOL_SOCKET, SO_RCVBUF, &size, length)
        var disconnected = false
        let watch = Listener { _ in disconnected = true }
        watch.listen(toDestroyOf: client.connection.serverClient)
        for step in 1...20_000 {
            harness.server.perform(
                .phase(
                    .previewProgress,
                    .test(1, progress: Double(step % 997) / 997, at: Point(x: Double(step % 300), y: 7))))
            harness.display.dispatch()
        }
        harness.server.perform(.phase(.previewProgress, .test(1, progress: 0.75, at: Point(x: 42, y: 43))))
        harness.display.dispatch()
        #expect(!disconnected)
        #expect(client.roundtrip())
        guard case .frame(_, let serial, _) = interaction.events.last else {
            Issue.record("no frame: \(interaction.events)")
            return
        }
        #expect(Self.previews(interaction).count == Self.window, "\(Self.previews(interaction).count) previews")
        interaction.clear()
        interaction.ack(serial)
        #expect(client.roundtrip())
        #expect(Self.previews(interaction) == [.preview(1, 0.75)])
        withExtendedLifetime(watch) {}
    }
}
