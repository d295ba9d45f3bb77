import Foundation
import Testing

/// The executable's one-line failures for the environment's faults (issue 5): status 1 and
/// `preview-compositor: <reason>` on stderr, nothing else.
@Suite(.serialized) struct ExecutableFailureTests {
    func run(_ arguments: [String]) throws -> ClientRun {
        try ClientProcess(arguments, socket: "", environment: [:]).finish(timeout: 30)
    }

    @Test func withoutXdgRuntimeDirItSaysSo() throws {
        let run = try run([
            "-u", "XDG_RUNTIME_DIR", ReplayRunTests.binaries + "/preview-compositor", "--backend", "headless",
        ])
        #expect(run.status == 1)
        #expect(
            run.output
                == "preview-compositor: XDG_RUNTIME_DIR is not set: there is nowhere to put the Wayland socket\n",
            "\(run.output)")
    }

    @Test func aSocketInUseIsNamed() throws {
        let compositor = try startCompositor()
        defer { compositor.stop() }
        let run = try run([
            ReplayRunTests.binaries + "/preview-compositor", "--backend", "headless", "--socket", compositor.socketName,
        ])
        #expect(run.status == 1)
        #expect(
            run.output
                == "preview-compositor: the Wayland socket \(compositor.socketName) is already in use by another compositor\n",
            "\(run.output)")
    }
}
