import CWaylandServer
import PreviewEngine
import PreviewProtocolServer
import WaylandServer

/// The keyboard as a source: each seat's keys go to the host core, which runs the preview keys'
/// rules every host shares (`PreviewKeys`) and decides what begins. Keys are contacts of the
/// host's keyboard device when the key names one (since 1.3), else of one device id no host
/// device has (`keyboard`); take-away and give-back never see them.
extension EmbeddedContext {
    static let keyboard = DeviceID(0)

    enum KeyVerdict {
        case deliver, consumed
        case deliverTap(pressedAt: Timestamp)
    }

    /// One key of `seat`'s keyboard `device` (a host's keyboard device, or `keyboard`); `focus` is
    /// the wl_surface with keyboard focus (a press needs it to begin anything) and its size.
    func keyboardKey(
        _ key: PreviewKeys.Key, seat: UInt32, device: DeviceID, focus: OpaquePointer?, size: Point
    ) throws(Status) -> KeyVerdict {
        var surface: SurfaceID?
        if key.pressed, let focus { surface = try surfaceID(checking: focus) }
        // Escape dismisses Look Up too, and a preview key no client takes looks up at the focused
        // text's caret (the key still goes where the rules say).
        if let lookup { lookupKey(key, seat: seat, focus: surface, size: size, lookup: lookup.driver) }
        let verdict = driver.key(
            key, seat: seat, device: device, focus: surface.map { KeyboardFocus(surface: $0, size: size) })
        switch verdict {
        case .deliver: return .deliver
        case .withhold: return .consumed
        case .deliverTap(let time): return .deliverTap(pressedAt: time)
        }
    }

    private func lookupKey(_ key: PreviewKeys.Key, seat: UInt32, focus: SurfaceID?, size: Point, lookup: LookupDriver) {
        let contact = ContactKey(seat: seat, device: Self.keyboard, contact: Int32(bitPattern: key.identity))
        if !key.pressed {
            lookup.keyReleased(contact, at: key.time)
        } else if key.code == 1 || key.keysym == 0xff1b {
            lookup.escapePressed(seat: seat, at: key.time)
        } else if driver.isPreviewKey(key, seat: seat) {
            var target = LookupPressTarget.elsewhere
            if let focus, let resource = surfaceResource(focus), let client = wl_resource_get_client(resource),
                Client(client) != lookup.processClient
            {
                let declared = driver.declaresKeyboardPreview(on: focus, surfaceSize: size)
                target = .window(focus, Point(x: size.x / 2, y: size.y / 2), declaresPreview: declared)
            }
            lookup.keyPressed(contact, on: target, at: key.time)
        }
    }

    /// Keyboard focus left: a withheld preview key ends (`system`), and stays undelivered.
    func keyboardFocusLost(seat: UInt32, at time: Timestamp) { driver.keyboardFocusLost(seat: seat, at: time) }

    /// The user's preview keys, for every seat from now on (keys held keep their state).
    func setPreviewKeys(_ bindings: [PreviewKeyBinding]) { driver.previewKeyBindings = bindings }
}
