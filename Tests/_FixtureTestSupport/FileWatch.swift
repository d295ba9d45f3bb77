import Glibc
import SystemLayer

/// Waits for what other processes write (a client's log, a socket appearing) without polling:
/// the condition is checked again each time something in the file's directory changes
/// (inotify), or `wake` becomes readable (a child's exit), until it holds or time runs out.
public enum FileWatch {
    /// Returns whether `condition` held before `timeout` seconds passed.
    public static func wait(
        inDirectoryOf path: String, timeout: Double, wake: Int32? = nil, until condition: () -> Bool
    ) -> Bool {
        if condition() { return true }
        let notify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard notify >= 0 else { return condition() }
        defer { close(notify) }
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let mask = UInt32(IN_MODIFY | IN_CREATE | IN_CLOSE_WRITE | IN_MOVED_TO | IN_DELETE)
        guard inotify_add_watch(notify, directory.isEmpty ? "/" : directory, mask) >= 0 else { return condition() }
        let deadline = monotonicMilliseconds() + Int64(timeout * 1000)
        var buffer = [UInt8](repeating: 0, count: 4096)
        // Checked once more after the watch exists: a change just before it was added counts.
        while !condition() {
            let left = deadline - monotonicMilliseconds()
            guard left > 0 else { return false }
            var fds = [pollfd(fd: notify, events: Int16(POLLIN), revents: 0)]
            if let wake { fds.append(pollfd(fd: wake, events: Int16(POLLIN), revents: 0)) }
            _ = poll(&fds, nfds_t(fds.count), Int32(clamping: left))
            while read(notify, &buffer, buffer.count) > 0 {}
            if fds.count > 1, fds[1].revents != 0 { return condition() }
        }
        return true
    }

    /// Waits until the text of `path` satisfies `condition`; returns the last text read.
    @discardableResult
    public static func waitForText(
        in path: String, timeout: Double, wake: Int32? = nil, until condition: (String) -> Bool
    ) -> String {
        var text = ""
        _ = wait(inDirectoryOf: path, timeout: timeout, wake: wake) {
            text = contents(of: path)
            return condition(text)
        }
        return text
    }

    public static func contents(of path: String) -> String {
        guard let file = fopen(path, "r") else { return "" }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n <= 0 { break }
            bytes += chunk[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func monotonicMilliseconds() -> Int64 { MonotonicTime.microseconds() / 1000 }
}
