import Foundation
import InputEvents
import PreviewEngine
import SystemLayer
import Testing
import WaylandServer
import _FixtureTestSupport

@testable import PreviewCompositor

/// The protocol's core-input rule for touch points: when the commit phase begins the client's
/// touch points are cancelled (wl_touch.cancel) and nothing more of that touch reaches it.
/// A real client (Tests/python/tablet_client.py) and synthetic touchscreen samples injected
/// into the in-process compositor (the fixtures have no touchscreen recording).
@Suite(.serialized) struct TouchCommitTests {
    static func now() -> Timestamp { Timestamp(microseconds: MonotonicTime.microseconds()) }

    static func waitFor(_ text: String, in path: String, timeout: Double = 20) -> String {
        FileWatch.waitForText(in: path, timeout: timeout) { $0.contains(text) }
    }

    @Test func theCommitPhaseCancelsTheTouchAndSwallowsItsRelease() throws {
        // A generous should-begin wait: the client is Python on a machine shared with other tests.
        // Time is the test's: the press advances it 10 ms a sample, however loaded the machine is.
        let clock = ManualClock()
        @Sendable func now() -> Timestamp { Timestamp(microseconds: clock.clock.microseconds()) }
        let compositor = try startCompositor {
            $0.engine.shouldBeginTimeout = .milliseconds(2000)
            $0.clock = clock.clock
        }
        defer { compositor.stop() }
        let log = TestRuntime.temporaryDirectory("touch") + "/events.log"
        let client = try startClient(
            ["/usr/bin/python3", TabletTests.client, "--pointer", "--preview", log], socket: compositor.socketName)
        defer { _ = client.terminate() }
        #expect(Self.waitFor("mapped", in: log).contains("mapped"), "\(client.output)")
        // The client logs "mapped" when it commits; the touch must find its window in our scene.
        #expect(compositor.wait(timeout: 20) { $0.windows.count == 1 }, "\(client.output)")

        let key = ContactKey(device: DeviceID(40), contact: 3)
        @Sendable func sample(_ force: Double) -> DeviceContact {
            DeviceContact(
                key: key, time: now(), force: force, hasForce: true, position: NormalisedPoint(x: 0.5, y: 0.5),
                positioning: .absolute, source: .touchscreen)
        }
        // A press that ramps to full force over 0.6 s, holds, moves a little, then lifts.
        compositor.sync {
            $0.inject(.contactBegan(sample(0.05))); $0.inject(.frame(now()))
        }
        for step in 1...80 {
            clock.advance(milliseconds: 10)
            let force = min(1, 0.05 + Double(step) * 0.02)
            var sampled = sample(force)
            sampled.position.x += Double(step) / 10_000
            let moved = sampled
            compositor.sync {
                $0.inject(.contactChanged(moved)); $0.inject(.frame(now()))
            }
            // The client answers should-begin over its socket: the press goes on once it has.
            let answered = compositor.wait(timeout: 20) {
                $0.interaction.driver.phase(of: key) != .asking
            }
            try #require(answered, "\(client.output)")
        }
        compositor.sync {
            $0.inject(.contactEnded(key, time: now(), reason: .lifted)); $0.inject(.frame(now()))
        }
        // The end (completed or cancelled), not a commit progress line, which also starts "preview c".
        let text = FileWatch.waitForText(in: log, timeout: 20) {
            $0.contains("preview completed") || $0.contains("preview cancelled")
        }
        let lines = text.split(separator: "\n").filter { !$0.hasPrefix("pointer") }

        let down = try #require(lines.firstIndex { $0.hasPrefix("touch down 3 ") }, "\(lines)")
        let ended = try #require(lines.firstIndex(of: "preview preview_ended 1"), "\(lines)")
        #expect(down < ended)
        #expect(
            lines[down..<ended].contains { $0.hasPrefix("touch motion 3 ") },
            "motion is delivered during the preview phase")
        // The commit progress of the same sample shares preview_ended's frame; then the touch ends.
        try #require(lines.count > ended + 2, "\(lines[ended...])")
        let left = lines[ended + 1].hasPrefix("preview commit 1 ") ? ended + 2 : ended + 1
        #expect(lines[left] == "touch cancel", "\(lines[ended...])")
        #expect(
            !lines[ended...].contains { $0.hasPrefix("touch motion") || $0.hasPrefix("touch up") }, "\(lines[ended...])"
        )
        #expect(
            lines.last?.hasPrefix("preview completed") == true || lines.last?.hasPrefix("preview cancelled") == true)
    }
}
