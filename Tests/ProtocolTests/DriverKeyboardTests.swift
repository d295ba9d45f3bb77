import CWaylandClient
import PreviewEngine
import PreviewProtocolServer
import Testing
import _PreviewProtocolTestSupport

/// Version 2's keyboard through the shared driver: the preview key held on the focused surface
/// runs a simulated long press at the client's focus point; a tap is the host's to deliver;
/// Escape dismisses.
@Suite struct DriverKeyboardTests {
    static let everySource: UInt32 = 0x1f

    func client(of host: DriverHost, sources: UInt32 = everySource, focus: Point? = Point(x: 40, y: 30)) throws
        -> (PreviewClient, ClientInteraction)
    {
        let client = try PreviewClient(display: host.display, version: 2)
        let surface = client.surface()
        let interaction = client.interaction(for: surface)
        interaction.setSources(sources)
        if let focus {
            spi_preview_interaction_v1_set_focus_point(interaction.proxy, focus.x.wireFixed, focus.y.wireFixed)
        }
        wl_surface_commit(surface)
        client.roundtrip()
        return (client, interaction)
    }

    /// Steps the clock 16 ms at a time for `milliseconds`, accepting every should_begin.
    func hold(_ host: DriverHost, _ client: PreviewClient, _ interaction: ClientInteraction, milliseconds: Int) {
        var answered: Set<UInt32> = []
        for _ in 0..<(milliseconds / 16) {
            host.clock.advance(milliseconds: 16)
            host.driver.runDueTimers()
            client.roundtrip()
            for case .shouldBegin(let id, _, _) in interaction.events where !answered.contains(id) {
                answered.insert(id)
                interaction.accept(id)
            }
        }
    }

    func phases(_ interaction: ClientInteraction) -> [Event] {
        interaction.phaseEvents.filter {
            switch $0 {
            case .preview, .commit, .behaviour: false
            default: true
            }
        }
    }

    @Test func holdingTheKeyCompletesAtTheFocusPointWithSourceKeyboard() throws {
        let host = try DriverHost()
        let (client, interaction) = try client(of: host)
        #expect(host.key(pressed: true) == .withhold)
        hold(host, client, interaction, milliseconds: 1_500)
        #expect(
            phases(interaction) == [
                .shouldBegin(1, source: 5, force: 2), .location(1, x: 40, y: 30), .haptics(1, available: false),
                .previewEnded(1), .completed(1),
            ])
        #expect(host.key(pressed: false) == .withhold, "the key belonged to the interaction")
    }

    @Test func releasedEarlyItCancelsAndATapIsTheHostsToDeliver() throws {
        let host = try DriverHost()
        let (client, interaction) = try client(of: host, focus: nil)
        let tapped = host.driver.now()
        #expect(host.key(pressed: true) == .withhold)
        hold(host, client, interaction, milliseconds: 100)
        #expect(
            host.key(pressed: false) == .deliverTap(pressedAt: tapped), "a tap: deliver the withheld key")
        client.roundtrip()
        #expect(interaction.events.isEmpty)

        #expect(host.key(pressed: true) == .withhold)
        hold(host, client, interaction, milliseconds: 600)
        #expect(host.key(pressed: false) == .withhold)
        client.roundtrip()
        #expect(
            phases(interaction).first == .shouldBegin(1, source: 5, force: 2)
                && phases(interaction).contains(.location(1, x: 100, y: 50)),
            "the surface's centre: \(interaction.events)")
        #expect(
            phases(interaction).last == .cancelled(1, reason: SPI_PREVIEW_INTERACTION_V1_CANCEL_REASON_LIFTED.rawValue))
    }

    @Test func escapeDismisses() throws {
        let host = try DriverHost()
        let (client, interaction) = try client(of: host)
        #expect(host.key(pressed: true) == .withhold)
        hold(host, client, interaction, milliseconds: 560)
        #expect(host.key(pressed: true, code: 1) == .withhold)
        client.roundtrip()
        #expect(
            phases(interaction).last
                == .cancelled(1, reason: SPI_PREVIEW_INTERACTION_V1_CANCEL_REASON_DISMISSED.rawValue))
        #expect(host.key(pressed: true, code: 1) == .deliver, "nothing runs: Escape is the client's")
    }

    @Test func withoutTheKeyboardSourceTheKeyIsTheClients() throws {
        let host = try DriverHost()
        let (_, _) = try client(of: host, sources: 0xf)
        #expect(host.key(pressed: true) == .deliver)
        #expect(host.driver.engineContactCount == 0)
    }

    @Test func theKeyboardBitIsAnErrorOnAVersionOneObject() throws {
        let host = try DriverHost()
        let client = try PreviewClient(display: host.display, version: 1)
        client.interaction(for: client.surface()).setSources(Self.everySource)
        #expect(!client.roundtrip())
        #expect(client.connection.protocolError?.code == SPI_PREVIEW_INTERACTION_V1_ERROR_INVALID_SOURCES.rawValue)
    }
}

extension Double {
    var wireFixed: wl_fixed_t { wl_fixed_from_double(self) }
}
