import PreviewEngine
import PreviewProtocolServer

/// The keyboard as a source: each seat's keys go to the host core, which runs the preview keys'
/// rules every host shares (`PreviewKeys`) and decides what begins. Keys are contacts of one
/// device id no host device has (`keyboard`): the host's callbacks never see them.
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
        // Escape dismisses Look Up too (the key still goes where the rules say).
        if key.pressed, key.code == 1 || key.keysym == 0xff1b { lookup?.driver.escapePressed(seat: seat, at: key.time) }
        let verdict = driver.key(
            key, seat: seat, device: Self.keyboard, focus: surface.map { KeyboardFocus(surface: $0, size: size) })
        switch verdict {
        case .deliver: return .deliver
        case .withhold: return .consumed
        case .deliverTap(let time): return .deliverTap(pressedAt: time)
        }
    }

    /// Keyboard focus left: a withheld preview key ends (`system`), and stays undelivered.
    func keyboardFocusLost(seat: UInt32, at time: Timestamp) { driver.keyboardFocusLost(seat: seat, at: time) }

    /// The user's preview keys, for every seat from now on (keys held keep their state).
    func setPreviewKeys(_ bindings: [PreviewKeyBinding]) { driver.previewKeyBindings = bindings }
}
