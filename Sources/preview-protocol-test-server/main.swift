// A display with a minimal wl_compositor and the preview interaction global, whose
// interactions are scripted (ScriptedInteractions), for clients written with other
// tooling (Tests/python). Prints `WAYLAND_DISPLAY=<name>` once it listens; exits 0 when
// its first clients have all disconnected, 1 on error.
//
// usage: preview-protocol-test-server [SOCKET] [--hostile SCENARIO X Y] [--configure W H]
//        [--output-scale S]
// --hostile: a window's globals too (wl_shm, xdg_wm_base: a toolkit's app maps), and the
// hostile compositor's scenario (HostileInteractions: press, flood, cancelled-commit) for a pen
// press at X, Y; --configure: every toplevel's first configure (0 0: the client chooses);
// --output-scale: a wl_output of that scale, which every window enters.
import PreviewEngine
import SystemLayer
import WaylandServer
import _PreviewProtocolTestSupport

do {
    var arguments = Array(CommandLine.arguments.dropFirst())
    /// The values after `flag` (removed from the arguments), nil without the flag.
    func values(_ flag: String, _ count: Int) -> [String]? {
        guard let index = arguments.firstIndex(of: flag) else { return nil }
        guard arguments.count > index + count else {
            print("preview-protocol-test-server: \(flag) takes \(count) value(s)")
            CurrentProcess.exit(2)
        }
        defer { arguments.removeSubrange(index...index + count) }
        return Array(arguments[index + 1...index + count])
    }
    func number<T: LosslessStringConvertible>(_ text: String) -> T {
        guard let value = T(text) else {
            print("preview-protocol-test-server: \(text) is not a number")
            CurrentProcess.exit(2)
        }
        return value
    }
    var hostile: (HostileInteractions.Scenario, Point)?
    if let given = values("--hostile", 3) {
        guard let scenario = HostileInteractions.Scenario(rawValue: given[0]) else {
            print("preview-protocol-test-server: --hostile press|flood|cancelled-commit X Y")
            CurrentProcess.exit(2)
        }
        hostile = (scenario, Point(x: number(given[1]), y: number(given[2])))
    }
    var options = WindowGlobals.Options()
    if let size = values("--configure", 2) { options.configure = (number(size[0]), number(size[1])) }
    if let scale = values("--output-scale", 1) { options.outputScale = number(scale[0]) }
    let harness = try ProtocolHarness()
    let windows = hostile.map { _ in WindowGlobals(display: harness.display, options: options) }
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
