#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a file or stream line by line through one fixed buffer (grown only for a longer line),
/// so memory stays bounded whatever the input size. A returned line is valid until the next call.
final class LineReader {
    let source: ByteSource
    var path: String { source.name }
    /// Where the next read from the source starts.
    private var readOffset: Int64
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var start = 0
    private var end = 0
    private var atEOF = false
    /// Number of the line last returned (1-based).
    private(set) var lineNumber: Int
    /// Byte offset of the line last returned, and of the line after it.
    private(set) var lineOffset: Int64 = 0
    private(set) var nextOffset: Int64
    /// Lines longer than this are not a recording.
    static let maximumLineLength = 16 << 20

    init(source: ByteSource, offset: Int64 = 0, lineNumber: Int = 0, bufferSize: Int = 256 << 10) {
        self.source = source
        readOffset = offset
        capacity = bufferSize
        buffer = .allocate(capacity: bufferSize)
        self.lineNumber = lineNumber
        nextOffset = offset
    }

    deinit {
        buffer.deallocate()
    }

    /// The next line without its line break (and without a trailing CR), nil at the end.
    func next() throws(RecordingError) -> UnsafeBufferPointer<UInt8>? {
        while true {
            if start < end, let found = memchr(buffer + start, 0x0A, end - start) {
                let newline = found.assumingMemoryBound(to: UInt8.self) - buffer
                return take(upTo: newline, consumed: newline + 1)
            }
            if atEOF {
                guard start < end else { return nil }
                return take(upTo: end, consumed: end)
            }
            try fill()
        }
    }

    private func take(upTo lineEnd: Int, consumed: Int) -> UnsafeBufferPointer<UInt8> {
        var length = lineEnd - start
        if length > 0 && buffer[start + length - 1] == 0x0D { length -= 1 }
        let line = UnsafeBufferPointer(start: buffer + start, count: length)
        lineNumber += 1
        lineOffset = nextOffset
        nextOffset += Int64(consumed - start)
        start = consumed
        return line
    }

    private func fill() throws(RecordingError) {
        if start > 0 {
            if end > start { memmove(buffer, buffer + start, end - start) }
            end -= start
            start = 0
        }
        if end == capacity {
            guard capacity < Self.maximumLineLength else {
                throw RecordingError(
                    file: path, line: lineNumber + 1, kind: .syntax,
                    reason: "line longer than \(Self.maximumLineLength >> 20) MiB: not a libinput recording")
            }
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
            bigger.update(from: buffer, count: end)
            buffer.deallocate()
            buffer = bigger
            capacity *= 2
        }
        let count = try source.read(into: buffer + end, count: capacity - end, at: readOffset)
        if count == 0 {
            atEOF = true
            return
        }
        end += count
        readOffset += Int64(count)
    }
}
