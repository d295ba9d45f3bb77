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

/// A shell word: single-quoted, so paths with spaces survive `--run`.
public func shellQuote(_ word: String) -> String {
    "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
