import SystemLayer

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
    private let file: Descriptor
    /// The stream being spooled; nil for a regular file.
    private let stream: Stream?

    private final class Stream {
        let descriptor: Descriptor
        init(_ descriptor: consuming Descriptor) { self.descriptor = descriptor }
    }
    private var spooled: Int64 = 0
    private var streamEnded = false

    /// `-` is standard input.
    static let standardInputName = "<stdin>"

    static func open(_ path: String) throws(RecordingError) -> ByteSource {
        let opened: Descriptor
        let name = path == "-" ? standardInputName : path
        do {
            // Standard input through a copy of its number: this source's end leaves it open.
            opened = path == "-" ? try Descriptor(duplicating: 0) : try Descriptor(readingFrom: path)
        } catch {
            throw RecordingError(file: path, line: 0, kind: .io, reason: "cannot open: \(error)")
        }
        if path != "-", (try? opened.status().isRegularFile) == true { return ByteSource(file: opened, name: name) }
        return try ByteSource(stream: opened, name: name)
    }

    private init(file: consuming Descriptor, name: String) {
        self.file = file
        stream = nil
        self.name = name
    }

    private init(stream: consuming Descriptor, name: String) throws(RecordingError) {
        do {
            file = try Descriptor(unnamedFileIn: Self.temporaryDirectory())
        } catch {
            throw RecordingError(
                file: name, line: 0, kind: .io,
                reason: "cannot make a spool file for a stream in \(Self.temporaryDirectory()): \(error)")
        }
        self.stream = Stream(stream)
        self.name = name
    }

    private static func temporaryDirectory() -> String {
        if let value = Environment.value("TMPDIR"), value.hasPrefix("/") { return value }
        return "/tmp"
    }

    /// Reads up to `count` bytes at `offset`; 0 at the end. On a stream, waits for more to arrive
    /// when `offset` is at the end of what has arrived.
    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int, at offset: Int64) throws(RecordingError) -> Int {
        guard let stream else {
            return try failing(name, "read") { () throws(SystemCallError) in
                try file.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: count), at: offset)
            }
        }
        if offset < spooled {
            let available = Int(min(Int64(count), spooled - offset))
            return try failing(name, "read the spool of") { () throws(SystemCallError) in
                try file.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: available), at: offset)
            }
        }
        guard !streamEnded else { return 0 }
        guard offset == spooled else {
            throw RecordingError(
                file: name, line: 0, kind: .io, reason: "cannot read at \(offset): only \(spooled) bytes arrived")
        }
        let got = try failing(name, "read") { () throws(SystemCallError) in
            try stream.descriptor.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: count))
        }
        guard got > 0 else {
            streamEnded = true
            return 0
        }
        var written = 0
        while written < got {
            let more = try failing(name, "spool") { () throws(SystemCallError) in
                try file.write(
                    UnsafeRawBufferPointer(start: buffer + written, count: got - written), at: offset + Int64(written))
            }
            guard more > 0 else {
                throw RecordingError(file: name, line: 0, kind: .io, reason: "cannot spool: the disk is full")
            }
            written += more
        }
        spooled += Int64(got)
        return got
    }

    /// Every byte, for the general YAML reader; nil when there are more than `limit`.
    func readAll(limit: Int) throws(RecordingError) -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let got = try chunk.withUnsafeMutableBufferPointer { (buffer) throws(RecordingError) -> Int in
                try self.read(into: buffer.baseAddress!, count: buffer.count, at: Int64(bytes.count))
            }
            if got == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<got])
            if bytes.count > limit { return nil }
        }
    }
}

/// The call's result, or its failure as the recording's I/O error.
private func failing(_ name: String, _ verb: String, _ call: () throws(SystemCallError) -> Int) throws(RecordingError)
    -> Int
{
    do { return try call() } catch {
        throw RecordingError(file: name, line: 0, kind: .io, reason: "cannot \(verb): \(error)")
    }
}
