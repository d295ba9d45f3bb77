import PreviewEngine
import PreviewProtocolServer

/// The keyboard as a source: each seat's keys through the preview keys' rules every host
/// shares (`PreviewKeys`), the driver deciding what begins. Keys are contacts of one device
/// id no host device has (`keyboard`): the host's callbacks never see them.
extension EmbeddedContext {
    static let keyboard = DeviceID(0)

    enum KeyVerdict {
        case deliver, consumed
        case deliverTap(pressedAt: Timestamp)
    }

    /// One key of `seat`'s keyboard; `focus` is the wl_surface with keyboard focus (a press
    /// needs it to begin anything) and its size.
    func keyboardKey(
        _ key: PreviewKeys.Key, seat: UInt32, focus: OpaquePointer?, size: Point
    ) throws(Status) -> KeyVerdict {
        var surface: SurfaceID?
        if key.pressed, let focus { surface = try surfaceID(checking: focus) }
        let contact = ContactKey(seat: seat, device: Self.keyboard, contact: Int32(bitPattern: key.identity))
        var rules = keyboards.removeValue(forKey: seat) ?? PreviewKeys(bindings: previewKeyBindings)
        defer { keyboards[seat] = rules }
        let verdict = rules.handle(
            key,
            begin: {
                guard let surface else { return false }
                return driver.keyPressed(contact, surface: surface, surfaceSize: size, at: key.time)
            },
            end: { driver.keyReleased(contact, at: key.time) },
            escape: { driver.escapePressed(seat: seat, at: key.time) })
        switch verdict {
        case .deliver: return .deliver
        case .withhold: return .consumed
        case .deliverTap(let time): return .deliverTap(pressedAt: time)
        }
    }

    /// Keyboard focus left: a withheld preview key ends (`system`), and stays undelivered.
    func keyboardFocusLost(seat: UInt32, at time: Timestamp) {
        guard var rules = keyboards[seat] else { return }
        for identity in rules.focusLost() {
            let contact = ContactKey(seat: seat, device: Self.keyboard, contact: Int32(bitPattern: identity))
            _ = driver.contactEnded(contact, at: time, reason: .system)
        }
        keyboards[seat] = rules
    }

    /// The user's preview keys, for every seat from now on (keys held keep their state).
    func setPreviewKeys(_ bindings: [PreviewKeyBinding]) {
        previewKeyBindings = bindings
        for seat in keyboards.keys { keyboards[seat]?.bindings = bindings }
    }
}
