import EvdevDecoder
import PreviewEngine

/// The keyboard as a source (protocol version 2): the preview keys (Menu, and F10 with Shift)
/// pressed on the surface with keyboard focus, and Escape. What the XML asks of the compositor:
/// the preview key's press is withheld from wl_keyboard while it may begin an interaction; a
/// tap (released before should_begin) is then delivered, press and release, with their times;
/// a key that began an interaction is never delivered. Escape that dismissed an interaction is
/// withheld too, its release with it. Pure bookkeeping: the driver decides.
struct PreviewKeys {
    static let menu: UInt16 = 127  // KEY_COMPOSE: the Menu (context-menu) key
    static let f10: UInt16 = 68
    static let escape: UInt16 = 1
    static let shifts: Set<UInt16> = [42, 54]  // KEY_LEFTSHIFT, KEY_RIGHTSHIFT

    /// Withheld presses, with their times.
    private var withheld: [UInt16: Timestamp] = [:]
    /// Keys whose release is not delivered (their press was not).
    private var swallowed: Set<UInt16> = []
    private var shiftsDown: Set<UInt16> = []

    enum Verdict {
        /// Deliver the key as it is.
        case deliver
        /// Deliver nothing now.
        case withhold
        /// Deliver the withheld press (at its time) and then this release.
        case deliverTap(pressedAt: Timestamp)
    }

    func isPreviewKey(_ code: UInt16) -> Bool {
        code == Self.menu || (code == Self.f10 && !shiftsDown.isEmpty)
    }

    /// `begin`: asks the driver to begin an interaction for a preview key's press (true: withhold
    /// it); `end`: its release (true: it was a tap); `escape`: true when Escape dismissed one.
    mutating func handle(
        _ key: KeyState, begin: () -> Bool, end: () -> Bool, escape: () -> Bool
    ) -> Verdict {
        if Self.shifts.contains(key.code) {
            if key.pressed { shiftsDown.insert(key.code) } else { shiftsDown.remove(key.code) }
            return .deliver
        }
        if !key.pressed {
            if let pressedAt = withheld.removeValue(forKey: key.code) {
                return end() ? .deliverTap(pressedAt: pressedAt) : .withhold
            }
            return swallowed.remove(key.code) != nil ? .withhold : .deliver
        }
        if key.code == Self.escape, escape() {
            swallowed.insert(key.code)
            return .withhold
        }
        if withheld[key.code] == nil, isPreviewKey(key.code), begin() {
            withheld[key.code] = key.time
            return .withhold
        }
        return .deliver
    }
}
