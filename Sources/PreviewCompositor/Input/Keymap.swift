import CXkbcommon
import PreviewProtocolServer
import SystemLayer

public struct KeymapError: Error, CustomStringConvertible {
    public var description: String
}

/// The seat's xkb keymap, shared with every client as a sealed read-only memfd
/// (wl_keyboard.keymap, format xkb_v1), and the xkb state that tracks modifiers.
public final class Keymap {
    private let context: OpaquePointer
    private let keymap: OpaquePointer
    private let state: OpaquePointer
    /// Sealed against writes, so one file can go to every client.
    private let file: Descriptor
    public var fd: Int32 { file.rawValue }
    /// Includes the terminating NUL, as clients expect.
    public let size: UInt32

    /// The modifier state wl_keyboard.modifiers carries.
    public struct Modifiers: Hashable, Sendable {
        public var depressed: UInt32 = 0
        public var latched: UInt32 = 0
        public var locked: UInt32 = 0
        public var group: UInt32 = 0
    }
    public private(set) var modifiers = Modifiers()

    /// Rules/model/layout as in XKB_DEFAULT_*; nil fields take xkbcommon's defaults.
    public convenience init(layout: String? = nil) throws(KeymapError) {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else {
            throw KeymapError(description: "xkbcommon: cannot create a context")
        }
        let built: OpaquePointer? = layout.withOptionalCString { layoutName in
            var names = xkb_rule_names(rules: nil, model: nil, layout: layoutName, variant: nil, options: nil)
            return xkb_keymap_new_from_names(context, &names, XKB_KEYMAP_COMPILE_NO_FLAGS)
        }
        guard let keymap = built else {
            xkb_context_unref(context)
            throw KeymapError(description: "xkbcommon: cannot compile a keymap for layout \(layout ?? "default")")
        }
        try self.init(context: context, keymap: keymap)
    }

    /// A keymap in xkb's text format, as another compositor's wl_keyboard.keymap sends it (the
    /// nested window passes the user's own layout on to our clients).
    public convenience init(text: String) throws(KeymapError) {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else {
            throw KeymapError(description: "xkbcommon: cannot create a context")
        }
        let built = text.withCString {
            xkb_keymap_new_from_string(context, $0, XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS)
        }
        guard let keymap = built else {
            xkb_context_unref(context)
            throw KeymapError(description: "xkbcommon: cannot compile the parent compositor's keymap")
        }
        try self.init(context: context, keymap: keymap)
    }

    /// Takes ownership of `context` and `keymap` (released on failure too).
    private init(context: OpaquePointer, keymap: OpaquePointer) throws(KeymapError) {
        guard let text = xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1) else {
            xkb_keymap_unref(keymap)
            xkb_context_unref(context)
            throw KeymapError(description: "xkbcommon: cannot serialise the keymap")
        }
        let serialised = String(cString: text)
        cxkb_free(text)
        let file: Descriptor
        do {
            file = try SharedMemory.sealedFile(
                name: "preview-compositor-keymap", contents: Array(serialised.utf8) + [0])
        } catch {
            xkb_keymap_unref(keymap)
            xkb_context_unref(context)
            throw KeymapError(description: "keymap memfd: \(error)")
        }
        self.context = context
        self.keymap = keymap
        self.state = xkb_state_new(keymap)
        self.file = file
        self.size = UInt32(serialised.utf8.count + 1)
    }

    deinit {
        xkb_state_unref(state)
        xkb_keymap_unref(keymap)
        xkb_context_unref(context)
    }

    /// Feeds an evdev key code (KEY_*). Returns true when the modifiers changed.
    @discardableResult
    public func update(evdevKey key: UInt32, pressed: Bool) -> Bool {
        // xkb keycodes are evdev codes + 8 (the X11 offset).
        let changed = xkb_state_update_key(state, key + 8, pressed ? XKB_KEY_DOWN : XKB_KEY_UP)
        guard changed.rawValue != 0 else { return false }
        modifiers = Modifiers(
            depressed: xkb_state_serialize_mods(state, XKB_STATE_MODS_DEPRESSED),
            latched: xkb_state_serialize_mods(state, XKB_STATE_MODS_LATCHED),
            locked: xkb_state_serialize_mods(state, XKB_STATE_MODS_LOCKED),
            group: xkb_state_serialize_layout(state, XKB_STATE_LAYOUT_EFFECTIVE))
        return true
    }

    /// What a key gives, for matching the user's preview keys: its keysym at the first level of
    /// the active layout, and the one it produces with the modifiers held now.
    func symbols(evdevKey key: UInt32) -> KeySymbols {
        let code = key + 8
        let layout = xkb_state_key_get_layout(state, code)
        var syms: UnsafePointer<xkb_keysym_t>?
        let count = xkb_keymap_key_get_syms_by_level(keymap, code, layout == XKB_LAYOUT_INVALID ? 0 : layout, 0, &syms)
        let base = count > 0 ? syms?[0] ?? 0 : 0
        return KeySymbols(base: base, produced: xkb_state_key_get_one_sym(state, code))
    }

    /// Which of Shift, Ctrl, Alt and Super are held (down or latched; locks do not count).
    var heldModifiers: KeyModifiers {
        let held = xkb_state_component(rawValue: XKB_STATE_MODS_DEPRESSED.rawValue | XKB_STATE_MODS_LATCHED.rawValue)
        var modifiers: KeyModifiers = []
        for modifier in PreviewKeyBinding.modifierNames
        where xkb_state_mod_name_is_active(state, modifier.xkb, held) > 0 {
            modifiers.insert(modifier.0)
        }
        return modifiers
    }

    /// The keysym name a key produces now (for logs and tests).
    public func keysymName(evdevKey key: UInt32) -> String {
        let sym = xkb_state_key_get_one_sym(state, key + 8)
        var buffer = [CChar](repeating: 0, count: 64)
        let n = xkb_keysym_get_name(sym, &buffer, buffer.count)
        return n > 0 ? String(decoding: buffer.prefix(Int(n)).map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?"
    }
}

extension Optional where Wrapped == String {
    fileprivate func withOptionalCString<R>(_ body: (UnsafePointer<CChar>?) -> R) -> R {
        switch self {
        case .some(let string): string.withCString { body($0) }
        case .none: body(nil)
        }
    }
}
