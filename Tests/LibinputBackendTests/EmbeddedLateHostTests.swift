import LibinputRecording
import PreviewEngine
import Testing
import UmockdevHarness
import _FixtureTestSupport

/// A compositor whose loop is late reads a touchpad's press, its frames and its release in one
/// go. The library still gives the engine every frame's force at the frame's own time (its own
/// descriptor's events, not the device's state when the host came back), so the press that
/// committed on the pad completes, whichever of the host's release and the library's descriptor
/// is dispatched first.
@Suite(.serialized)
struct EmbeddedLateHostTests {
    @Test(
        "A host stalled 300 ms from the answer past the lift: the press completes as the pad had it",
        .enabled(if: Testbed.available, "needs umockdev-run and mount namespaces (unshare -m)"))
    func stalledHostCompletes() throws {
        let device = try TestbedDevice(
            recording: try Recording.open(Fixtures.path("apple-bcm5974-pressurepad.yml")))
        var options = LibinputTestbed.Options()
        options.haptics = .off
        options.embedded = true
        // The first press: answered within a few ms of the click, committed about 55 ms later,
        // lifted about 280 ms after the click: the stall covers the commit and the lift.
        options.embeddedStallMilliseconds = 300
        let run = try LibinputTestbed.run(device, options: options, attempts: 3)
        #expect(run.log.contains("embedded stall over"), "\(run.log)")
        let phases = run.log.split(separator: "\n").compactMap { line -> Int? in
            guard let range = line.range(of: "embedded phase ") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
        // Phases of the first press: up to its end (completed 5 or cancelled 6).
        let first = phases.prefix { $0 != 5 && $0 != 6 } + phases.drop { $0 != 5 && $0 != 6 }.prefix(1)
        withKnownIssue("testbed starved: \(run.framesAtRisk) frame(s) at risk", isIntermittent: true) {
            #expect(first.contains(3) && first.last == 5, "preview ended, then completed: \(first)\n\(run.log)")
        } when: {
            !run.trustworthy
        }
    }
}
