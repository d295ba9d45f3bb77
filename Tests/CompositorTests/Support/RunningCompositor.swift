import FixtureSupport
import Foundation
import PreviewCompositor
import Synchronization

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

final class ClientProcess: @unchecked Sendable {
    let process = Process()
    let outputPath: String
    /// Readable once the process exited: waits wake on it.
    var exitFD: Int32 { exit.read }
    private let exit: ExitPipe
    private let exited = DispatchSemaphore(value: 0)

    init(_ arguments: [String], socket: String, environment: [String: String]) throws {
        outputPath = TestRuntime.directory + "/client-\(UUID().uuidString.prefix(8)).log"
        // A file that could not be made is reported by FileHandle's open right after.
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["WAYLAND_DISPLAY"] = socket
        env["XDG_RUNTIME_DIR"] = TestRuntime.directory
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardOutput = handle
        process.standardError = handle
        exit = try ExitPipe()
        // The handler keeps the pipe open: Foundation may run it after this object is gone
        // (after terminate(), or a test that stopped early), and a write to a closed and reused
        // descriptor would land in another test's socket or pipe.
        process.terminationHandler = { [exited, exit] _ in
            exit.signal()
            exited.signal()
        }
        try process.run()
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
        let timedOut = exited.wait(timeout: .now() + timeout) == .timedOut
        if timedOut {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        return ClientRun(status: process.terminationStatus, output: output, timedOut: timedOut)
    }

    func terminate() -> ClientRun {
        // SIGKILL: children of the test runner inherit a mask that blocks SIGTERM.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return ClientRun(status: process.terminationStatus, output: output, timedOut: false)
    }
}

/// A pipe that becomes readable when a child exits; closed when the last holder lets go.
final class ExitPipe: @unchecked Sendable {
    let read: Int32
    private let write: Int32

    init() throws {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw POSIXError(.EMFILE) }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        (read, write) = (fds[0], fds[1])
    }

    func signal() {
        var one: UInt8 = 1
        _ = Glibc.write(write, &one, 1)
    }

    deinit {
        close(read)
        close(write)
    }
}

func startClient(_ arguments: [String], socket: String, environment: [String: String] = [:]) throws -> ClientProcess {
    try ClientProcess(arguments, socket: socket, environment: environment)
}
