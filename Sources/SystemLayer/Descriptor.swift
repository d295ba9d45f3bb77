import CSystemLayer

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
@frozen  // the Embedded build allows `discard self` in frozen types only
public struct Descriptor: ~Copyable, Sendable {
    /// The number, for the C APIs that take one; valid only while this value lives.
    public let rawValue: Int32

    /// Opens `path` with `flags` (`O_CLOEXEC` added), retrying on `EINTR`.
    public init(opening path: String, _ flags: Int32, permissions: mode_t = 0o644) throws(SystemCallError) {
        while true {
            let fd = system_layer_open(path, flags | O_CLOEXEC, permissions)
            if fd >= 0 {
                rawValue = fd
                return
            }
            let code = errno
            if code != EINTR { throw SystemCallError(code) }
        }
    }

    /// A second descriptor of the open file `fd` (close-on-exec): standard input read through
    /// a value of its own, whose end does not close the process's standard input.
    public init(duplicating fd: Int32) throws(SystemCallError) {
        let copy = system_layer_duplicate_cloexec(fd)
        guard copy >= 0 else { throw SystemCallError() }
        rawValue = copy
    }

    /// A new file in `directory` with no name, read-write: it is gone when this value ends.
    public init(unnamedFileIn directory: String) throws(SystemCallError) {
        let fd = system_layer_unnamed_file(directory)
        guard fd >= 0 else { throw SystemCallError() }
        rawValue = fd
    }

    /// Opens `path` for reading.
    public init(readingFrom path: String) throws(SystemCallError) {
        try self.init(opening: path, O_RDONLY)
    }

    /// Opens a device node read-write and non-blocking (a haptic pad's force feedback),
    /// close-on-exec like every descriptor here.
    public init(openingDevice path: String) throws(SystemCallError) {
        try self.init(opening: path, O_RDWR | O_NONBLOCK)
    }

    /// Reads to the end of the file (or of the stream).
    public func readAll() throws(SystemCallError) -> [UInt8] {
        var bytes: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 1)
        defer { chunk.deallocate() }
        while true {
            let count = try read(into: chunk)
            if count == 0 { return bytes }
            bytes += chunk[..<count]
        }
    }

    /// Takes ownership of a descriptor another API opened and hands over (a descriptor received
    /// in a Wayland event or request, one a C caller gives up): this value closes it.
    public init(adopting rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// Makes sure the descriptor is close-on-exec (one adopted from an API that may not have
    /// opened it so): no child started later inherits it.
    public func setCloseOnExec() throws(SystemCallError) {
        let flags = system_layer_fcntl(rawValue, F_GETFD, 0)
        guard flags >= 0, system_layer_fcntl(rawValue, F_SETFD, flags | FD_CLOEXEC) == 0 else {
            throw SystemCallError()
        }
    }

    /// Whether the descriptor is close-on-exec (false when the descriptor is not open).
    public var isCloseOnExec: Bool {
        let flags = system_layer_fcntl(rawValue, F_GETFD, 0)
        return flags >= 0 && flags & FD_CLOEXEC != 0
    }

    /// Makes reads and writes return `EAGAIN` instead of blocking.
    public func setNonBlocking() throws(SystemCallError) {
        let flags = system_layer_fcntl(rawValue, F_GETFL, 0)
        guard flags >= 0, system_layer_fcntl(rawValue, F_SETFL, flags | O_NONBLOCK) == 0 else {
            throw SystemCallError()
        }
    }

    /// Reads at most `buffer.count` bytes, retrying on `EINTR`: the number read, 0 at the end.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int {
        let fd = rawValue
        return try retryingInterrupted { systemRead(fd, buffer.baseAddress, buffer.count) }
    }

    /// Reads at `offset` without moving the file position (pread), retrying on `EINTR`.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(SystemCallError) -> Int {
        let fd = rawValue
        return try retryingInterrupted { pread(fd, buffer.baseAddress, buffer.count, off_t(offset)) }
    }

    /// Writes at `offset` without moving the file position (pwrite), retrying on `EINTR`: the
    /// number written.
    public func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(SystemCallError) -> Int {
        let fd = rawValue
        return try retryingInterrupted { pwrite(fd, bytes.baseAddress, bytes.count, off_t(offset)) }
    }

    /// Writes all of `bytes` (retrying on `EINTR` and after short writes): throws on the first
    /// failure, `EAGAIN` included on a non-blocking descriptor.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
        try writeAll(rawValue, bytes)
    }

    /// Writes all of `text`'s UTF-8 bytes.
    public func write(_ text: String) throws(SystemCallError) {
        var text = text
        var failure: SystemCallError?
        text.withUTF8 { bytes in
            do throws(SystemCallError) { try write(UnsafeRawBufferPointer(bytes)) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Whether another open file holds an exclusive lock on this file (flock; what libwayland
    /// checks of a socket's lock file).
    public var isLockedElsewhere: Bool {
        flock(rawValue, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK
    }

    /// The file's size and kind (fstat).
    public func status() throws(SystemCallError) -> FileStatus {
        var info = stat()
        guard fstat(rawValue, &info) == 0 else { throw SystemCallError() }
        return FileStatus(info)
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
        #else  // Embedded: no Glibc module, libc through the layer's header
            guard CSystemLayer.close(fd) == 0 else { throw SystemCallError() }
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
        #else  // Embedded: no Glibc module, libc through the layer's header
            _ = CSystemLayer.close(rawValue)
        #endif
    }
}

/// What fstat(2) says of a file: its size and kind.
public struct FileStatus: Sendable, Equatable {
    public var size: Int64
    public var isRegularFile: Bool
    public var isDirectory: Bool

    init(_ info: stat) {
        size = Int64(info.st_size)
        isRegularFile = system_layer_is_regular_file(info.st_mode) != 0
        isDirectory = system_layer_is_directory(info.st_mode) != 0
    }
}

extension SystemCallError {
    /// The calling thread's errno now (right after the call that failed).
    public static var last: SystemCallError { SystemCallError(errno) }

    /// The call would have blocked (`EAGAIN`): try again when the descriptor is ready.
    public var wouldBlock: Bool { code == EAGAIN || code == EWOULDBLOCK }

    /// The call was interrupted by a signal (`EINTR`).
    public var interrupted: Bool { code == EINTR }

    /// A protocol error (`EPROTO`: what libwayland says after a peer's protocol error).
    public var isProtocolError: Bool { code == EPROTO }
}

/// A call returning a count or -1, made again while it fails with `EINTR`.
func retryingInterrupted(_ call: () -> Int) throws(SystemCallError) -> Int {
    while true {
        let count = call()
        if count >= 0 { return count }
        let code = errno
        if code != EINTR { throw SystemCallError(code) }
    }
}

/// read(2) on a number (the module's own name for it: `Descriptor.read` hides the C one).
func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.read(fd, buffer, count)
    #elseif canImport(Musl)
        Musl.read(fd, buffer, count)
    #elseif canImport(Darwin)
        Darwin.read(fd, buffer, count)
    #else  // Embedded: no Glibc module, libc through the layer's header
        CSystemLayer.read(fd, buffer, count)
    #endif
}

/// Writes all of `bytes` to the descriptor numbered `fd`, retrying on `EINTR` and after short
/// writes (a borrowed number: standard output and error, or a `Descriptor`'s).
func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
    guard let base = bytes.baseAddress else { return }  // nil only for an empty buffer
    var offset = 0
    while offset < bytes.count {
        let written = try retryingInterrupted {
            #if canImport(Glibc)
                Glibc.write(fd, base + offset, bytes.count - offset)
            #elseif canImport(Musl)
                Musl.write(fd, base + offset, bytes.count - offset)
            #elseif canImport(Darwin)
                Darwin.write(fd, base + offset, bytes.count - offset)
            #else  // Embedded: no Glibc module, libc through the layer's header
                CSystemLayer.write(fd, base + offset, bytes.count - offset)
            #endif
        }
        guard written > 0 else { throw SystemCallError(EIO) }  // no progress: never spin
        offset += written
    }
}
