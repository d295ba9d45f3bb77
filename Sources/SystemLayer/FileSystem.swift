import CSystemLayer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Paths: folders made and checked, files linked and copied.
public enum FileSystem {
    /// Makes the folder `path` (its parent must exist); one that exists already is fine.
    public static func makeDirectory(_ path: String, permissions: mode_t = 0o755) throws(SystemCallError) {
        if mkdir(path, permissions) != 0 && errno != EEXIST { throw SystemCallError() }
    }

    /// Whether this process may create files in the folder `path` (write and search access).
    /// Whether this process may run `path` (a file with execute permission for it).
    public static func isExecutable(_ path: String) -> Bool {
        guard let status = try? status(path), status.isRegularFile else { return false }
        return access(path, X_OK) == 0
    }

    public static func isWritableDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && system_layer_is_directory(info.st_mode) != 0 && access(path, W_OK | X_OK) == 0
    }

    /// What stat(2) says of `path` (links followed).
    public static func status(_ path: String) throws(SystemCallError) -> FileStatus {
        var info = stat()
        guard stat(path, &info) == 0 else { throw SystemCallError() }
        return FileStatus(info)
    }

    /// A second name for the file `existing` (a hard link); false where links are refused
    /// (another file system, or one without links).
    public static func hardLink(_ existing: String, as path: String) -> Bool {
        link(existing, path) == 0
    }

    /// Copies the file `existing` to `path` (created or truncated).
    public static func copyFile(_ existing: String, to path: String) throws(SystemCallError) {
        let input = try Descriptor(readingFrom: existing)
        let output = try Descriptor(opening: path, O_WRONLY | O_CREAT | O_TRUNC)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let count = try input.read(into: buffer)
            if count == 0 { break }
            try output.write(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
        try output.close()
    }

    /// Removes the file `path`; one that is already gone is fine.
    public static func removeFile(_ path: String) throws(SystemCallError) {
        if unlink(path) != 0 && errno != ENOENT { throw SystemCallError() }
    }
}
