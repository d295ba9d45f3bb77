// A display with a minimal wl_compositor and the preview interaction global, whose
// interactions are scripted (ScriptedInteractions), for clients written with other
// tooling (Tests/python). Prints `WAYLAND_DISPLAY=<name>` once it listens; exits 0 when
// its first clients have all disconnected, 1 on error.
import SystemLayer
import WaylandServer
import _PreviewProtocolTestSupport

do {
    let harness = try ProtocolHarness()
    let script = ScriptedInteractions(harness: harness)
    let name = try harness.display.addSocket(CommandLine.arguments.dropFirst().first)
    print("WAYLAND_DISPLAY=\(name)")
    CurrentProcess.flushOutput()  // the parent reads this line before it connects
    var connected = 0
    var clientListeners: [Listener] = []
    let clientCreated = Listener { data in
        guard let data else { return }
        connected += 1
        let gone = Listener { _ in
            connected -= 1
            if connected == 0 { harness.display.terminate() }
        }
        gone.listen(toDestroyOf: Client(OpaquePointer(data)))
        clientListeners.append(gone)
    }
    clientCreated.listen(toClientCreatedOn: harness.display)
    harness.display.run()
    withExtendedLifetime((script, clientCreated)) {}
} catch {
    print("preview-protocol-test-server: \(error)")
    CurrentProcess.exit(1)
}
