import EvdevDecoder
import PreviewEngine

/// The keyboard as a source (protocol version 2): the user's preview keys (`PreviewKeyBinding`,
/// by default Menu, and F10 with Shift) pressed on the surface with keyboard focus, and Escape.
/// What the XML asks of the compositor: the preview key's press is withheld from wl_keyboard
/// while it may begin an interaction; a tap (released before should_begin) is then delivered,
/// press and release, with their times; a key that began an interaction is never delivered.
/// Escape that dismissed an interaction is withheld too, its release with it. A seat has one
/// preview key at a time: while one is withheld, the others are ordinary keys. Pure
/// bookkeeping: the driver decides, the host reads the key's symbols and modifiers from xkb.
struct PreviewKeys {
    static let escape: UInt16 = 1

    /// The user's choice; a change applies to the next press (a key withheld stays withheld).
    var bindings: [PreviewKeyBinding]

    /// Withheld presses, with their times.
    private var withheld: [UInt16: Timestamp] = [:]
    /// Keys whose release is not delivered (their press was not).
    private var swallowed: Set<UInt16> = []

    init(bindings: [PreviewKeyBinding] = PreviewKeyBinding.defaults) {
        self.bindings = bindings
    }

    enum Verdict {
        /// Deliver the key as it is.
        case deliver
        /// Deliver nothing now.
        case withhold
        /// Deliver the withheld press (at its time) and then this release.
        case deliverTap(pressedAt: Timestamp)
    }

    func isPreviewKey(_ symbols: KeySymbols, held: PreviewKeyBinding.Modifiers) -> Bool {
        bindings.contains { $0.matches(symbols, held: held) }
    }

    /// `begin`: asks the driver to begin an interaction for a preview key's press (true: withhold
    /// it); `end`: its release (true: it was a tap); `escape`: true when Escape dismissed one.
    /// `symbols` and `held` describe the key and the modifiers down before it (presses only).
    mutating func handle(
        _ key: KeyState, symbols: KeySymbols, held: PreviewKeyBinding.Modifiers, begin: () -> Bool,
        end: () -> Bool, escape: () -> Bool
    ) -> Verdict {
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
        if withheld.isEmpty, isPreviewKey(symbols, held: held), begin() {
            withheld[key.code] = key.time
            return .withhold
        }
        return .deliver
    }
}
