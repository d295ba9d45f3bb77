import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What a run must undo when it is interrupted (Ctrl-C, SIGTERM): stop its children and remove
/// its private folders (runtime folder, FIFO). Normal exits undo them in place; this covers the
/// signals, which would otherwise leave a compositor running and folders behind.
public enum Interruption {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var children: Set<Int32> = []
    nonisolated(unsafe) private static var folders: Set<String> = []
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    /// Handles SIGINT and SIGTERM from now on: children get SIGTERM, folders go, exit 128 + signal.
    public static func install() {
        lock.withLock {
            guard sources.isEmpty else { return }
            for number in [SIGINT, SIGTERM] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { interrupted(by: number) }
                source.resume()
                sources.append(source)
            }
        }
    }

    public static func track(child pid: Int32) { _ = lock.withLock { children.insert(pid) } }
    public static func forget(child pid: Int32) { _ = lock.withLock { children.remove(pid) } }
    public static func track(folder path: String) { _ = lock.withLock { folders.insert(path) } }
    public static func forget(folder path: String) { _ = lock.withLock { folders.remove(path) } }

    private static func interrupted(by number: Int32) {
        let (pids, paths) = lock.withLock { (children, folders) }
        for pid in pids { kill(pid, SIGTERM) }
        for path in paths { try? FileManager.default.removeItem(atPath: path) }
        Terminal.error("\npreview-demo: interrupted")
        exit(128 + number)
    }
}
