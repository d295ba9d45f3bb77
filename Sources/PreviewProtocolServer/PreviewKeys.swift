import InputEvents
import PreviewEngine

/// Modifier keys held with a key (the host's view: xkbcommon's effective state, or the keys
/// themselves when the host has none).
public struct KeyModifiers: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let shift = KeyModifiers(rawValue: 1 << 0)
    public static let control = KeyModifiers(rawValue: 1 << 1)
    public static let alt = KeyModifiers(rawValue: 1 << 2)
    public static let logo = KeyModifiers(rawValue: 1 << 3)
}

/// One preview key the user chose: an evdev key code and/or an xkb keysym (0: not matched on),
/// with exactly the modifiers that must be held, as compositors match key bindings (Ctrl+Shift+F10
/// is an app's shortcut, not Shift+F10). A letter's keysym matches either case.
public struct PreviewKeyBinding: Hashable, Sendable {
    public var keycode: UInt32
    public var keysym: UInt32
    public var modifiers: KeyModifiers

    public init(keycode: UInt32 = 0, keysym: UInt32 = 0, modifiers: KeyModifiers = []) {
        self.keycode = keycode
        self.keysym = keysym
        self.modifiers = modifiers
    }

    /// The Menu (context-menu) key: KEY_COMPOSE, XKB_KEY_Menu.
    public static let menu = PreviewKeyBinding(keycode: UInt32(EventCode.keyCompose), keysym: 0xff67)
    /// Shift+F10: KEY_F10, XKB_KEY_F10.
    public static let shiftF10 = PreviewKeyBinding(keycode: UInt32(EventCode.keyF10), keysym: 0xffc7, modifiers: .shift)
    /// The context-menu keys GTK and Qt use.
    public static let defaults: [PreviewKeyBinding] = [.menu, .shiftF10]

    /// Whether a key (code and/or keysyms, 0 when unknown) with `held` modifiers is this one.
    /// `baseKeysym`: the key's keysym at its first level (`a` for a key that gives `A` with
    /// Shift), when the host knows it.
    public func matches(code: UInt32, keysym: UInt32, baseKeysym: UInt32 = 0, held: KeyModifiers) -> Bool {
        let mine = Self.folded(self.keysym)
        let same =
            (keycode != 0 && keycode == code)
            || (mine != 0 && (mine == Self.folded(keysym) || mine == Self.folded(baseKeysym)))
        return same && held == modifiers
    }

    /// Latin letters' keysyms in lower case (keysyms 0x41–0xde are Latin-1's code points); hosts
    /// with xkb may pass other scripts' keysyms already in lower case.
    static func folded(_ keysym: UInt32) -> UInt32 {
        switch keysym {
        case 0x41...0x5a, 0xc0...0xd6, 0xd8...0xde: keysym + 0x20
        default: keysym
        }
    }
}

/// The keyboard as a source (protocol version 2), one per seat, shared by every host: the
/// user's preview keys pressed on the surface with keyboard focus, and Escape. What the XML
/// asks of the compositor: the preview key's press is withheld from wl_keyboard while it may
/// begin an interaction; a tap (released before should_begin) is then delivered, press and
/// release, with their times; a key that began an interaction is never delivered; one preview
/// key at a time (while one is withheld, the others are ordinary keys). Escape that dismissed
/// an interaction is withheld too, its release with it. Pure bookkeeping: the driver decides.
public struct PreviewKeys {
    static let escapeCode = UInt32(EventCode.keyEscape)
    static let escapeKeysym: UInt32 = 0xff1b  // XKB_KEY_Escape
    /// Modifier key codes (left and right of each), for hosts that pass no modifier state.
    static let modifierCodes: [UInt32: KeyModifiers] = [
        UInt32(EventCode.keyLeftShift): .shift, UInt32(EventCode.keyRightShift): .shift,
        UInt32(EventCode.keyLeftControl): .control, UInt32(EventCode.keyRightControl): .control,
        UInt32(EventCode.keyLeftAlt): .alt, UInt32(EventCode.keyRightAlt): .alt,
        UInt32(EventCode.keyLeftMeta): .logo, UInt32(EventCode.keyRightMeta): .logo,
    ]

    /// The user's choice.
    public var bindings: [PreviewKeyBinding]
    /// Withheld presses, with their times.
    private var withheld: [UInt32: Timestamp] = [:]
    /// Keys whose release is not delivered (their press was not).
    private var swallowed: Set<UInt32> = []
    /// Modifier keys down, by code (`Key.modifiers` nil: the modifiers come from these).
    private var modifiersDown: [UInt32: KeyModifiers] = [:]

    public init(bindings: [PreviewKeyBinding] = PreviewKeyBinding.defaults) { self.bindings = bindings }

    /// One key event. `code`: evdev (0 if unknown); `keysym`: xkb (0 if unknown); `modifiers`
    /// nil: tracked from the modifier keys' own events.
    public struct Key: Hashable, Sendable {
        public var code: UInt32
        public var keysym: UInt32
        /// The keysym at the key's first level (0 if unknown).
        public var baseKeysym: UInt32
        public var modifiers: KeyModifiers?
        public var pressed: Bool
        public var time: Timestamp

        public init(
            code: UInt32, keysym: UInt32 = 0, baseKeysym: UInt32 = 0, modifiers: KeyModifiers? = nil, pressed: Bool,
            time: Timestamp
        ) {
            self.code = code
            self.keysym = keysym
            self.baseKeysym = baseKeysym
            self.modifiers = modifiers
            self.pressed = pressed
            self.time = time
        }

        /// The key's identity for the engine's contact: its code, or its keysym when the host
        /// gave no code (evdev codes stay below 0x300, keysyms below 0x2000000).
        public var identity: UInt32 { code != 0 ? code : 0x8000_0000 | keysym }
    }

    public enum Verdict: Hashable, Sendable {
        /// Deliver the key as it is.
        case deliver
        /// Deliver nothing now.
        case withhold
        /// Deliver the withheld press (at its time) and then this release.
        case deliverTap(pressedAt: Timestamp)
    }

    /// Whether `key` is Escape: its code, or its keysym where the host gave no code.
    public static func isEscape(_ key: Key) -> Bool {
        key.code == escapeCode || (key.code == 0 && key.keysym == escapeKeysym)
    }

    /// Whether `key` (a press) is one of the user's preview keys.
    public func isPreviewKey(_ key: Key) -> Bool {
        let held = key.modifiers ?? modifiersDown.values.reduce(into: KeyModifiers()) { $0.formUnion($1) }
        return bindings.contains {
            $0.matches(code: key.code, keysym: key.keysym, baseKeysym: key.baseKeysym, held: held)
        }
    }

    /// `begin`: asks the driver to begin an interaction for a preview key's press (true: withhold
    /// it); `end`: its release (true: it was a tap); `escape`: true when Escape dismissed one.
    public mutating func handle(
        _ key: Key, begin: () -> Bool, end: () -> Bool, escape: () -> Bool
    ) -> Verdict {
        let id = key.identity
        if let modifier = Self.modifierCodes[key.code] {
            modifiersDown[key.code] = key.pressed ? modifier : nil
            return .deliver
        }
        if !key.pressed {
            if let pressedAt = withheld.removeValue(forKey: id) {
                return end() ? .deliverTap(pressedAt: pressedAt) : .withhold
            }
            return swallowed.remove(id) != nil ? .withhold : .deliver
        }
        if Self.isEscape(key), escape() {
            swallowed.insert(id)
            return .withhold
        }
        if withheld.isEmpty, isPreviewKey(key), begin() {
            withheld[id] = key.time
            return .withhold
        }
        return .deliver
    }

    /// Keyboard focus left the surface: a press still withheld is dropped (never delivered,
    /// its release neither). Returns the keys whose interactions the host ends (`system`).
    public mutating func focusLost() -> [UInt32] {
        let keys = Array(withheld.keys)
        for key in keys { swallowed.insert(key) }
        withheld.removeAll()
        return keys
    }
}
