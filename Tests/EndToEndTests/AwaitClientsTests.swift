import DemoReport
import Foundation
import PreviewEngine
import PreviewTrace
import SystemLayer
import Testing
import _FixtureTestSupport

/// `--await-clients`: a replay at the recording's pace whose next stroke waits until the app has
/// committed what the last stroke's end changed, as a person's next press would find it. The
/// app (`v2_client.py --empty-region-after-end 2`) is slow on purpose: two seconds after the
/// pen's light tap ends it empties its region, later than the recording's next press comes.
struct AwaitClientsTests {
    static func run(awaiting: Bool, name: String = #function) throws -> (trace: [TraceRecord], log: String) {
        _ = TestRuntimeDirectory.path
        let folder = scratchDirectory(name)
        let client =
            "exec /usr/bin/python3 "
            + shellQuote(ParityBuilds.root + "/Tests/python/v2_client.py")
            + " --empty-region-after-end 2 --until-disconnected"
        let child = try ChildProcess(
            [
                tools.compositor, "--backend", "headless", "--socket", "wayland-await-\(UUID().uuidString.prefix(8))",
                "--replay", Fixtures.path("dell-canvas-isdv4-pen.yml"), "--exit-when-done", "--trace",
                folder + "/trace.jsonl", "--run", client,
            ] + (awaiting ? ["--await-clients"] : []), output: .file(folder + "/compositor.log"))
        // The compositor exits once the replay has ended and the clients settled; the timeout
        // only catches a hang.
        #expect(child.wait(timeout: 90) == 0)
        return (
            (try? TraceReader.read(path: folder + "/trace.jsonl")) ?? [],
            FileWatch.contents(of: folder + "/compositor.log")
        )
    }

    @Test("The firm press waits for the slow app's new region, and misses it")
    func theNextStrokeMeetsWhatTheAppCommitted() throws {
        let run = try Self.run(awaiting: true)
        #expect(run.log.contains("region emptied"), "\(run.log.suffix(3000))")
        #expect(
            Set(run.trace.map(\.interaction)) == [InteractionID(1)],
            "only the tap: \(run.trace)\n\(run.log.suffix(3000))")
        #expect(!run.log.contains("did not catch up"), "\(run.log.suffix(3000))")
    }

    @Test("At the recording's pace alone, the firm press comes before the slow app's commit")
    func withoutWaitingThePressMeetsTheOldRegion() throws {
        let run = try Self.run(awaiting: false)
        #expect(Set(run.trace.map(\.interaction)).count == 2, "the tap and the firm press: \(run.trace)")
    }
}
