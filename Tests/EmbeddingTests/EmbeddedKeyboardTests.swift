import CCompositorModule
import CompositorModule
import Testing
import _PreviewProtocolTestSupport

/// The keyboard and the user's settings through the C library's entry points, with a real
/// version 2 client: what the host is told to do with each key, and what the client sees.
@Suite struct EmbeddedKeyboardTests {
    static let menu: UInt32 = 127  // KEY_COMPOSE
    static let escape: UInt32 = 1  // KEY_ESC
    static let keyboardSource: UInt32 = 5
    static let simulated: UInt32 = 2

    static func host() throws -> (EmbeddedHost, PreviewClient) {
        let host = try EmbeddedHost()
        #expect(previewInteractionSetLongPress(host.context, PREVIEW_INTERACTION_LONG_PRESS_FAST) == 0)
        return (host, try PreviewClient(display: host.display, version: 2))
    }

    @Test("A held Menu key begins a keyboard interaction at the focus point; released early it cancels, lifted")
    func heldMenuThenEarlyRelease() throws {
        let (host, client) = try Self.host()
        let (interaction, surface) = try host.keyboardSurface(client)
        #expect(host.key(Self.menu, pressed: true, focus: surface) == PREVIEW_INTERACTION_KEY_CONSUMED)
        let began = host.wait(for: interaction, client) { events in
            events.contains { if case .preview = $0 { true } else { false } }
        }
        #expect(began, "\(interaction.phaseEvents)")
        #expect(interaction.phaseEvents.first == .shouldBegin(1, source: Self.keyboardSource, force: Self.simulated))
        #expect(interaction.phaseEvents.contains(.location(1, x: 20, y: 30)), "\(interaction.phaseEvents)")
        // Released before completion: cancelled (lifted), and the key never reaches the client.
        #expect(host.key(Self.menu, pressed: false, focus: surface) == PREVIEW_INTERACTION_KEY_CONSUMED)
        host.wait(for: interaction, client) { $0.contains(.cancelled(1, reason: 1)) }
        #expect(interaction.phaseEvents.last == .cancelled(1, reason: 1), "\(interaction.phaseEvents)")
    }

    @Test("Escape cancels the running interaction (dismissed) and is held back with its release")
    func escapeDismisses() throws {
        let (host, client) = try Self.host()
        let (interaction, surface) = try host.keyboardSurface(client)
        #expect(host.key(0, keysym: 0xff67, pressed: true, focus: surface) == PREVIEW_INTERACTION_KEY_CONSUMED)
        let began = host.wait(for: interaction, client) { events in
            events.contains { if case .preview = $0 { true } else { false } }
        }
        #expect(began, "\(interaction.phaseEvents)")
        #expect(host.key(Self.escape, pressed: true, focus: surface) == PREVIEW_INTERACTION_KEY_CONSUMED)
        client.roundtrip()
        #expect(interaction.phaseEvents.last == .cancelled(1, reason: 10), "\(interaction.phaseEvents)")
        #expect(host.key(Self.escape, pressed: false, focus: surface) == PREVIEW_INTERACTION_KEY_CONSUMED)
        // The preview key that began it stays the interaction's.
        #expect(host.key(0, keysym: 0xff67, pressed: false, focus: surface) == PREVIEW_INTERACTION_KEY_CONSUMED)
        // With nothing running, Escape is the client's.
        #expect(host.key(Self.escape, pressed: true, focus: surface) == PREVIEW_INTERACTION_KEY_DELIVER)
        #expect(host.key(Self.escape, pressed: false, focus: surface) == PREVIEW_INTERACTION_KEY_DELIVER)
    }

    @Test("Ordinary keys, F10 without Shift and a tap of Menu are the client's; the user's own key replaces Menu")
    func ordinaryKeysAndTaps() throws {
        let (host, client) = try Self.host()
        let (interaction, surface) = try host.keyboardSurface(client)
        #expect(host.key(30, pressed: true, focus: surface) == PREVIEW_INTERACTION_KEY_DELIVER)  // KEY_A
        #expect(host.key(30, pressed: false, focus: surface) == PREVIEW_INTERACTION_KEY_DELIVER)
        #expect(host.key(68, pressed: true, focus: surface) == PREVIEW_INTERACTION_KEY_DELIVER)  // F10
        #expect(host.key(68, pressed: false, focus: surface) == PREVIEW_INTERACTION_KEY_DELIVER)
        // A tap (released before the long press): delivered on release, press first.
        #expect(host.key(Self.menu, pressed: true, focus: surface) == PREVIEW_INTERACTION_KEY_CONSUMED)
        #expect(host.key(Self.menu, pressed: false, focus: surface) == PREVIEW_INTERACTION_KEY_DELIVER_TAP)
        // Shift+F10 is a preview key by default (the host's modifier state).
        let shift = UInt32(1)
        #expect(host.key(68, modifiers: shift, pressed: true, focus: surface) == PREVIEW_INTERACTION_KEY_CONSUMED)
        #expect(
            host.key(68, modifiers: shift, pressed: false, focus: surface) == PREVIEW_INTERACTION_KEY_DELIVER_TAP)
        // Without a focused surface nothing can begin.
        #expect(host.key(Self.menu, pressed: true, focus: nil) == PREVIEW_INTERACTION_KEY_DELIVER)
        #expect(host.key(Self.menu, pressed: false, focus: nil) == PREVIEW_INTERACTION_KEY_DELIVER)
        // The user's choice: Ctrl+Return only.
        var binding = preview_interaction_key_binding(keycode: 28, keysym: 0, modifiers: 2)
        #expect(previewInteractionSetPreviewKeys(host.context, &binding, 1) == 0)
        #expect(host.key(Self.menu, pressed: true, focus: surface) == PREVIEW_INTERACTION_KEY_DELIVER)
        #expect(host.key(Self.menu, pressed: false, focus: surface) == PREVIEW_INTERACTION_KEY_DELIVER)
        #expect(host.key(28, modifiers: 2, pressed: true, focus: surface) == PREVIEW_INTERACTION_KEY_CONSUMED)
        #expect(host.key(28, modifiers: 2, pressed: false, focus: surface) == PREVIEW_INTERACTION_KEY_DELIVER_TAP)
        client.roundtrip()
        #expect(interaction.phaseEvents.isEmpty, "taps announce nothing: \(interaction.phaseEvents)")
        // Restored: Menu again.
        #expect(previewInteractionSetPreviewKeys(host.context, nil, 0) == 0)
        #expect(host.key(Self.menu, pressed: true, focus: surface) == PREVIEW_INTERACTION_KEY_CONSUMED)
        #expect(host.key(Self.menu, pressed: false, focus: surface) == PREVIEW_INTERACTION_KEY_DELIVER_TAP)
    }

    @Test("Keyboard focus lost while the key is held: the interaction is cancelled (system), the release held back")
    func focusLost() throws {
        let (host, client) = try Self.host()
        let (interaction, surface) = try host.keyboardSurface(client)
        #expect(host.key(Self.menu, pressed: true, focus: surface) == PREVIEW_INTERACTION_KEY_CONSUMED)
        host.wait(for: interaction, client) { events in
            events.contains { if case .preview = $0 { true } else { false } }
        }
        #expect(previewInteractionKeyboardFocusLost(host.context, 0, UInt64(host.display.clock.microseconds())) == 0)
        client.roundtrip()
        #expect(interaction.phaseEvents.last == .cancelled(1, reason: 9), "\(interaction.phaseEvents)")
        #expect(host.key(Self.menu, pressed: false, focus: nil) == PREVIEW_INTERACTION_KEY_CONSUMED)
    }

    @Test("A settings change through the C API reaches a bound version 2 client at once")
    func settingsReachClients() throws {
        let (host, client) = try Self.host()
        client.roundtrip()
        #expect(
            client.settingsGroups.last == [
                "sensitivity 2", "thresholds 0.12109375 0.55078125 0.87890625", "long_press_duration 350",
                "haptics 0", "completion 1",
            ], "\(client.settingsGroups)")
        #expect(previewInteractionSetCompletion(host.context, PREVIEW_INTERACTION_COMPLETION_ON_RELEASE) == 0)
        client.roundtrip()
        #expect(client.settingsGroups.last?.last == "completion 2", "\(client.settingsGroups)")
        #expect(previewInteractionSetHaptics(host.context, PREVIEW_INTERACTION_HAPTICS_STRONG) == 0)
        #expect(previewInteractionSetSensitivity(host.context, PREVIEW_INTERACTION_SENSITIVITY_FIRM) == 0)
        client.roundtrip()
        #expect(
            client.settingsGroups.last == [
                "sensitivity 3", "thresholds 0.1796875 0.6796875 0.9296875", "long_press_duration 350",
                "haptics 3", "completion 2",
            ], "\(client.settingsGroups)")
        // Values the header does not define are refused, and change nothing.
        let groups = client.settingsGroups.count
        #expect(previewInteractionSetHaptics(host.context, preview_interaction_haptics(rawValue: 7)) == -1)
        #expect(previewInteractionSetCompletion(host.context, preview_interaction_completion(rawValue: 0)) == -1)
        client.roundtrip()
        #expect(client.settingsGroups.count == groups)
    }
}
