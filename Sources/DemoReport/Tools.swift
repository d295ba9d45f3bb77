import Foundation

/// The project's executables next to the running one (`.build/release/…`).
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

    /// The executables the compositor path needs that are not built here (empty: it can run).
    public var missingForCompositor: [String] {
        [compositor, client].filter { !FileManager.default.isExecutableFile(atPath: $0) }
            .map { URL(fileURLWithPath: $0).lastPathComponent }
    }
}

/// A child process and the ways the demo and the tests wait on one: its exit (never a sleep).
public final class ChildProcess: @unchecked Sendable {
    public let process = Process()

    /// Starts `arguments[0]` with the rest; stdout and stderr to `log` (nil: inherited). The
    /// environment is ours with `environment` set and the `unsetting` names removed.
    public init(
        _ arguments: [String], environment: [String: String] = [:], unsetting: [String] = [], log: String? = nil
    ) throws {
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        var merged = ProcessInfo.processInfo.environment
        for key in unsetting { merged[key] = nil }
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        if let log {
            // A file that could not be made is reported by FileHandle's open right after.
            _ = FileManager.default.createFile(atPath: log, contents: nil)
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

    /// Runs to completion and returns stdout (short helper for `--help` probes), with
    /// `environment` added to ours.
    public static func output(of arguments: [String], environment: [String: String] = [:]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
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
