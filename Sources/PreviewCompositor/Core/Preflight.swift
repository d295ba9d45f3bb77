import SystemLayer

/// Checks that turn the usual ways of failing into one-line reasons *before* anything
/// is created, so a failed start leaves nothing behind.
enum Preflight {
    static func runtimeDirectory() throws(CompositorError) -> String {
        guard let directory = Environment.value("XDG_RUNTIME_DIR"), !directory.isEmpty else {
            throw .noRuntimeDirectory
        }
        return directory
    }

    /// Creates the directory (one level) when missing; it must end up writable.
    static func screenshotDirectory(_ path: String) throws(CompositorError) {
        do { try FileSystem.makeDirectory(path) } catch { throw .screenshotDirectory(path, error.description) }
        guard FileSystem.isWritableDirectory(path) else { throw .screenshotDirectory(path, "not a writable folder") }
    }

    /// Whether another process holds `name`'s lock file (what libwayland checks too).
    static func socketLocked(runtimeDirectory: String, name: String) -> Bool {
        let path = name.hasPrefix("/") ? name + ".lock" : runtimeDirectory + "/" + name + ".lock"
        guard let file = try? Descriptor(readingFrom: path) else { return false }
        return file.isLockedElsewhere
    }
}
