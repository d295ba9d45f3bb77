import Glibc
import LibinputRecording
import SystemLayer

/// Checks that turn the usual ways of failing into one-line reasons *before* anything
/// is created, so a failed start leaves nothing behind.
enum Preflight {
    static func runtimeDirectory() throws(CompositorError) -> String {
        guard let dir = getenv("XDG_RUNTIME_DIR"), dir.pointee != 0 else { throw .noRuntimeDirectory }
        return String(cString: dir)
    }

    /// Reads every recording through to its last event, as preview-replay would, so a bad file
    /// is a one-line error before the socket opens (never an error in the log of a running
    /// compositor). Returns their headers, parsed once: the replay reads only events on the loop.
    static func recordings(_ paths: [String]) throws(CompositorError) -> [Recording] {
        var recordings: [Recording] = []
        for path in paths {
            let isDirectory: Bool
            do {
                let file = try Descriptor(opening: path, O_RDONLY)
                var info = stat()
                isDirectory = fstat(file.rawValue, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
            } catch {
                throw .unreadableRecording(path, error.description)
            }
            if isDirectory { throw .unreadableRecording(path, "is a directory") }
            do {
                let recording = try Recording.open(path)
                let frames = try recording.frames()
                while try frames.nextFrame() != nil {}
                recordings.append(recording)
            } catch {
                throw .invalidRecording(error.description)
            }
        }
        return recordings
    }

    /// Creates the directory (one level) when missing; it must end up writable.
    static func screenshotDirectory(_ path: String) throws(CompositorError) {
        if mkdir(path, 0o755) != 0 && errno != EEXIST { throw .screenshotDirectory(path, errnoText()) }
        guard access(path, W_OK | X_OK) == 0 else { throw .screenshotDirectory(path, errnoText()) }
    }

    /// Whether another process holds `name`'s lock file (what libwayland checks too).
    static func socketLocked(runtimeDirectory: String, name: String) -> Bool {
        let path = name.hasPrefix("/") ? name + ".lock" : runtimeDirectory + "/" + name + ".lock"
        guard let file = try? Descriptor(opening: path, O_RDONLY) else { return false }
        return flock(file.rawValue, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK
    }
}
