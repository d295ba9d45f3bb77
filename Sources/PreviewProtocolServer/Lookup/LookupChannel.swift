/// The private channel between the compositor and preview-lookup (Sources/preview-lookup/
/// lookup.h has the same numbers): frames of a u32 length and a body that starts with a u32
/// type; integers in the machine's order, strings as a u16 length and UTF-8 bytes.
public enum LookupChannel {
    public static let frameLimit = 16384
    public static let stringLimit = 1024

    public enum Kind: UInt32, Sendable {
        case nothing = 0, word = 1, link = 2
        /// Data detectors: a date or time, a phone number, an e-mail address, a file's path.
        case date = 3, phone = 4, email = 5, file = 6
    }

    /// What the compositor asks.
    public enum Request: Equatable, Sendable {
        /// What is at `point` (surface-local) of the window of process `pid`; `geometry` is the
        /// window geometry's offset in the surface (GTK 4 counts from there); `deadline`: how
        /// long the compositor waits for the answer (ms), which preview-lookup's search and
        /// call timeouts follow.
        case lookUp(id: UInt32, pid: Int32, x: Int32, y: Int32, geometryX: Int32, geometryY: Int32, deadline: UInt32)
        /// The same at the text caret of the window's focused text, or at `point` without one
        /// (the preview key).
        case lookUpCaret(
            id: UInt32, pid: Int32, x: Int32, y: Int32, geometryX: Int32, geometryY: Int32, deadline: UInt32)
        /// The panel of lookup `id` is no longer shown.
        case hide(id: UInt32)
    }

    /// What preview-lookup answers.
    public struct Answer: Equatable, Sendable {
        public var id: UInt32
        public var kind: Kind
        /// The word's (or link's) extents, surface-local; nil when the toolkit gave none.
        public var extents: LookupRect?
        public var microseconds: UInt32
        public var toolkit: String
        public var word: String
        public var link: String
        public var definition: String

        public init(
            id: UInt32, kind: Kind, extents: LookupRect?, microseconds: UInt32 = 0, toolkit: String = "",
            word: String = "", link: String = "", definition: String = ""
        ) {
            self.id = id
            self.kind = kind
            self.extents = extents
            self.microseconds = microseconds
            self.toolkit = toolkit
            self.word = word
            self.link = link
            self.definition = definition
        }
    }

    public enum Message: Equatable, Sendable {
        case answer(Answer)
        /// The user is done with the panel of lookup `id`.
        case dismiss(id: UInt32)
    }

    public static func encode(_ request: Request) -> [UInt8] {
        var body: [UInt8] = []
        func put(_ value: UInt32) { withUnsafeBytes(of: value) { body.append(contentsOf: $0) } }
        switch request {
        case .lookUp(let id, let pid, let x, let y, let geometryX, let geometryY, let deadline),
            .lookUpCaret(let id, let pid, let x, let y, let geometryX, let geometryY, let deadline):
            if case .lookUp = request { put(1) } else { put(3) }
            for value in [id, UInt32(bitPattern: pid), UInt32(bitPattern: x), UInt32(bitPattern: y)] { put(value) }
            put(UInt32(bitPattern: geometryX))
            put(UInt32(bitPattern: geometryY))
            put(deadline)
        case .hide(let id):
            put(2)
            put(id)
        }
        var frame: [UInt8] = []
        withUnsafeBytes(of: UInt32(body.count)) { frame.append(contentsOf: $0) }
        return frame + body
    }

    /// Reads one body; nil for a message this compositor does not know or a malformed one.
    public static func decode(_ body: ArraySlice<UInt8>) -> Message? {
        var reader = Reader(bytes: body)
        guard let type = reader.u32() else { return nil }
        switch type {
        case 101:
            guard let id = reader.u32(), let rawKind = reader.u32(), let kind = Kind(rawValue: rawKind),
                let x = reader.u32(), let y = reader.u32(), let width = reader.u32(), let height = reader.u32(),
                let microseconds = reader.u32(), let toolkit = reader.string(), let word = reader.string(),
                let link = reader.string(), let definition = reader.string()
            else { return nil }
            let rect = LookupRect(
                x: Int32(bitPattern: x), y: Int32(bitPattern: y), width: Int32(bitPattern: width),
                height: Int32(bitPattern: height))
            return .answer(
                Answer(
                    id: id, kind: kind, extents: rect.isEmpty ? nil : rect.clamped,
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
    public struct FrameReader {
        private var buffer: [UInt8] = []
        public private(set) var overrun = false

        public init() {}

        public mutating func append(_ bytes: UnsafeRawBufferPointer) { buffer.append(contentsOf: bytes) }

        public mutating func next() -> ArraySlice<UInt8>? {
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

/// A word's extents, surface-local, as preview-lookup reports them (bounded: a position within
/// ±2^20 and a size within 2^20, so sums with any on-screen offset stay in range).
public struct LookupRect: Hashable, Sendable {
    public var x: Int32
    public var y: Int32
    public var width: Int32
    public var height: Int32

    public init(x: Int32, y: Int32, width: Int32, height: Int32) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var isEmpty: Bool { width <= 0 || height <= 0 }

    static let limit: Int32 = 1 << 20

    var clamped: LookupRect {
        LookupRect(
            x: max(-Self.limit, min(Self.limit, x)), y: max(-Self.limit, min(Self.limit, y)),
            width: max(0, min(Self.limit, width)), height: max(0, min(Self.limit, height)))
    }
}
