import SystemLayer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a recording's bytes come from. A regular file is read at any offset. A stream
/// (standard input as `-`, a pipe, a FIFO, `/dev/fd/N`) is copied to an unlinked spool file as
/// it is read, so the header and every device's event list can each read at their own offset
/// while the stream is still arriving (`libinput record | preview-replay -`): memory stays one
/// buffer per reader, and a reader at the end of what has arrived waits for more.
///
/// Not thread-safe: a recording is read from one thread at a time.
final class ByteSource: @unchecked Sendable {
    /// The name in messages: the path, or `<stdin>`.
    let name: String
    /// The file, or the spool of a stream.
    private let fd: Int32
    /// The stream being spooled; nil for a regular file.
    private let stream: Int32?
    private let ownsStream: Bool
    private var spooled: Int64 = 0
    private var streamEnded = false

    /// `-` is standard input.
    static let standardInputName = "<stdin>"

    static func open(_ path: String) throws(RecordingError) -> ByteSource {
        if path == "-" { return try ByteSource(stream: 0, owned: false, name: standardInputName) }
        let fd = openForReading(path)
        guard fd >= 0 else {
            throw RecordingError(file: path, line: 0, kind: .io, reason: "cannot open: " + errnoText())
        }
        var info = stat()
        if fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG {
            return ByteSource(file: fd, name: path)
        }
        do {
            return try ByteSource(stream: fd, owned: true, name: path)
        } catch {
            close(fd)
            throw error
        }
    }

    private init(file: Int32, name: String) {
        fd = file
        stream = nil
        ownsStream = false
        self.name = name
    }

    private init(stream: Int32, owned: Bool, name: String) throws(RecordingError) {
        var template = Array((Self.temporaryDirectory() + "/preview-replay-spool-XXXXXX").utf8CString)
        let spool = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard spool >= 0 else {
            throw RecordingError(
                file: name, line: 0, kind: .io,
                reason: "cannot make a spool file for a stream in \(Self.temporaryDirectory()): " + errnoText())
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        _ = fcntl(spool, F_SETFD, FD_CLOEXEC)
        fd = spool
        self.stream = stream
        ownsStream = owned
        self.name = name
    }

    deinit {
        close(fd)
        if let stream, ownsStream { close(stream) }
    }

    private static func temporaryDirectory() -> String {
        if let value = getenv("TMPDIR"), value.pointee == UInt8(ascii: "/") { return String(cString: value) }
        return "/tmp"
    }

    /// Reads up to `count` bytes at `offset`; 0 at the end. On a stream, waits for more to arrive
    /// when `offset` is at the end of what has arrived.
    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int, at offset: Int64) throws(RecordingError) -> Int {
        guard let stream else { return try Self.retrying(name, "read") { pread(fd, buffer, count, off_t(offset)) } }
        if offset < spooled {
            let available = Int(min(Int64(count), spooled - offset))
            return try Self.retrying(name, "read the spool of") { pread(fd, buffer, available, off_t(offset)) }
        }
        guard !streamEnded else { return 0 }
        guard offset == spooled else {
            throw RecordingError(
                file: name, line: 0, kind: .io, reason: "cannot read at \(offset): only \(spooled) bytes arrived")
        }
        let got = try Self.retrying(name, "read") { readStream(stream, buffer, count) }
        guard got > 0 else {
            streamEnded = true
            return 0
        }
        var written = 0
        while written < got {
            let more = try Self.retrying(name, "spool") {
                pwrite(fd, buffer + written, got - written, off_t(offset) + off_t(written))
            }
            guard more > 0 else {
                throw RecordingError(file: name, line: 0, kind: .io, reason: "cannot spool: the disk is full")
            }
            written += more
        }
        spooled += Int64(got)
        return got
    }

    private static func retrying(_ name: String, _ verb: String, _ call: () -> Int) throws(RecordingError) -> Int {
        while true {
            let result = call()
            if result >= 0 { return result }
            if errno == EINTR { continue }
            throw RecordingError(file: name, line: 0, kind: .io, reason: "cannot \(verb): " + errnoText())
        }
    }

    /// Every byte, for the general YAML reader; nil when there are more than `limit`.
    func readAll(limit: Int) throws(RecordingError) -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let got = try chunk.withUnsafeMutableBufferPointer { (buffer) throws(RecordingError) -> Int in
                try read(into: buffer.baseAddress!, count: buffer.count, at: Int64(bytes.count))
            }
            if got == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<got])
            if bytes.count > limit { return nil }
        }
    }
}

private func openForReading(_ path: String) -> Int32 { open(path, O_RDONLY | O_CLOEXEC) }

private func readStream(_ fd: Int32, _ buffer: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int {
    read(fd, buffer, count)
}
