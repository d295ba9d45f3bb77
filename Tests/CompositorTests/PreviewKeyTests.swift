import InputEvents
import PreviewEngine
import PreviewProtocolServer
import Testing

@testable import PreviewCompositor

/// The compositor's preview-key rules before wl_keyboard: what is withheld, what is delivered;
/// the user's keys, as xkb names them.
@Suite struct PreviewKeyTests {
    static func key(_ code: UInt16, _ pressed: Bool, at milliseconds: Int64 = 0) -> KeyState {
        KeyState(device: DeviceID(7), time: Timestamp(milliseconds: milliseconds), code: code, pressed: pressed)
    }

    /// Runs `keys` through the rules with the keysyms and modifiers the real xkb keymap (us
    /// layout) gives, and the driver's answers; returns the verdicts as words.
    func run(
        _ keys: [KeyState], bindings: [PreviewKeyBinding] = PreviewKeyBinding.defaults, begins: Bool = true,
        tap: Bool = true, escapes: Bool = false
    ) throws -> [String] {
        let keymap = try Keymap(layout: "us")
        var rules = PreviewKeys(bindings: bindings)
        return keys.map { key in
            let input = PreviewKeys.Key(
                key, symbols: keymap.symbols(evdevKey: UInt32(key.code)), held: keymap.heldModifiers)
            let verdict = rules.handle(input, begin: { begins }, end: { tap }, escape: { escapes })
            // What the seat does with a key it delivers: the modifiers follow.
            switch verdict {
            case .deliver:
                keymap.update(evdevKey: UInt32(key.code), pressed: key.pressed)
                return "deliver"
            case .withhold: return "withhold"
            case .deliverTap(let time): return "tap@\(time.microseconds / 1000)"
            }
        }
    }

    /// A press and release of `code`.
    static func stroke(_ code: UInt16) -> [KeyState] { [key(code, true), key(code, false)] }

    // evdev codes (KEY_*)
    static let (menu, f10, escape, p): (UInt16, UInt16, UInt16, UInt16) = (127, 68, 1, 25)
    static let (leftShift, leftCtrl, leftAlt): (UInt16, UInt16, UInt16) = (42, 29, 56)

    @Test func aTapOfMenuIsDeliveredOnReleaseWithItsPressTime() throws {
        let tap = [Self.key(Self.menu, true, at: 5), Self.key(Self.menu, false, at: 90)]
        #expect(try run(tap) == ["withhold", "tap@5"])
    }

    @Test func aHeldMenuThatBeganAnInteractionIsNeverDelivered() throws {
        #expect(try run(Self.stroke(Self.menu), tap: false) == ["withhold", "withhold"])
    }

    @Test func f10IsAPreviewKeyOnlyWithShift() throws {
        #expect(try run(Self.stroke(Self.f10)) == ["deliver", "deliver"])
        #expect(
            try run([
                Self.key(Self.leftShift, true), Self.key(Self.f10, true, at: 3), Self.key(Self.f10, false),
                Self.key(Self.leftShift, false),
            ]) == ["deliver", "withhold", "tap@3", "deliver"])
        // Exactly the binding's modifiers: Ctrl+Shift+F10 is the app's shortcut, not a preview.
        #expect(
            try run([
                Self.key(Self.leftCtrl, true), Self.key(Self.leftShift, true), Self.key(Self.f10, true),
                Self.key(Self.f10, false),
            ]) == ["deliver", "deliver", "deliver", "deliver"])
    }

    @Test func whereNothingCanBeginTheKeyIsTheClients() throws {
        #expect(try run(Self.stroke(Self.menu), begins: false) == ["deliver", "deliver"])
    }

    @Test func anEscapeThatDismissedIsWithheldWithItsRelease() throws {
        #expect(try run(Self.stroke(Self.escape), escapes: true) == ["withhold", "withhold"])
        #expect(try run(Self.stroke(Self.escape), escapes: false) == ["deliver", "deliver"])
    }

    @Test func theUsersKeysReplaceTheDefaults() throws {
        let ctrlAltP = try PreviewKeyBinding(parsing: "Ctrl+Alt+p")
        let chord = [
            Self.key(Self.leftCtrl, true), Self.key(Self.leftAlt, true), Self.key(Self.p, true, at: 4),
            Self.key(Self.p, false, at: 9),
        ]
        #expect(try run(chord, bindings: [ctrlAltP]) == ["deliver", "deliver", "withhold", "tap@4"])
        #expect(try run(Self.stroke(Self.p), bindings: [ctrlAltP]) == ["deliver", "deliver"])
        // A letter's case does not matter: Ctrl+Alt+P is the same key.
        let upper = try PreviewKeyBinding(parsing: "Ctrl+Alt+P")
        #expect(try run(chord, bindings: [upper]) == ["deliver", "deliver", "withhold", "tap@4"])
        #expect(try run(Self.stroke(Self.menu), bindings: [ctrlAltP]) == ["deliver", "deliver"])
        #expect(try run(Self.stroke(Self.menu), bindings: []) == ["deliver", "deliver"])
    }

    @Test func oneKeyAtATime() throws {
        // While Menu is withheld, Shift+F10 is an ordinary key.
        #expect(
            try run([
                Self.key(Self.menu, true), Self.key(Self.leftShift, true), Self.key(Self.f10, true),
                Self.key(Self.f10, false), Self.key(Self.leftShift, false), Self.key(Self.menu, false, at: 40),
            ]) == ["withhold", "deliver", "deliver", "deliver", "deliver", "tap@0"])
    }

    @Test(arguments: [
        ("Menu", "Menu"), ("shift+f10", "Shift+F10"), (" Super + Shift + space ", "Shift+Super+space"),
        ("control+alt+P", "Ctrl+Alt+p"), ("Mod1+Mod4+Menu", "Alt+Super+Menu"),
    ])
    func keyNamesAreXkbsWithModifiers(_ text: String, _ canonical: String) throws {
        #expect(try PreviewKeyBinding(parsing: text).name == canonical)
    }

    @Test(arguments: [
        ("", "no key name in '' (e.g. Menu or Shift+F10)"),
        ("Shift+", "no key name in 'Shift+' (e.g. Menu or Shift+F10)"),
        ("Hyper+F10", "unknown modifier 'Hyper' in 'Hyper+F10' (Shift, Ctrl, Alt, Super)"),
        ("Menux", "unknown key 'Menux' (an xkb keysym name, e.g. Menu, F10, or a letter)"),
        ("Shift_L", "'Shift_L' is a modifier; a preview key is a key (e.g. Menu or Shift+F10)"),
        ("Escape", "Escape cancels interactions: it cannot be a preview key"),
        (String(repeating: "x", count: 101), "not a key name: longer than 100 bytes or with a NUL"),
    ])
    func aWrongKeyNameSaysWhy(_ text: String, _ reason: String) {
        #expect(throws: PreviewKeyBinding.ParseError(description: reason)) { try PreviewKeyBinding(parsing: text) }
    }

    @Test func noneIsNoKeyAndOnlyAlone() throws {
        #expect(try PreviewKeyBinding.list(parsing: ["none"]) == [])
        #expect(try PreviewKeyBinding.list(parsing: ["Menu", "menu"]).map(\.name) == ["Menu"])
        #expect(throws: PreviewKeyBinding.ParseError.self) { try PreviewKeyBinding.list(parsing: ["none", "Menu"]) }
    }
}
