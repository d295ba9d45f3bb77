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

/// The should-begin wait (ms, `--should-begin-timeout`) that test runs give real clients whose
/// outcome they check: a debug client on a loaded two-core CI machine can take longer than the
/// user default (150 ms) to answer, and the interaction would end `timeout` instead of what the
/// recording does. Replays pause while a question is open, so a prompt client costs nothing
/// more. The engine's own timeout is tested in PreviewEngineTests and with its option.
public let slowClientShouldBeginTimeout = 10_000
