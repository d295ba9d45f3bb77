import Foundation
import PreviewCompositor
import Synchronization
import SystemLayer
import _FixtureTestSupport

/// The test process's XDG_RUNTIME_DIR (`TestRuntimeDirectory`), and a unique socket name per
/// compositor started in it.
enum TestRuntime {
    static var directory: String { TestRuntimeDirectory.path }

    private static let counter = Mutex(0)

    static func uniqueSocket() -> String {
        _ = directory
        return "wayland-test-\(counter.withLock { $0 += 1; return $0 })"
    }

    static func temporaryDirectory(_ label: String) -> String {
        let path = directory + "/\(label)-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

/// Starts a compositor in-process on a fresh socket.
func startCompositor(_ tweak: (inout CompositorConfiguration) -> Void = { _ in }) throws -> CompositorThread {
    var configuration = CompositorConfiguration()
    configuration.socketName = TestRuntime.uniqueSocket()
    tweak(&configuration)
    return try CompositorThread(configuration: configuration)
}

/// A real client program against `socket`: its output and exit status.
struct ClientRun {
    var status: Int32
    var output: String
    var timedOut: Bool
}

/// Runs `arguments` with WAYLAND_DISPLAY=socket, waits for it to exit (killed after
/// `timeout` seconds, which is then reported), and returns stdout+stderr.
func runClient(_ arguments: [String], socket: String, timeout: Double = 20, environment: [String: String] = [:])
    throws -> ClientRun
{
    let process = try startClient(arguments, socket: socket, environment: environment)
    return process.finish(timeout: timeout)
}

final class ClientProcess: Sendable {
    let child: ChildProcess
    let outputPath: String
    var pid: Int32 { child.pid }
    /// Readable once the process exited: waits wake on it.
    var exitFD: Int32 { child.exitDescriptor }
    var isRunning: Bool { child.isRunning }

    init(_ arguments: [String], socket: String, environment: [String: String]) throws {
        outputPath = TestRuntime.directory + "/client-\(UUID().uuidString.prefix(8)).log"
        let own = ["WAYLAND_DISPLAY": socket, "XDG_RUNTIME_DIR": TestRuntime.directory]
        child = try ChildProcess(
            ["/usr/bin/env"] + arguments, environment: own.merging(environment) { $1 }, output: .file(outputPath))
    }

    var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }

    /// Waits until the output contains `text` (or the process exits).
    func waitForOutput(_ text: String, timeout: Double = 20) -> Bool {
        FileWatch.waitForText(in: outputPath, timeout: timeout, wake: exitFD) { $0.contains(text) }.contains(text)
    }

    /// Waits until `path` (a file the process writes) satisfies `condition`, or the process
    /// exits; returns the file's last text.
    /// The text when `condition` held (or at the timeout); callers that only wait ignore it.
    @discardableResult
    func waitForText(in path: String, timeout: Double = 60, until condition: (String) -> Bool) -> String {
        FileWatch.waitForText(in: path, timeout: timeout, wake: exitFD, until: condition)
    }

    func finish(timeout: Double) -> ClientRun {
        let status = child.wait(timeout: timeout, grace: 0)
        return ClientRun(status: status ?? child.termination?.status ?? -1, output: output, timedOut: status == nil)
    }

    func terminate() -> ClientRun {
        ClientRun(status: child.stop().status, output: output, timedOut: false)
    }
}

func startClient(_ arguments: [String], socket: String, environment: [String: String] = [:]) throws -> ClientProcess {
    try ClientProcess(arguments, socket: socket, environment: environment)
}
