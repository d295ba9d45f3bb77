import Foundation
import InputEvents
import PreviewEngine
import SystemLayer
import Testing
import _FixtureTestSupport

@testable import PreviewCompositor

/// The lookup process is someone else's code as far as the compositor is concerned: one that
/// dies in the middle of a press leaves the press to the app, the compositor answering, and
/// comes back by itself.
@Suite struct LookupProcessTests {
    static func now() -> Timestamp { Timestamp(microseconds: MonotonicTime.microseconds()) }

    @Test func theLookupProcessKilledMidPressLeavesThePressAndIsStartedAgain() throws {
        let directory = TestRuntime.temporaryDirectory("lookup-killed")
        let script = directory + "/fake-lookup"
        // Reads the first request's length word, then dies as a crash would.
        try "#!/bin/sh\nhead -c 4 <&4 >/dev/null\nkill -9 $$\n".write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let host = try LocalCompositor {
            $0.lookup.enabled = true
            $0.lookupExecutable = script
            $0.input = .injected
        }
        let client = try host.connect()
        _ = client.window(size: (400, 300))
        #expect(host.compositor.lookup != nil, "Look Up is off")
        let driver = host.compositor.interaction.driver
        #expect(host.dispatch { driver.lookupProcessID != nil }, "the lookup process did not start")
        let first = driver.lookupProcessID
        // A firm pen press in the middle of the window (no preview area there).
        let key = ContactKey(device: DeviceID(41), contact: 0)
        func sample(_ force: Double) -> DeviceContact {
            DeviceContact(
                key: key, time: Self.now(), force: force, hasForce: true, position: NormalisedPoint(x: 0.5, y: 0.5),
                positioning: .absolute, source: .pen)
        }
        host.compositor.inject(.contactBegan(sample(0.05)))
        for step in 1...50 {
            host.compositor.inject(.contactChanged(sample(min(1, 0.05 + Double(step) * 0.04))))
            host.dispatch(until: { false }, timeout: 0.02)
        }
        #expect(
            host.dispatch(until: { driver.lookupProcessID != nil && driver.lookupProcessID != first }, timeout: 10),
            "the lookup process was not started again")
        host.compositor.inject(.contactEnded(key, time: Self.now(), reason: .lifted))
        host.compositor.dispatch()
        #expect(host.compositor.scene.overlays.isEmpty, "Look Up shows something without an answer")
        #expect(client.roundtrip(), "the app lost its connection")
        #expect(!host.compositor.interaction.driver.isTakenAway(key))
    }
}
