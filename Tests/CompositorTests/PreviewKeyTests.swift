import EvdevDecoder
import PreviewEngine
import Testing

@testable import PreviewCompositor

/// The compositor's preview-key rules before wl_keyboard: what is withheld, what is delivered.
@Suite struct PreviewKeyTests {
    static func key(_ code: UInt16, _ pressed: Bool, at milliseconds: Int64 = 0) -> KeyState {
        KeyState(device: DeviceID(7), time: Timestamp(milliseconds: milliseconds), code: code, pressed: pressed)
    }

    /// Runs `keys` with the driver's answers, returning the verdicts as words.
    func run(
        _ keys: [KeyState], begins: Bool = true, tap: Bool = true, escapes: Bool = false
    ) -> [String] {
        var rules = PreviewKeys()
        return keys.map { key in
            switch rules.handle(key, begin: { begins }, end: { tap }, escape: { escapes }) {
            case .deliver: "deliver"
            case .withhold: "withhold"
            case .deliverTap(let time): "tap@\(time.microseconds / 1000)"
            }
        }
    }

    @Test func aTapOfMenuIsDeliveredOnReleaseWithItsPressTime() {
        #expect(run([Self.key(127, true, at: 5), Self.key(127, false, at: 90)]) == ["withhold", "tap@5"])
    }

    @Test func aHeldMenuThatBeganAnInteractionIsNeverDelivered() {
        #expect(run([Self.key(127, true), Self.key(127, false)], tap: false) == ["withhold", "withhold"])
    }

    @Test func f10IsAPreviewKeyOnlyWithShift() {
        #expect(run([Self.key(68, true), Self.key(68, false)]) == ["deliver", "deliver"])
        #expect(
            run([Self.key(42, true), Self.key(68, true, at: 3), Self.key(68, false), Self.key(42, false)]) == [
                "deliver", "withhold", "tap@3", "deliver",
            ])
    }

    @Test func whereNothingCanBeginTheKeyIsTheClients() {
        #expect(run([Self.key(127, true), Self.key(127, false)], begins: false) == ["deliver", "deliver"])
    }

    @Test func anEscapeThatDismissedIsWithheldWithItsRelease() {
        #expect(run([Self.key(1, true), Self.key(1, false)], escapes: true) == ["withhold", "withhold"])
        #expect(run([Self.key(1, true), Self.key(1, false)], escapes: false) == ["deliver", "deliver"])
    }
}
