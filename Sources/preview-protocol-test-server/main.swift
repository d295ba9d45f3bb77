// A display with a minimal wl_compositor and the preview interaction global, whose
// interactions are scripted (ScriptedInteractions), for clients written with other
// tooling (Tests/python). Prints `WAYLAND_DISPLAY=<name>` once it listens; exits 0 when
// its first clients have all disconnected, 1 on error.
//
// usage: preview-protocol-test-server [SOCKET] [--hostile flood|cancelled-commit X Y]
// --hostile: a window's globals too (wl_shm, xdg_wm_base: a toolkit's app maps), and the
// hostile compositor's scenario (HostileInteractions) for a pen press at X, Y.
import PreviewEngine
import SystemLayer
import WaylandServer
import _PreviewProtocolTestSupport

do {
    var arguments = Array(CommandLine.arguments.dropFirst())
    var hostile: (HostileInteractions.Scenario, Point)?
    if let flag = arguments.firstIndex(of: "--hostile") {
        guard arguments.count >= flag + 4, let scenario = HostileInteractions.Scenario(rawValue: arguments[flag + 1]),
            let x = Double(arguments[flag + 2]), let y = Double(arguments[flag + 3])
        else {
            print("preview-protocol-test-server: --hostile flood|cancelled-commit X Y")
            CurrentProcess.exit(2)
        }
        hostile = (scenario, Point(x: x, y: y))
        arguments.removeSubrange(flag..<flag + 4)
    }
    let harness = try ProtocolHarness()
    let windows = hostile.map { _ in WindowGlobals(display: harness.display) }
    let script: AnyObject =
        if let (scenario, point) = hostile {
            HostileInteractions(harness: harness, scenario: scenario, at: point) { line in
                print(line)
                CurrentProcess.flushOutput()
            }
        } else {
            ScriptedInteractions(harness: harness)
        }
    let name = try harness.display.addSocket(arguments.first)
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
    withExtendedLifetime((script, windows, clientCreated)) {}
} catch {
    print("preview-protocol-test-server: \(error)")
    CurrentProcess.exit(1)
}
