import Foundation

/// The project's executables next to the running one (`.build/release/…`), and the checkout.
public struct Tools: Sendable {
    public var directory: String

    public init(directory: String) { self.directory = directory }

    /// The folder of the running executable (`/proc/self/exe`, so symlinks and relative
    /// invocations resolve).
    public static func beside(_ argument0: String) -> Tools {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? argument0
        return Tools(directory: URL(fileURLWithPath: exe).deletingLastPathComponent().path)
    }

    public var compositor: String { directory + "/preview-compositor" }
    public var client: String { directory + "/peek-client" }

    /// Whether the compositor and the sample client are built and are the real thing (the
    /// client's placeholder has no options).
    public var compositorReady: Bool {
        let files = FileManager.default
        guard files.isExecutableFile(atPath: compositor), files.isExecutableFile(atPath: client) else { return false }
        guard let help = try? ChildProcess.output(of: [client, "--help"]) else { return false }
        return help.contains("--exit-after-interactions") && compositorServes
    }

    /// Whether the compositor serves clients and offers them preview interactions: it runs
    /// wayland-info (a third-party client) and exits with it (--exit-when-done), and the global
    /// `spi_preview_interaction_manager_v1` is in the list. A placeholder exits 1 at once; a
    /// compositor that does not advertise the protocol yet would leave peek-client waiting.
    var compositorServes: Bool {
        let listing = NSTemporaryDirectory() + "preview-demo-probe-\(getpid()).txt"
        let log = NSTemporaryDirectory() + "preview-demo-probe-\(getpid()).log"
        defer {
            try? FileManager.default.removeItem(atPath: listing)
            try? FileManager.default.removeItem(atPath: log)
        }
        let arguments = [
            compositor, "--socket", "preview-demo-probe-\(getpid())", "--exit-when-done", "--run",
            "exec wayland-info > \(shellQuote(listing)) 2>&1",
        ]
        guard let probe = try? ChildProcess(arguments, log: log), probe.wait(timeout: 10) == 0,
            let globals = try? String(contentsOfFile: listing, encoding: .utf8)
        else { return false }
        return globals.contains("spi_preview_interaction_manager_v1")
    }

    /// The checkout: the nearest folder up from here (or from this source file) with Package.swift.
    public static func packageRoot(file: String = #filePath) -> String {
        for start in [
            FileManager.default.currentDirectoryPath, URL(fileURLWithPath: file).deletingLastPathComponent().path,
        ] {
            var url = URL(fileURLWithPath: start)
            while url.path != "/" {
                if FileManager.default.fileExists(atPath: url.path + "/Package.swift")
                    && FileManager.default.fileExists(atPath: url.path + "/Tests/Fixtures/recordings")
                {
                    return url.path
                }
                url.deleteLastPathComponent()
            }
        }
        return FileManager.default.currentDirectoryPath
    }
}

/// A child process and the ways the demo and the tests wait on one: its exit (never a sleep).
public final class ChildProcess: @unchecked Sendable {
    public let process = Process()

    /// Starts `arguments[0]` with the rest; stdout and stderr to `log` (nil: inherited).
    public init(_ arguments: [String], environment: [String: String] = [:], log: String? = nil) throws {
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        if let log {
            FileManager.default.createFile(atPath: log, contents: nil)
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
            process.standardOutput = handle
            process.standardError = handle
        }
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    public var pid: Int32 { process.processIdentifier }

    /// Waits for the exit, at most `timeout` seconds (then SIGTERM, and SIGKILL if that is
    /// ignored); returns the exit status, or nil when it had to be stopped.
    public func wait(timeout: Double) -> Int32? {
        let done = DispatchSemaphore(value: 0)
        let process = self.process
        DispatchQueue.global().async {
            process.waitUntilExit()
            done.signal()
        }
        if done.wait(timeout: .now() + timeout) == .timedOut {
            kill(pid, SIGTERM)
            if done.wait(timeout: .now() + 5) == .timedOut {
                kill(pid, SIGKILL)
                done.wait()
            }
            return nil
        }
        return process.terminationStatus
    }

    /// Runs to completion and returns stdout (short helper for `--help` probes).
    public static func output(of arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}

/// A shell word: single-quoted, so paths with spaces survive `--run`.
public func shellQuote(_ word: String) -> String {
    "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
