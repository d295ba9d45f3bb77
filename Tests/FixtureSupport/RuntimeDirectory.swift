import Foundation

/// The one XDG_RUNTIME_DIR of the test process, for every test target: a private folder, put
/// in the environment once, the first time any test asks for it.
///
/// The variable is process-wide and read at unforeseeable moments (libwayland reads it when an
/// in-process compositor opens its socket; every child inherits it): two folders set by two
/// suites running at once would put a compositor's socket in one and tell its client the other,
/// or send one test's client to another test's compositor.
public enum TestRuntimeDirectory {
    public static let path: String = {
        let path = NSTemporaryDirectory() + "preview-tests-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        chmod(path, 0o700)
        setenv("XDG_RUNTIME_DIR", path, 1)
        return path
    }()
}
