/// Flow nodes (`[1, 2]`, `{time: 1.5, type: X}`) and quoted scalars. A flow node may continue
/// on following lines (libinput writes long `hid:` descriptors that way): `refill` supplies them.
struct FlowParser {
    var text: [UInt8]
    var position = 0
    var currentLine: Int
    let indent: Int
    let file: String
    let refill: (() throws(RecordingError) -> [UInt8]?)?

    init(text: [UInt8], line: Int, indent: Int, file: String, refill: (() throws(RecordingError) -> [UInt8]?)?) {
        self.text = text
        self.currentLine = line
        self.indent = indent
        self.file = file
        self.refill = refill
    }

    private func error(_ kind: RecordingError.Kind, _ reason: String) -> RecordingError {
        RecordingError(file: file, line: currentLine, column: nil, kind: kind, reason: reason)
    }

    private var mark: Mark { Mark(line: currentLine, column: indent + position + 1) }

    static func plain(_ text: String, quoted: Bool, mark: Mark) -> YAMLNode {
        if !quoted && (text.isEmpty || text == "null" || text == "~" || text == "Null" || text == "NULL") {
            return .null(mark)
        }
        return .scalar(text, quoted: quoted, mark)
    }

    mutating func skipSpaces() {
        while position < text.count && (text[position] == Byte.space || text[position] == Byte.tab) { position += 1 }
    }

    /// Skips blanks, pulling the next line when this one is used up inside a flow node.
    private mutating func skipSpacesAcrossLines(opened: Int) throws(RecordingError) {
        while true {
            skipSpaces()
            if position < text.count { return }
            guard let refill, let more = try refill() else {
                throw error(.truncated, "unclosed '[' or '{' (opened on line \(opened))")
            }
            currentLine += 1
            text.append(Byte.space)
            text.append(contentsOf: more)
        }
    }

    /// Flow nodes nested deeper than this are an error (libinput writes two levels). Parsing is
    /// iterative and the node tree is freed recursively, so the limit bounds the stack either way.
    static let maximumDepth = 64

    /// A `[` or `{` being read: its items so far.
    private struct OpenCollection {
        let isSequence: Bool
        let mark: Mark
        let openedLine: Int
        var items: [YAMLNode] = []
        var entries: [(key: String, value: YAMLNode)] = []
        /// Mappings: the key whose value is being read.
        var key: String?

        var closer: UInt8 { isSequence ? Byte.closeBracket : Byte.closeBrace }
        var node: YAMLNode { isSequence ? .sequence(items, mark) : .mapping(entries, mark) }

        mutating func add(_ value: YAMLNode) {
            if isSequence {
                items.append(value)
            } else {
                entries.append((key ?? "", value))
                key = nil
            }
        }
    }

    /// One value starting at `position` (blank skipped): a scalar, or a flow collection read with
    /// an explicit stack of the collections still open.
    mutating func node() throws(RecordingError) -> YAMLNode {
        skipSpaces()
        guard position < text.count else { return .null(mark) }
        var open: [OpenCollection] = []
        while true {
            // At the start of a value.
            var value: YAMLNode?
            let mark = self.mark
            switch text[position] {
            case Byte.openBracket, Byte.openBrace:
                guard open.count < Self.maximumDepth else {
                    throw error(.syntax, "'[' and '{' nested deeper than \(Self.maximumDepth) levels")
                }
                open.append(
                    OpenCollection(isSequence: text[position] == Byte.openBracket, mark: mark, openedLine: currentLine))
                position += 1
            case Byte.doubleQuote, Byte.singleQuote:
                value = .scalar(try quoted(), quoted: true, mark)
            case Byte.comma where !open.isEmpty:
                throw error(.syntax, "empty list element")
            default:
                value = Self.plain(plainScalar(stopAtColon: false), quoted: false, mark: mark)
            }
            // Hand finished values to the collection around them until one needs another value.
            while true {
                guard var top = open.popLast() else { return value ?? .null(mark) }
                if let finished = value {
                    top.add(finished)
                    value = nil
                    try skipSpacesAcrossLines(opened: top.openedLine)
                    if text[position] == Byte.comma {
                        position += 1
                    } else if text[position] != top.closer {
                        throw error(
                            .syntax, top.isSequence ? "expected ',' or ']' in a list" : "expected ',' or '}' in a map")
                    }
                }
                try skipSpacesAcrossLines(opened: top.openedLine)
                if text[position] == top.closer {
                    position += 1
                    value = top.node
                    continue
                }
                if !top.isSequence {
                    // A key, and a value unless it is `key` or `key:` alone.
                    top.key =
                        text[position] == Byte.doubleQuote || text[position] == Byte.singleQuote
                        ? try quoted() : plainScalar(stopAtColon: true)
                    try skipSpacesAcrossLines(opened: top.openedLine)
                    let missing = self.mark
                    var hasValue = false
                    if text[position] == Byte.colon {
                        position += 1
                        try skipSpacesAcrossLines(opened: top.openedLine)
                        hasValue = text[position] != Byte.comma && text[position] != top.closer
                    }
                    if !hasValue {
                        value = .null(missing)
                        open.append(top)
                        continue
                    }
                }
                open.append(top)
                break
            }
        }
    }

    private mutating func plainScalar(stopAtColon: Bool) -> String {
        let start = position
        while position < text.count {
            let byte = text[position]
            if byte == Byte.comma || byte == Byte.closeBracket || byte == Byte.closeBrace { break }
            if stopAtColon && byte == Byte.colon && (position + 1 == text.count || text[position + 1] == Byte.space) {
                break
            }
            position += 1
        }
        var end = position
        while end > start && (text[end - 1] == Byte.space || text[end - 1] == Byte.tab) { end -= 1 }
        return String(decoding: text[start..<end], as: UTF8.self)
    }

    /// A double- or single-quoted scalar starting at `position`.
    mutating func quoted() throws(RecordingError) -> String {
        let quote = text[position]
        position += 1
        var bytes: [UInt8] = []
        while position < text.count {
            let byte = text[position]
            position += 1
            if byte == quote {
                if quote == Byte.singleQuote && position < text.count && text[position] == Byte.singleQuote {
                    bytes.append(quote)
                    position += 1
                    continue
                }
                return String(decoding: bytes, as: UTF8.self)
            }
            if byte == Byte.backslash && quote == Byte.doubleQuote {
                guard position < text.count else { break }
                let escape = text[position]
                position += 1
                switch escape {
                case UInt8(ascii: "n"): bytes.append(0x0A)
                case UInt8(ascii: "t"): bytes.append(0x09)
                case UInt8(ascii: "r"): bytes.append(0x0D)
                case UInt8(ascii: "0"): bytes.append(0)
                case UInt8(ascii: "x"): try appendScalar(hexDigits: 2, into: &bytes)
                case UInt8(ascii: "u"): try appendScalar(hexDigits: 4, into: &bytes)
                case UInt8(ascii: "U"): try appendScalar(hexDigits: 8, into: &bytes)
                default: bytes.append(escape)  // \" \\ \/ and friends
                }
                continue
            }
            bytes.append(byte)
        }
        throw error(.syntax, "unterminated quoted string")
    }

    private mutating func appendScalar(hexDigits: Int, into bytes: inout [UInt8]) throws(RecordingError) {
        guard position + hexDigits <= text.count,
            let value = UInt32(String(decoding: text[position..<position + hexDigits], as: UTF8.self), radix: 16),
            let scalar = Unicode.Scalar(value)
        else { throw error(.syntax, "bad escape in a quoted string") }
        position += hexDigits
        bytes.append(contentsOf: Array(String(Character(scalar)).utf8))
    }
}
