import DemoReport
import Foundation
import PreviewTrace
import SystemLayer
import Testing
import _FixtureTestSupport

/// The report that found the library trapping in its host, as a new user ran it: the wlroots
/// example with peek-client and the Dell pen recording replayed twice, whose second press lands
/// on the photo page's accelerator zoom (a version 2 client's accelerator area) with the
/// example's phase callback set.
@Suite struct WlrootsAcceleratorTests {
    @Test("A press on peek-client's accelerator zoom through the wlroots example: stages in its trace, no trap")
    func dellPenTwiceReachesTheAccelerator() throws {
        let folder = Paths.scratch("wlroots-accelerator")
        let build = try make("examples/wlroots-compositor", ["OUT=\(folder)/build"], log: folder + "/make.log")
        try #require(build.status == 0, "\(build.output)")
        let recording = Fixtures.path("dell-canvas-isdv4-pen.yml")
        let trace = folder + "/trace.jsonl"
        let client = "exec '\(Paths.binaries)/peek-client' --log > '\(folder)/client.log' 2>&1"
        let process = try ChildProcess(
            [
                folder + "/build/preview-wlroots-compositor", "--decoder", Paths.binaries + "/preview-replay",
                "--replay", recording, recording, "--trace", trace, "--exit-when-done", "--should-begin-timeout",
                String(slowClientShouldBeginTimeout), "--run", client,
            ], environment: ["XDG_RUNTIME_DIR": folder], unsetting: ["WAYLAND_DISPLAY"],
            output: .file(folder + "/compositor.log"))
        let status = process.wait(timeout: 180)
        let log = FileWatch.contents(of: folder + "/compositor.log")
        #expect(status == 0, "\(log)")
        #expect(!log.contains("Fatal error"), "\(log)")
        let records = try TraceReader.read(path: trace)
        let stages = records.filter { $0.stage != nil }
        #expect(stages.first?.stage == 1, "the accelerator's first level:\n\(log)")
        // Each accelerator interaction ends once, through the phase callback.
        for interaction in Set(stages.map(\.interaction)) {
            let ends = records.filter { $0.interaction == interaction && $0.isFinal }
            #expect(ends.count == 1, "\(interaction): \(records.filter { $0.interaction == interaction })")
        }
    }
}
