import LibinputRecording
import PreviewEngine
import Testing
import UmockdevHarness
import _FixtureTestSupport

/// Haptic pads through libpreview-interaction, as a compositor embedding it drives them: the
/// device its libinput opened is handed over, the pad's button is the contact on a version 2
/// client's surface, and the library plays the clicks with the compositor's implementation
/// (`HapticPad`, `HapticClicks`) on a descriptor of its own. The testbed's device answers the
/// force-feedback calls as the 6.18 kernel does and logs each.
@Suite("Haptics through the embedded library", .serialized)
struct EmbeddedHapticsTests {
    static func run(
        haptics: HapticIntensity, removeAt: Int64? = nil, after: HapticIntensity? = nil
    ) throws -> LibinputTestbed.Run {
        let device = try TestbedDevice(
            recording: try Recording.open(Fixtures.path("apple-bcm5974-pressurepad.yml")))
        var options = LibinputTestbed.Options()
        options.haptics = haptics
        options.embedded = true
        options.removeAt = removeAt
        options.embeddedHapticsAfter = after
        return try LibinputTestbed.run(device, options: options, attempts: 3)
    }

    /// The waveform of every EV_FF write, in order, from the upload that gave its id.
    static func playedWaveforms(_ log: String) -> [String] {
        ForceFeedbackLog.played(log).map(\.usage)
    }

    @Test(
        "A pressure pad handed to the library: press, deep click, the app's tick, release; destroy erases",
        .enabled(if: Testbed.available, "needs umockdev-run and mount namespaces (unshare -m)"))
    func pressurePad() throws {
        let run = try Self.run(haptics: .medium)
        let ff = run.forceFeedback
        // Host mode at the user's 70 %: press, deep click (CLICK) and release uploaded.
        for usage in ["0x1006", "0x1003", "0x1007"] {
            #expect(ff.contains("usage \(usage) intensity 70 rc 0"), "\(ff)\n\(run.log)")
        }
        // The client's interaction committed (phase 3, preview ended) and completed or was lifted.
        #expect(run.log.contains("embedded phase 3"), "\(run.log)")
        // The client heard that haptics are available for its interaction.
        #expect(run.log.contains("haptics(1, available)"), "\(run.log)")
        // The first press: its click, the commit's deep click, the app's tick (PRESS) asked for
        // at the peek, routed to this pad, and the release at the lift. The runner releases a
        // frame only once the last was handled, so a late testbed keeps this order; what it
        // cannot keep is a frame umockdev itself lost on a starved machine (docs/testing.md).
        let played = Self.playedWaveforms(ff)
        withKnownIssue("testbed starved: \(run.framesAtRisk) frame(s) at risk", isIntermittent: true) {
            #expect(
                Array(played.prefix(4)) == ["0x1006", "0x1003", "0x1006", "0x1007"], "\(played)\n\(ff)\n\(run.log)")
        } when: {
            !run.trustworthy
        }
        // Control goes back to the pad at the context's destroy: every effect erased by the
        // library itself (EVIOCRMFF), none left for the close.
        #expect(run.log.contains("embedded destroy: 0"), "\(run.log)")
        #expect(run.log.contains("embedded erased at destroy: 3"), "\(run.log)\n\(ff)")
        #expect(HapticsTests.stillUploaded(ff).isEmpty, "\(ff)")
        #expect(!ff.contains("close erases"), "\(ff)")
    }

    @Test(
        "The pad removed after its first press: the library erases its effects then, and plays nothing more",
        .enabled(if: Testbed.available, "needs umockdev-run and mount namespaces (unshare -m)"))
    func removal() throws {
        // The first press ends at 311 868 µs; the second begins near 0.9 s.
        let run = try Self.run(haptics: .strong, removeAt: 600_000)
        let ff = run.forceFeedback
        #expect(ff.contains("usage 0x1006 intensity 100 rc 0"), "\(ff)")
        #expect(run.log.contains("embedded device removed: 0"), "\(run.log)")
        #expect(run.log.contains("embedded erased at removal: 3"), "\(run.log)\n\(ff)")
        #expect(Self.playedWaveforms(ff).count == 4, "the first press only: \(Self.playedWaveforms(ff))\n\(ff)")
        // Erased by the library at the removal (the destroy afterwards has no pad left).
        #expect(HapticsTests.stillUploaded(ff).isEmpty, "\(ff)")
        #expect(!ff.contains("close erases"), "\(ff)")
        let erasures = ff.split(separator: "\n").filter { $0.contains("EVIOCRMFF") && $0.hasSuffix("rc 0") }
        #expect(erasures.count == 3, "\(ff)")
    }

    @Test(
        "Haptics off: nothing uploaded or played; turned on later, the pad is taken at the new intensity",
        .enabled(if: Testbed.available, "needs umockdev-run and mount namespaces (unshare -m)"))
    func hapticsOff() throws {
        let run = try Self.run(haptics: .off, after: .light)
        let ff = run.forceFeedback
        #expect(run.log.contains("embedded uploads before the change: 0"), "\(run.log)\n\(ff)")
        #expect(!ff.contains(" EV_FF "), "\(ff)")
        #expect(run.log.contains("embedded phase 3"), "\(run.log)")
        // The user turns haptics on (light): uploaded at 40 %, erased again at destroy.
        #expect(run.log.contains("embedded haptics light: 0"), "\(run.log)")
        for usage in ["0x1006", "0x1003", "0x1007"] {
            #expect(ff.contains("usage \(usage) intensity 40 rc 0"), "\(ff)")
        }
        #expect(HapticsTests.stillUploaded(ff).isEmpty && !ff.contains("close erases"), "\(ff)")
        // The client hears haptics are unavailable, and its tick is dropped.
        #expect(run.log.contains("haptics(1, unavailable)"), "\(run.log)")
    }
}
