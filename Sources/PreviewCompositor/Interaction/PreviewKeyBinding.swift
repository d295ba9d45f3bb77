import CXkbcommon
import PreviewProtocolServer

/// A preview key the user chose (`--preview-key`, `preview-key =` in the settings file) is
/// named as an xkb keysym with optional modifiers: `Menu`, `Shift+F10`, `Ctrl+Alt+p`. The rules
/// that match it (exactly those of Shift, Ctrl, Alt and Super held; the key's keysym at its
/// first level or as produced now; a letter in either case) are the shared `PreviewKeys`'.
extension PreviewKeyBinding {
    /// The modifiers in the order they are written, with the names xkb gives them (Mod1, Mod4).
    static let modifierNames: [(KeyModifiers, display: String, xkb: String, spellings: Set<String>)] = [
        (.shift, "Shift", "Shift", ["shift"]),
        (.control, "Ctrl", "Control", ["ctrl", "control"]),
        (.alt, "Alt", "Mod1", ["alt", "mod1"]),
        (.logo, "Super", "Mod4", ["super", "logo", "mod4"]),
    ]

    /// Why a key name is not one: the text after `--preview-key` or `preview-key =`.
    public struct ParseError: Error, CustomStringConvertible, Equatable {
        public var description: String
    }

    /// Longer than any keysym name with every modifier spelled out.
    static let longestName = 100

    /// Parses `Shift+F10`: modifiers (Shift, Ctrl, Alt, Super; any case) joined by `+`, then an
    /// xkb keysym name (`xkb_keysym_from_name`, exact case first, then any case).
    public init(parsing text: String) throws(ParseError) {
        guard text.utf8.count <= Self.longestName, !text.contains("\0") else {
            throw ParseError(description: "not a key name: longer than \(Self.longestName) bytes or with a NUL")
        }
        let words = text.trimmingWhitespace.split(separator: "+", omittingEmptySubsequences: false).map {
            String($0).trimmingWhitespace
        }
        guard let name = words.last, !name.isEmpty else {
            throw ParseError(description: "no key name in '\(text)' (e.g. Menu or Shift+F10)")
        }
        var modifiers: KeyModifiers = []
        for word in words.dropLast() {
            guard let modifier = Self.modifierNames.first(where: { $0.spellings.contains(word.lowercased()) }) else {
                throw ParseError(description: "unknown modifier '\(word)' in '\(text)' (Shift, Ctrl, Alt, Super)")
            }
            modifiers.insert(modifier.0)
        }
        var keysym = xkb_keysym_from_name(name, XKB_KEYSYM_NO_FLAGS)
        if keysym == 0 { keysym = xkb_keysym_from_name(name, XKB_KEYSYM_CASE_INSENSITIVE) }
        guard keysym != 0 else {
            throw ParseError(description: "unknown key '\(name)' (an xkb keysym name, e.g. Menu, F10, or a letter)")
        }
        // A modifier's own keysym would begin an interaction every time it is held for a shortcut.
        guard !(0xffe1...0xffee).contains(keysym), !(0xfe01...0xfe0f).contains(keysym) else {
            throw ParseError(description: "'\(name)' is a modifier; a preview key is a key (e.g. Menu or Shift+F10)")
        }
        guard keysym != 0xff1b else {  // XKB_KEY_Escape
            throw ParseError(description: "Escape cancels interactions: it cannot be a preview key")
        }
        // Matched in lower case (`PreviewKeys` folds the key's keysyms the same way).
        self.init(keysym: xkb_keysym_to_lower(keysym), modifiers: modifiers)
    }

    /// Parses a list of keys; `none` alone is the empty list (no preview key at all).
    public static func list(parsing texts: [String]) throws(ParseError) -> [PreviewKeyBinding] {
        if texts.count == 1, texts[0].trimmingWhitespace.lowercased() == "none" { return [] }
        var bindings: [PreviewKeyBinding] = []
        for text in texts {
            guard text.trimmingWhitespace.lowercased() != "none" else {
                throw ParseError(description: "none (no preview key) cannot be combined with keys")
            }
            let binding = try PreviewKeyBinding(parsing: text)
            if !bindings.contains(binding) { bindings.append(binding) }
        }
        return bindings
    }

    /// `Shift+F10`, with xkb's name of the keysym (a letter in lower case).
    public var name: String {
        var buffer = [CChar](repeating: 0, count: 64)
        let length = xkb_keysym_get_name(keysym, &buffer, buffer.count)
        let name =
            length > 0
            ? String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?"
        let held = Self.modifierNames.filter { modifiers.contains($0.0) }.map(\.display)
        return (held + [name]).joined(separator: "+")
    }
}

/// The keysyms of a pressed key: at its first level in the active layout (`F10`, `a`), and the
/// one it produces with the modifiers held (`A` with Shift).
struct KeySymbols: Equatable {
    var base: UInt32
    var produced: UInt32
}

extension String {
    fileprivate var trimmingWhitespace: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
