import CSystemLayer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Descriptors waited on together with poll(2). Made once and reused: a wait allocates nothing.
/// The descriptors are borrowed (their owners keep and close them); a negative one is skipped.
public struct PollSet {
    private var entries: [pollfd]

    /// Watches each descriptor for readability.
    public init(_ descriptors: [Int32]) {
        entries = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    }

    /// Changes what the descriptor at `index` is watched for.
    public mutating func watch(_ index: Int, readable: Bool = true, writable: Bool = false) {
        entries[index].events = (readable ? Int16(POLLIN) : 0) | (writable ? Int16(POLLOUT) : 0)
    }

    /// Replaces the descriptor at `index` (readable).
    public mutating func replace(_ index: Int, with descriptor: Int32) {
        entries[index] = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    }

    /// Waits until a descriptor is ready or `timeoutMilliseconds` pass (-1: for ever). Returns
    /// the number ready, 0 on timeout, -1 on an error (`EINTR` included: the caller's loop
    /// looks again).
    @discardableResult
    public mutating func wait(timeoutMilliseconds: Int32) -> Int {
        for index in entries.indices { entries[index].revents = 0 }
        return Int(poll(&entries, nfds_t(entries.count), timeoutMilliseconds))
    }

    /// Whether the last wait found the descriptor at `index` ready in any way (error and
    /// hang-up included).
    public func isReady(_ index: Int) -> Bool { entries[index].revents != 0 }

    /// Whether the last wait found something to read (or an error or hang-up to read) at `index`.
    public func isReadable(_ index: Int) -> Bool {
        entries[index].revents & Int16(POLLIN | POLLERR | POLLHUP) != 0
    }
}
