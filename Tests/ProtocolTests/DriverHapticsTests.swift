import CWaylandClient
import PreviewEngine
import PreviewProtocolServer
import Testing
import _PreviewProtocolTestSupport

/// Version 2's play_haptic and haptics event through the shared driver: effects reach the
/// host for the device driving a running interaction, and nowhere else.
@Suite struct DriverHapticsTests {
    static let point = Point(x: 30, y: 40)

    /// Presses to mid-preview with a version 2 client that accepts; returns the interaction.
    func pressIntoPreview(_ host: DriverHost) throws -> (PreviewClient, ClientInteraction) {
        let client = try PreviewClient(display: host.display, version: 2)
        let interaction = client.interaction(for: client.surface())
        var answered = false
        for step in 0...20 {
            host.press(Double(step) / 70, at: Self.point, began: step == 0)
            client.roundtrip()
            if !answered, interaction.events.contains(where: { if case .shouldBegin = $0 { true } else { false } }) {
                answered = true
                interaction.accept(1)
            }
        }
        return (client, interaction)
    }

    @Test func aRunningInteractionsEffectsReachItsDevice() throws {
        let host = try DriverHost(haptics: .medium)
        host.hapticDevices = [DriverHost.pen.device]
        let (client, interaction) = try pressIntoPreview(host)
        #expect(interaction.events.contains(.haptics(1, available: true)))
        #expect(interaction.events.contains { if case .preview = $0 { true } else { false } }, "\(interaction.events)")
        interaction.playHaptic(1, effect: SPI_PREVIEW_INTERACTION_V1_HAPTIC_EFFECT_TICK.rawValue)
        interaction.playHaptic(1, effect: SPI_PREVIEW_INTERACTION_V1_HAPTIC_EFFECT_CONFIRM.rawValue)
        client.roundtrip()
        #expect(host.played == [.tick, .confirm])

        host.lift()
        client.roundtrip()
        interaction.playHaptic(1, effect: SPI_PREVIEW_INTERACTION_V1_HAPTIC_EFFECT_SNAP.rawValue)
        #expect(client.roundtrip(), "after the end: dropped, no error")
        #expect(host.played == [.tick, .confirm])
    }

    @Test func turningHapticsOffAndOnIsToldToTheRunningInteraction() throws {
        let host = try DriverHost(haptics: .medium)
        host.hapticDevices = [DriverHost.pen.device]
        let (client, interaction) = try pressIntoPreview(host)
        interaction.clear()
        let configuration = host.driver.configuration
        host.driver.configure(configuration, haptics: .off)
        client.roundtrip()
        interaction.playHaptic(1, effect: SPI_PREVIEW_INTERACTION_V1_HAPTIC_EFFECT_TICK.rawValue)
        client.roundtrip()
        host.driver.configure(configuration, haptics: .strong)
        host.driver.configure(configuration, haptics: .light)
        client.roundtrip()
        #expect(interaction.phaseEvents == [.haptics(1, available: false), .haptics(1, available: true)])
        #expect(host.played.isEmpty, "off when asked")
    }

    @Test(arguments: [HapticIntensity.off, .medium])
    func withoutAPadOrWithHapticsOffNothingPlays(_ haptics: HapticIntensity) throws {
        let host = try DriverHost(haptics: haptics)
        if haptics == .off { host.hapticDevices = [DriverHost.pen.device] }
        let (client, interaction) = try pressIntoPreview(host)
        #expect(interaction.events.contains(.haptics(1, available: false)))
        interaction.playHaptic(1, effect: SPI_PREVIEW_INTERACTION_V1_HAPTIC_EFFECT_TICK.rawValue)
        #expect(client.roundtrip())
        #expect(host.played.isEmpty)
    }

    @Test func anUnknownEffectIsAProtocolError() throws {
        let host = try DriverHost(haptics: .medium)
        let (client, interaction) = try pressIntoPreview(host)
        interaction.playHaptic(1, effect: 4)
        #expect(!client.roundtrip())
        #expect(client.connection.protocolError?.code == SPI_PREVIEW_INTERACTION_V1_ERROR_INVALID_EFFECT.rawValue)
    }
}
