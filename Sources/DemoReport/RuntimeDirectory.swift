import Foundation
import SystemLayer

/// Where the demo's Wayland socket goes: `$XDG_RUNTIME_DIR` when it is usable, otherwise a
/// private folder made for this run (mode 0700, removed when the run ends), as weston's test
/// harness does. Fresh machines, containers and CI jobs have no login session, so no runtime
/// folder, and the compositor cannot start without one.
public final class RuntimeDirectory: @unchecked Sendable {
    public let path: String
    /// Made for this run (and removed by `remove()`).
    public let isPrivate: Bool
    /// Why the environment's folder was not used (nil when it was).
    public let reason: String?

    /// Uses `environment["XDG_RUNTIME_DIR"]` if it is usable, else makes a private folder.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) throws(RunError) {
        let given = environment["XDG_RUNTIME_DIR"]
        if let problem = Self.problem(with: given) {
            var template = Array((NSTemporaryDirectory() + "preview-demo-runtime-XXXXXX").utf8CString)
            // mkdtemp makes the folder with mode 0700, as XDG_RUNTIME_DIR must be.
            guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
                throw RunError("\(problem), and a private one could not be made: \(errnoText())")
            }
            path = String(cString: made)
            isPrivate = true
            reason = problem
        } else {
            path = given!
            isPrivate = false
            reason = nil
        }
    }

    /// What the compositor and its clients need in their environment.
    public var environment: [String: String] { ["XDG_RUNTIME_DIR": path] }

    /// Why `path` cannot hold our socket (nil: it can): unset, relative, missing, not a folder,
    /// someone else's, or not writable.
    public static func problem(with path: String?) -> String? {
        guard let path, !path.isEmpty else { return "XDG_RUNTIME_DIR is not set" }
        guard path.hasPrefix("/") else { return "XDG_RUNTIME_DIR=\(path) is not an absolute path" }
        var info = stat()
        guard stat(path, &info) == 0 else { return "XDG_RUNTIME_DIR=\(path): \(errnoText())" }
        guard info.st_mode & S_IFMT == S_IFDIR else { return "XDG_RUNTIME_DIR=\(path) is not a directory" }
        guard info.st_uid == geteuid() else { return "XDG_RUNTIME_DIR=\(path) belongs to another user" }
        guard access(path, W_OK | X_OK) == 0 else { return "XDG_RUNTIME_DIR=\(path) is not writable" }
        return nil
    }

    /// Removes a private folder with whatever a killed compositor left in it (socket, lock).
    /// Leaves the environment's own folder alone. Safe to call more than once.
    public func remove() {
        guard isPrivate else { return }
        try? FileManager.default.removeItem(atPath: path)
    }

    deinit { remove() }
}
