import CSystemLayer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A connected pair of Unix stream sockets, both close-on-exec, each end owned: one end for
/// this process, the other to hand to a child (`ChildProcess(passing:)`) and then close.
public struct SocketPair: ~Copyable, Sendable {
    public let ours: Descriptor
    public let theirs: Descriptor

    public init() throws(SystemCallError) {
        var fds: [Int32] = [-1, -1]
        guard system_layer_socketpair_cloexec(&fds) == 0 else { throw SystemCallError() }
        ours = Descriptor(adopting: fds[0])
        theirs = Descriptor(adopting: fds[1])
    }

    /// Once the child has its copy: their end is closed here, ours handed back.
    public consuming func keepingOurs() -> Descriptor {
        try? theirs.close()
        return ours
    }
}
