import CCompositorModule
import CWaylandClient
import CWaylandServer
import CompositorModule
import Foundation
import Testing
import WaylandServer
import _PreviewProtocolTestSupport

/// The C library on a display of this process, as a host runs it (its C entry points, the real
/// CLOCK_MONOTONIC), with the mini compositor's wl_surface and real libwayland clients. Waits
/// are on the display's events, bounded.
final class EmbeddedHost {
    let display: Display
    let compositor: MiniCompositor
    private(set) var context: OpaquePointer?

    /// `callbacks` and `userData` as a host passes them (default: none, the full struct's size).
    init(callbacks: preview_interaction_callbacks? = nil, userData: UnsafeMutableRawPointer? = nil) throws {
        display = try Display()
        compositor = try MiniCompositor(display: display)
        var callbacks = callbacks ?? preview_interaction_callbacks()
        if callbacks.size == 0 { callbacks.size = MemoryLayout<preview_interaction_callbacks>.size }
        var made: OpaquePointer?
        let status = previewInteractionCreate(display.raw, &callbacks, userData, &made)
        guard status == 0, let made else { throw WaylandServerError("preview_interaction_create: \(status)") }
        context = made
    }

    deinit { if let context { _ = previewInteractionDestroy(context) } }

    /// A client's surface as the host knows it: the server's wl_resource.
    func serverResource(of surface: OpaquePointer, for client: PreviewClient) -> OpaquePointer? {
        client.roundtrip()
        return wl_client_get_object(client.connection.serverClient.raw, wl_proxy_get_id(surface))
    }

    /// A version 2 client's surface whose interaction lets the keyboard begin (sources all five)
    /// with its focused item at (20, 30), committed through the host.
    func keyboardSurface(_ client: PreviewClient) throws -> (interaction: ClientInteraction, resource: OpaquePointer) {
        let surface = client.surface()
        let interaction = client.interaction(for: surface)
        interaction.setSources(0x1f)
        spi_preview_interaction_v1_set_focus_point(interaction.proxy, wl_fixed_from_int(20), wl_fixed_from_int(30))
        wl_surface_commit(surface)
        let resource = try #require(serverResource(of: surface, for: client))
        #expect(previewInteractionSurfaceCommit(context, resource) == 0)
        return (interaction, resource)
    }

    /// One key through preview_interaction_keyboard_key; returns the verdict.
    func key(
        _ code: UInt32, keysym: UInt32 = 0, modifiers: UInt32 = 0, pressed: Bool, focus: OpaquePointer?,
        device: OpaquePointer? = nil
    ) -> preview_interaction_key_verdict {
        var key = preview_interaction_key()
        key.size = MemoryLayout<preview_interaction_key>.size
        key.keycode = code
        key.keysym = keysym
        key.modifiers = modifiers
        key.pressed = pressed
        key.time_usec = UInt64(display.clock.microseconds())
        key.focus = focus
        key.focus_width = 100
        key.focus_height = 100
        key.device = device
        var verdict = PREVIEW_INTERACTION_KEY_DELIVER
        let status = previewInteractionKeyboardKey(context, &key, &verdict, nil)
        #expect(status == 0)
        return verdict
    }

    /// Dispatches the display and the client until `done` holds (accepting every should_begin),
    /// at most `seconds`. False if it never did.
    @discardableResult
    func wait(
        for interaction: ClientInteraction, _ client: PreviewClient, seconds: Double = 10,
        until done: ([Event]) -> Bool
    ) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var answered: Set<UInt32> = []
        while Date() < deadline {
            client.roundtrip()
            for case .shouldBegin(let id, _, _) in interaction.events where !answered.contains(id) {
                answered.insert(id)
                interaction.accept(id)
            }
            if done(interaction.events) { return true }
            display.dispatch(timeoutMilliseconds: 20)
        }
        return false
    }
}
