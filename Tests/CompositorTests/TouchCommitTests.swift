import EvdevDecoder
import Foundation
import PreviewEngine
import Testing

/// The protocol's core-input rule for touch points: when the commit phase begins the client's
/// touch points are cancelled (wl_touch.cancel) and nothing more of that touch reaches it.
/// A real client (Tests/python/tablet_client.py) and synthetic touchscreen samples injected
/// into the in-process compositor (the fixtures have no touchscreen recording).
@Suite(.serialized) struct TouchCommitTests {
    static func now() -> Timestamp {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Timestamp(microseconds: Int64(t.tv_sec) * 1_000_000 + Int64(t.tv_nsec) / 1000)
    }

    static func waitFor(_ text: String, in path: String, timeout: Double = 20) -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var log = ""
        while Date() < deadline {
            log = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            if log.contains(text) { break }
            usleep(20_000)
        }
        return log
    }

    @Test func theCommitPhaseCancelsTheTouchAndSwallowsItsRelease() throws {
        // A generous should-begin wait: the client is Python on a machine shared with other tests.
        let compositor = try startCompositor { $0.engine.shouldBeginTimeout = .milliseconds(2000) }
        defer { compositor.stop() }
        let log = TestRuntime.temporaryDirectory("touch") + "/events.log"
        let client = try startClient(["python3", TabletTests.client, "--pointer", "--preview", log], socket: compositor.socketName)
        defer { _ = client.terminate() }
        #expect(Self.waitFor("mapped", in: log).contains("mapped"), "\(client.output)")

        let key = ContactKey(device: DeviceID(40), contact: 3)
        @Sendable func sample(_ force: Double) -> DeviceContact {
            DeviceContact(
                key: key, time: Self.now(), force: force, hasForce: true, position: NormalisedPoint(x: 0.5, y: 0.5),
                positioning: .absolute, source: .touchscreen)
        }
        // A press that ramps to full force over 0.6 s, holds, moves a little, then lifts.
        compositor.sync { $0.inject(.contactBegan(sample(0.05))); $0.inject(.frame(Self.now())) }
        for step in 1...80 {
            usleep(10_000)
            let force = min(1, 0.05 + Double(step) * 0.02)
            var sampled = sample(force)
            sampled.position.x += Double(step) / 10_000
            let moved = sampled
            compositor.sync { $0.inject(.contactChanged(moved)); $0.inject(.frame(Self.now())) }
        }
        compositor.sync { $0.inject(.contactEnded(key, time: Self.now(), reason: .lifted)); $0.inject(.frame(Self.now())) }
        let text = Self.waitFor("preview c", in: log)  // cancelled or completed
        let lines = text.split(separator: "\n").filter { !$0.hasPrefix("pointer") }

        let down = try #require(lines.firstIndex { $0.hasPrefix("touch down 3 ") }, "\(lines)")
        let ended = try #require(lines.firstIndex(of: "preview preview_ended 1"), "\(lines)")
        #expect(down < ended)
        #expect(lines[down..<ended].contains { $0.hasPrefix("touch motion 3 ") }, "motion is delivered during the preview phase")
        #expect(lines[ended + 1] == "touch cancel", "\(lines[ended...])")
        #expect(!lines[ended...].contains { $0.hasPrefix("touch motion") || $0.hasPrefix("touch up") }, "\(lines[ended...])")
        #expect(lines.last?.hasPrefix("preview completed") == true || lines.last?.hasPrefix("preview cancelled") == true)
    }
}
