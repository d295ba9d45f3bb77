/// The private channel between the compositor and preview-lookup (Sources/preview-lookup/
/// lookup.h has the same numbers): frames of a u32 length and a body that starts with a u32
/// type; integers in the machine's order, strings as a u16 length and UTF-8 bytes.
enum LookupChannel {
    static let frameLimit = 16384
    static let stringLimit = 1024

    enum Kind: UInt32, Sendable {
        case nothing = 0, word = 1, link = 2
    }

    /// What the compositor asks.
    enum Request: Equatable, Sendable {
        /// What is at `point` (surface-local) of the window of process `pid`; `geometry` is the
        /// window geometry's offset in the surface (GTK 4 counts from there).
        case lookUp(id: UInt32, pid: Int32, x: Int32, y: Int32, geometryX: Int32, geometryY: Int32)
        /// The panel of lookup `id` is no longer shown.
        case hide(id: UInt32)
    }

    /// What preview-lookup answers.
    struct Answer: Equatable, Sendable {
        var id: UInt32
        var kind: Kind
        /// The word's (or link's) extents, surface-local; nil when the toolkit gave none.
        var extents: Rect?
        var microseconds: UInt32
        var toolkit: String
        var word: String
        var link: String
        var definition: String
    }

    enum Message: Equatable, Sendable {
        case answer(Answer)
        /// The user is done with the panel of lookup `id`.
        case dismiss(id: UInt32)
    }

    static func encode(_ request: Request) -> [UInt8] {
        var body: [UInt8] = []
        func put(_ value: UInt32) { withUnsafeBytes(of: value) { body.append(contentsOf: $0) } }
        switch request {
        case .lookUp(let id, let pid, let x, let y, let geometryX, let geometryY):
            put(1)
            for value in [id, UInt32(bitPattern: pid), UInt32(bitPattern: x), UInt32(bitPattern: y)] { put(value) }
            put(UInt32(bitPattern: geometryX))
            put(UInt32(bitPattern: geometryY))
        case .hide(let id):
            put(2)
            put(id)
        }
        var frame: [UInt8] = []
        withUnsafeBytes(of: UInt32(body.count)) { frame.append(contentsOf: $0) }
        return frame + body
    }

    /// Reads one body; nil for a message this compositor does not know or a malformed one.
    static func decode(_ body: ArraySlice<UInt8>) -> Message? {
        var reader = Reader(bytes: body)
        guard let type = reader.u32() else { return nil }
        switch type {
        case 101:
            guard let id = reader.u32(), let rawKind = reader.u32(), let kind = Kind(rawValue: rawKind),
                let x = reader.u32(), let y = reader.u32(), let width = reader.u32(), let height = reader.u32(),
                let microseconds = reader.u32(), let toolkit = reader.string(), let word = reader.string(),
                let link = reader.string(), let definition = reader.string()
            else { return nil }
            let rect = Rect(
                x: Int32(bitPattern: x), y: Int32(bitPattern: y), width: Int32(bitPattern: width),
                height: Int32(bitPattern: height))
            return .answer(
                Answer(
                    id: id, kind: kind, extents: rect.isEmpty ? nil : rect.clampedToClientLimits,
                    microseconds: microseconds, toolkit: toolkit, word: word, link: link, definition: definition))
        case 103:
            return reader.u32().map { .dismiss(id: $0) }
        default:
            return nil
        }
    }

    private struct Reader {
        var bytes: ArraySlice<UInt8>

        mutating func u32() -> UInt32? {
            guard bytes.count >= 4 else { return nil }
            var value: UInt32 = 0
            withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: bytes.prefix(4)) }
            bytes = bytes.dropFirst(4)
            return value
        }

        mutating func string() -> String? {
            guard bytes.count >= 2 else { return nil }
            let length = Int(bytes[bytes.startIndex]) | Int(bytes[bytes.startIndex + 1]) << 8
            bytes = bytes.dropFirst(2)
            guard length <= LookupChannel.stringLimit, bytes.count >= length else { return nil }
            defer { bytes = bytes.dropFirst(length) }
            return String(decoding: bytes.prefix(length), as: UTF8.self)
        }
    }

    /// Collects bytes as they arrive and yields whole frames; a frame over the limit is a
    /// broken peer (`overrun`).
    struct FrameReader {
        private var buffer: [UInt8] = []
        private(set) var overrun = false

        mutating func append(_ bytes: UnsafeRawBufferPointer) { buffer.append(contentsOf: bytes) }

        mutating func next() -> ArraySlice<UInt8>? {
            guard !overrun, buffer.count >= 4 else { return nil }
            var length: UInt32 = 0
            withUnsafeMutableBytes(of: &length) { $0.copyBytes(from: buffer.prefix(4)) }
            guard length <= LookupChannel.frameLimit else {
                overrun = true
                return nil
            }
            guard buffer.count >= 4 + Int(length) else { return nil }
            let body = Array(buffer[4..<(4 + Int(length))])
            buffer.removeFirst(4 + Int(length))
            return body[...]
        }
    }
}
