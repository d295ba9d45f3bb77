import Foundation

/// The one XDG_RUNTIME_DIR of the test process, for every test target: a private folder.
///
/// The variable is process-wide and read at unforeseeable moments (libwayland reads it when an
/// in-process compositor opens its socket; every child inherits it): two folders set by two
/// suites running at once would put a compositor's socket in one and tell its client the other,
/// or send one test's client to another test's compositor. So it is set before the process
/// starts: scripts/test makes the folder and names it in both XDG_RUNTIME_DIR and
/// PREVIEW_TESTS_RUNTIME_DIR. Only a bare `swift test` (no such folder) makes one here and puts
/// it in the environment, the first time any test asks.
public enum TestRuntimeDirectory {
    public static let path: String = {
        let environment = ProcessInfo.processInfo.environment
        if let given = environment["PREVIEW_TESTS_RUNTIME_DIR"], environment["XDG_RUNTIME_DIR"] == given,
            access(given, W_OK | X_OK) == 0
        {
            return given
        }
        let path = NSTemporaryDirectory() + "preview-tests-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        chmod(path, 0o700)
        setenv("XDG_RUNTIME_DIR", path, 1)
        return path
    }()
}
