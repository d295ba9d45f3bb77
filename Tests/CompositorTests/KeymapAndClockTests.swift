import Glibc
import PreviewCompositor
import Testing

@Suite struct KeymapTests {
    @Test func keymapIsASealedMemfdHoldingAnXkbKeymap() throws {
        let keymap = try Keymap(layout: "us")
        #expect(keymap.size > 1000)
        // What a client does: map it read-only and read the text.
        let map = try #require(mmap(nil, Int(keymap.size), PROT_READ, MAP_PRIVATE, keymap.fd, 0))
        #expect(map != MAP_FAILED)
        defer { munmap(map, Int(keymap.size)) }
        let text = String(cString: map.assumingMemoryBound(to: CChar.self))
        #expect(text.hasPrefix("xkb_keymap {"))
        #expect(map.load(fromByteOffset: Int(keymap.size) - 1, as: UInt8.self) == 0, "NUL-terminated")
        #expect(write(keymap.fd, "x", 1) == -1, "sealed against writes")
    }

    /// A nested window passes its parent's keymap on: the xkb text the parent sent, compiled
    /// again (here a French layout's text, where the key of "a" on a US keyboard types "q").
    @Test func aParentsKeymapTextBecomesOurs() throws {
        let parent = try Keymap(layout: "fr")
        let map = try #require(mmap(nil, Int(parent.size), PROT_READ, MAP_PRIVATE, parent.fd, 0))
        defer { munmap(map, Int(parent.size)) }
        let keymap = try Keymap(text: String(cString: map.assumingMemoryBound(to: CChar.self)))
        #expect(keymap.keysymName(evdevKey: 30) == "q")
        #expect(throws: KeymapError.self) { try Keymap(text: "xkb_keymap { nonsense") }
    }

    @Test func shiftChangesModifiersAndKeysyms() throws {
        let keymap = try Keymap(layout: "us")
        let leftShift: UInt32 = 42
        let keyA: UInt32 = 30
        #expect(keymap.keysymName(evdevKey: keyA) == "a")
        #expect(keymap.update(evdevKey: leftShift, pressed: true))
        #expect(keymap.modifiers.depressed == 1, "Shift is the first modifier")
        #expect(keymap.keysymName(evdevKey: keyA) == "A")
        #expect(!keymap.update(evdevKey: keyA, pressed: true), "a letter changes no modifier")
        #expect(keymap.update(evdevKey: leftShift, pressed: false))
        #expect(keymap.modifiers.depressed == 0)
    }
}

@Suite struct FrameClockTests {
    @Test func ticksStayOnTheGridWhenWokenLate() {
        let clock = FrameClock(refreshMilliHertz: 60_000, start: 1_000)
        #expect(clock.period == 16_666_666)
        #expect(clock.nextTick(after: 1_000) == 1_000 + 16_666_666)
        #expect(
            clock.nextTick(after: 1_000 + 40_000_000) == 1_000 + 3 * 16_666_666,
            "a late wake-up skips to the next vblank")
        #expect(clock.nextTick(after: 0) == 1_000)
    }
}
