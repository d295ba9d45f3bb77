import CSystemLayer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A self-pipe that wakes a thread waiting in poll or in an event loop: other threads call
/// `wake()`, the waiting thread watches `fileDescriptor` and calls `drain()` when it is readable.
/// Both ends are made close-on-exec and non-blocking by one pipe2(2) call, so a child spawned by
/// another thread at any moment inherits neither, and a wake never blocks on a full pipe (a
/// full pipe is already readable: the wake is not lost).
public final class WakePipe: Sendable {
    private let readEnd: Descriptor
    private let writeEnd: Descriptor

    public init() throws(SystemCallError) {
        var fds: [Int32] = [-1, -1]
        guard system_layer_pipe_wake(&fds) == 0 else { throw SystemCallError() }
        readEnd = Descriptor(adopting: fds[0])
        writeEnd = Descriptor(adopting: fds[1])
    }

    /// The end to watch for readability; valid while this pipe lives.
    public var fileDescriptor: Int32 { readEnd.rawValue }

    /// Makes `fileDescriptor` readable (any thread).
    public func wake() {
        var byte: UInt8 = 1
        _ = withUnsafeBytes(of: &byte) { try? writeEnd.write($0) }
    }

    /// Empties the pipe: it is readable again only after the next `wake()`.
    public func drain() {
        var buffer = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        let size = MemoryLayout.size(ofValue: buffer)
        while true {
            let count = withUnsafeMutableBytes(of: &buffer) { (try? readEnd.read(into: $0)) ?? 0 }
            // Less than asked for: the pipe was empty after it (one read, not two, per wake).
            if count < size { return }
        }
    }
}
