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
        let verdict = driver.key(
            key, seat: seat, device: device, focus: surface.map { KeyboardFocus(surface: $0, size: size) })
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
