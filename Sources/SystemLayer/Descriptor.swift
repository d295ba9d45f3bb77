#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed system call's errno, with its text.
public struct SystemCallError: Error, Equatable, CustomStringConvertible {
    public let code: Int32
    public init(_ code: Int32 = errno) { self.code = code }
    public var description: String { errnoText(code) }
}

/// A file descriptor this process owns: always opened close-on-exec (no child we start keeps a
/// device or a file open), closed exactly once.
///
/// A noncopyable struct rather than a final class: the compiler rejects a copy, a use after
/// `close()` and a second close, and owning a descriptor costs no allocation. `deinit` closes
/// one its owner did not close or hand over (every exit path).
public struct Descriptor: ~Copyable, Sendable {
    /// The number, for the C APIs that take one; valid only while this value lives.
    public let rawValue: Int32

    /// Opens `path` with `flags` (`O_CLOEXEC` added), retrying on `EINTR`.
    public init(opening path: String, _ flags: Int32, permissions: mode_t = 0o644) throws(SystemCallError) {
        while true {
            let fd = open(path, flags | O_CLOEXEC, permissions)
            if fd >= 0 {
                rawValue = fd
                return
            }
            let code = errno
            if code != EINTR { throw SystemCallError(code) }
        }
    }

    /// Closes the descriptor. Never retried: Linux frees the number even when close(2) fails
    /// (`EINTR` included), so a retry could close another thread's new descriptor.
    public consuming func close() throws(SystemCallError) {
        let fd = rawValue
        discard self
        #if canImport(Glibc)
            guard Glibc.close(fd) == 0 else { throw SystemCallError() }
        #elseif canImport(Musl)
            guard Musl.close(fd) == 0 else { throw SystemCallError() }
        #elseif canImport(Darwin)
            guard Darwin.close(fd) == 0 else { throw SystemCallError() }
        #endif
    }

    /// Hands the number to an API that takes ownership of it (and closes it): this value no
    /// longer closes it.
    public consuming func release() -> Int32 {
        let fd = rawValue
        discard self
        return fd
    }

    deinit {
        #if canImport(Glibc)
            _ = Glibc.close(rawValue)
        #elseif canImport(Musl)
            _ = Musl.close(rawValue)
        #elseif canImport(Darwin)
            _ = Darwin.close(rawValue)
        #endif
    }
}
