import Foundation
import InputEvents
import PreviewEngine
import SystemLayer
import Testing
import _FixtureTestSupport

@testable import PreviewCompositor

/// Look Up's deadline is the user's settings file's (`lookup-deadline`), read again on SIGHUP:
/// the same slow answer (the stand-in, Tests/Fixtures/lookup/fake-lookup.py, answers 300 ms
/// after it read the question) is late under a 100 ms deadline and finds its word under 5 s.
@Suite struct LookupDeadlineTests {
    static let fake =
        URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fixtures/lookup/fake-lookup.py").standardized.path

    @Test func theSettingsFilesDeadlineDecidesWhetherASlowAnswerIsLate() throws {
        let directory = TestRuntime.temporaryDirectory("lookup-deadline")
        let script = directory + "/slow-lookup"
        try "#!/bin/sh\nexec /usr/bin/env FAKE_LOOKUP_DELAY_MS=300 /usr/bin/python3 \(Self.fake)\n".write(
            toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let settings = directory + "/settings"
        try "lookup-deadline = 100\n".write(toFile: settings, atomically: true, encoding: .utf8)
        let trace = directory + "/trace.jsonl"
        let host = try LocalCompositor {
            $0.lookup.enabled = true
            $0.lookupExecutable = script
            $0.settingsPath = settings
            $0.tracePath = trace
            $0.input = .injected
        }
        let client = try host.connect()
        _ = client.window(size: (400, 300))
        let driver = host.compositor.interaction.driver
        #expect(driver.lookupConfiguration?.deadline == .milliseconds(100))
        #expect(host.dispatch { driver.lookupProcessID != nil }, "the lookup process did not start")

        /// A firm pen press in the middle of the window (no preview area there), held until its
        /// lookup's answer is in the trace: that answer's outcome.
        var pressed = 0
        func press() -> String? {
            pressed += 1
            let key = ContactKey(device: DeviceID(41), contact: 0)
            func sample(_ force: Double) -> DeviceContact {
                DeviceContact(
                    key: key, time: Timestamp(microseconds: MonotonicTime.microseconds()), force: force,
                    hasForce: true, position: NormalisedPoint(x: 0.5, y: 0.5), positioning: .absolute, source: .pen)
            }
            host.compositor.inject(.contactBegan(sample(0.05)))
            for step in 1...40 {
                host.compositor.inject(.contactChanged(sample(0.05 + 0.95 * Double(step) / 40)))
                host.dispatch(until: { false }, timeout: 0.005)
            }
            var answers: [[String: Any]] = []
            host.dispatch {
                answers = ((try? String(contentsOfFile: trace, encoding: .utf8)) ?? "").split(separator: "\n")
                    .compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
                    .filter { $0["event"] as? String == "lookup" }
                return answers.count == pressed
            }
            host.compositor.inject(
                .contactEnded(key, time: Timestamp(microseconds: MonotonicTime.microseconds()), reason: .lifted))
            host.compositor.dispatch()
            return answers.count == pressed ? answers.last?["outcome"] as? String : nil
        }

        #expect(press() == "late", "an answer after the file's 100 ms deadline")
        try "lookup-deadline = 5000\n".write(toFile: settings, atomically: true, encoding: .utf8)
        host.compositor.reloadSettings()
        #expect(driver.lookupConfiguration?.deadline == .milliseconds(5000))
        #expect(press() == "found", "the same answer within the file's new deadline")
    }
}
