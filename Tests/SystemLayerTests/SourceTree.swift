import SystemLayer

/// The repository's files, read by the tests that hold the tree to its rules (rules/).
enum SourceTree {
    /// The repository's root (this file is Tests/SystemLayerTests/SourceTree.swift).
    static let root: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path
    }()

    /// The text of `path` (relative to the root).
    static func read(_ path: String) throws -> String {
        let file = try Descriptor(readingFrom: root + "/" + path)
        return String(decoding: try file.readAll(), as: UTF8.self)
    }

    /// Every `.swift` file below `folder` (relative paths, sorted), from git's list of the files
    /// it tracks or would track (untracked, not ignored): a new file counts before it is committed.
    static func swiftFiles(under folder: String) throws -> [String] {
        try files(under: folder).filter { $0.hasSuffix(".swift") }
    }

    /// Every file below `folder`, as `swiftFiles` finds them.
    static func files(under folder: String) throws -> [String] {
        let run = try ChildProcess.run(
            ["git", "-C", root, "ls-files", "--cached", "--others", "--exclude-standard", "--", folder],
            timeout: 60)
        guard run.status == 0 else { throw TreeError("git ls-files failed: \(run.errors)") }
        return run.output.split(separator: "\n").map(String.init).sorted()
    }

    struct TreeError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
