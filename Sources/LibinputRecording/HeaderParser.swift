/// One content line of the header: indentation, and the text without comment and trailing blanks.
struct SourceLine {
    var number: Int
    var indent: Int
    var text: [UInt8]
    /// Byte offset of the line after this one.
    var nextOffset: Int64

    var isSequenceItem: Bool { text.first == Byte.dash && (text.count == 1 || text[1] == Byte.space) }
}

/// Parses everything but the event lists into `YAMLNode`s, one line of lookahead at a time.
/// Device event lists are skipped (their location kept); after the last declared device's
/// `events:` it stops reading, so a single-device file is not read twice.
final class HeaderParser {
    enum Context { case top, devices, device, other }

    let reader: LineReader
    var file: String { reader.path }
    private var lookahead: SourceLine?
    private var looked = false
    private var stopped = false
    private var sawContent = false
    private(set) var declaredDevices: Int?
    private var deviceCount = 0
    /// Block maps and lists open around the line being read. libinput writes five levels; deeper
    /// is an error, which bounds the recursion below (and the nodes' recursive teardown).
    private var depth = 0
    static let maximumDepth = 64
    /// Header bytes read (event lists excluded). libinput's headers are kilobytes; the nodes take
    /// about 15 times the text, so the limit bounds the memory a crafted header can take.
    private var headerBytes = 0
    static let maximumHeaderBytes = 4 << 20

    /// Counts a header line, or throws past `maximumHeaderBytes`.
    fileprivate func count(_ line: UnsafeBufferPointer<UInt8>) throws(RecordingError) {
        headerBytes += line.count + 1
        guard headerBytes <= Self.maximumHeaderBytes else {
            throw error(
                reader.lineNumber, nil, .tooLarge,
                "header longer than \(Self.maximumHeaderBytes >> 20) MiB: not a libinput recording")
        }
    }

    /// Enters one more level of block structure, or throws past `maximumDepth`.
    private func nest(_ line: Int, _ column: Int) throws(RecordingError) {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw error(line, column, .syntax, "maps and lists nested deeper than \(Self.maximumDepth) levels")
        }
    }

    init(reader: LineReader) {
        self.reader = reader
    }

    func error(_ line: Int, _ column: Int? = nil, _ kind: RecordingError.Kind = .syntax, _ reason: String)
        -> RecordingError
    {
        RecordingError(file: file, line: line, column: column, kind: kind, reason: reason)
    }

    // MARK: Lines

    private func peek() throws(RecordingError) -> SourceLine? {
        if looked || stopped { return stopped ? nil : lookahead }
        looked = true
        lookahead = nil
        while let raw = try reader.next() {
            try count(raw)
            if let cr = raw.firstIndex(of: Byte.carriageReturn) {
                throw error(
                    reader.lineNumber, cr + 1, .syntax,
                    "a carriage return (CR) inside a line: line breaks must be LF or CRLF, not lone CRs")
            }
            let (indent, hasTab) = LineScan.indent(raw)
            let end = LineScan.contentEnd(raw, from: indent)
            guard end > indent else { continue }
            if hasTab {
                throw error(reader.lineNumber, indent, .syntax, "tab in indentation (YAML indents with spaces)")
            }
            let text = Array(raw[indent..<end])
            if indent == 0 && text == Array("---".utf8) && !sawContent { continue }
            if indent == 0 && text == Array("...".utf8) {
                stopped = true
                return nil
            }
            sawContent = true
            lookahead = SourceLine(number: reader.lineNumber, indent: indent, text: text, nextOffset: reader.nextOffset)
            return lookahead
        }
        return nil
    }

    private func consume() {
        looked = false
        lookahead = nil
    }

    private func replaceLookahead(_ line: SourceLine) {
        lookahead = line
        looked = true
    }

    // MARK: Block structure

    func parseDocument() throws(RecordingError) -> YAMLNode {
        guard let first = try peek() else {
            throw error(0, nil, .syntax, "empty file: not a libinput recording")
        }
        guard first.indent == 0, !first.isSequenceItem, splitKey(first.text) != nil else {
            throw error(
                first.number, first.indent + 1, .syntax, "not a libinput recording (expected 'version: 1' style keys)")
        }
        let root = try parseMapping(indent: 0, context: .top)
        if let extra = try peek() {
            throw error(extra.number, extra.indent + 1, .syntax, "unexpected content at the top level")
        }
        return root
    }

    private func parseBlock(parentIndent: Int, context: Context) throws(RecordingError) -> YAMLNode {
        guard let line = try peek(), line.indent > parentIndent else { return .null(Mark(line: 0, column: 0)) }
        if line.isSequenceItem { return try parseSequence(indent: line.indent, context: context) }
        if splitKey(line.text) != nil { return try parseMapping(indent: line.indent, context: context) }
        consume()
        return try parseInline(line, from: 0)
    }

    private func parseSequence(indent: Int, context: Context) throws(RecordingError) -> YAMLNode {
        var items: [YAMLNode] = []
        let mark = Mark(line: (try peek())?.number ?? 0, column: indent + 1)
        try nest(mark.line, mark.column)
        defer { depth -= 1 }
        while let line = try peek(), line.indent == indent, line.isSequenceItem {
            consume()
            var restStart = 1
            while restStart < line.text.count && line.text[restStart] == Byte.space { restStart += 1 }
            let itemContext: Context = context == .devices ? .device : .other
            if itemContext == .device { deviceCount += 1 }
            if restStart >= line.text.count {
                items.append(try parseBlock(parentIndent: indent, context: itemContext))
                continue
            }
            let rest = SourceLine(
                number: line.number, indent: indent + restStart, text: Array(line.text[restStart...]),
                nextOffset: line.nextOffset)
            if rest.isSequenceItem {
                replaceLookahead(rest)
                items.append(try parseSequence(indent: rest.indent, context: .other))
            } else if splitKey(rest.text) != nil {
                replaceLookahead(rest)
                items.append(try parseMapping(indent: rest.indent, context: itemContext))
            } else {
                items.append(try parseInline(rest, from: 0))
                if let next = try peek(), next.indent > indent {
                    throw error(next.number, next.indent + 1, .syntax, "unexpected indentation")
                }
            }
        }
        return .sequence(items, mark)
    }

    private func parseMapping(indent: Int, context: Context) throws(RecordingError) -> YAMLNode {
        var entries: [(key: String, value: YAMLNode)] = []
        let mark = Mark(line: (try peek())?.number ?? 0, column: indent + 1)
        try nest(mark.line, mark.column)
        defer { depth -= 1 }
        while let line = try peek(), line.indent == indent, !line.isSequenceItem {
            guard let (key, valueStart) = splitKey(line.text) else {
                throw error(line.number, line.indent + 1, .syntax, "expected 'key: value'")
            }
            consume()
            var start = valueStart
            while start < line.text.count && line.text[start] == Byte.space { start += 1 }
            let value: YAMLNode
            if start < line.text.count {
                value = try parseInline(line, from: start)
            } else if context == .device && key == "events" {
                value = try skipEvents(keyLine: line)
            } else if let next = try peek(), next.indent > indent {
                value = try parseBlock(
                    parentIndent: indent, context: context == .top && key == "devices" ? .devices : .other)
            } else if let next = try peek(), next.indent == indent, next.isSequenceItem {
                value = try parseSequence(
                    indent: indent, context: context == .top && key == "devices" ? .devices : .other)
            } else {
                value = .null(Mark(line: line.number, column: line.indent + 1))
            }
            if context == .top && key == "ndevices", case .scalar(let text, _, _) = value, let count = Int(text),
                count > 0
            {
                declaredDevices = count
            }
            entries.append((key, value))
        }
        if let next = try peek(), next.indent > indent {
            throw error(next.number, next.indent + 1, .syntax, "unexpected indentation")
        }
        return .mapping(entries, mark)
    }

    /// Leaves a device's `events:` list in the file and remembers where it starts.
    private func skipEvents(keyLine: SourceLine) throws(RecordingError) -> YAMLNode {
        let location = EventsLocation(
            offset: keyLine.nextOffset, lineNumber: keyLine.number, keyIndent: keyLine.indent, keyLine: keyLine.number)
        let mark = Mark(line: keyLine.number, column: keyLine.indent + 1)
        if let declaredDevices, deviceCount >= declaredDevices {
            stopped = true  // the last device: its events run to the end of the file
            return .events(location, mark)
        }
        while let raw = try reader.next() {
            let (indent, _) = LineScan.indent(raw)
            guard indent < raw.count, raw[indent] != Byte.hash else { continue }
            if indent > keyLine.indent || (indent == keyLine.indent && raw[indent] == Byte.dash) { continue }
            let end = LineScan.contentEnd(raw, from: indent)
            if indent == 0 && raw[0..<end].elementsEqual("...".utf8) {
                stopped = true  // end of document
                break
            }
            replaceLookahead(
                SourceLine(
                    number: reader.lineNumber, indent: indent, text: Array(raw[indent..<end]),
                    nextOffset: reader.nextOffset))
            break
        }
        return .events(location, mark)
    }

    /// `key: value` split at the first `:` followed by a blank or the end, outside quotes;
    /// nil when the text is not a key (a flow node, a plain scalar).
    func splitKey(_ text: [UInt8]) -> (String, Int)? {
        guard let first = text.first, first != Byte.openBracket, first != Byte.openBrace else { return nil }
        if first == Byte.doubleQuote || first == Byte.singleQuote {
            var parser = FlowParser(text: text, line: 0, indent: 0, file: file, refill: nil)
            guard let key = try? parser.quoted(), parser.position < text.count, text[parser.position] == Byte.colon,
                parser.position + 1 == text.count || text[parser.position + 1] == Byte.space
            else { return nil }
            return (key, parser.position + 1)
        }
        var index = 0
        while index < text.count {
            if text[index] == Byte.colon && (index + 1 == text.count || text[index + 1] == Byte.space) {
                var end = index
                while end > 0 && text[end - 1] == Byte.space { end -= 1 }
                return (String(decoding: text[0..<end], as: UTF8.self), index + 1)
            }
            index += 1
        }
        return nil
    }

    /// A value on the rest of a line: a flow node (possibly continued on later lines), a quoted
    /// or a plain scalar.
    private func parseInline(_ line: SourceLine, from start: Int) throws(RecordingError) -> YAMLNode {
        let text = Array(line.text[start...])
        let mark = Mark(line: line.number, column: line.indent + start + 1)
        guard let first = text.first else { return .null(mark) }
        switch first {
        case Byte.openBracket, Byte.openBrace, Byte.doubleQuote, Byte.singleQuote:
            var parser = FlowParser(
                text: text, line: line.number, indent: line.indent + start, file: file,
                refill: { [unowned self] () throws(RecordingError) -> [UInt8]? in
                    while let raw = try reader.next() {
                        try count(raw)
                        let (indent, _) = LineScan.indent(raw)
                        let end = LineScan.contentEnd(raw, from: indent)
                        if end > indent { return Array(raw[indent..<end]) }
                    }
                    return nil
                })
            let node = try parser.node()
            parser.skipSpaces()
            if parser.position < parser.text.count {
                throw error(
                    parser.currentLine, nil, .syntax,
                    "unexpected '\(String(decoding: parser.text[parser.position...].prefix(20), as: UTF8.self))' after the value"
                )
            }
            return node
        case UInt8(ascii: "|"), UInt8(ascii: ">"):
            throw error(line.number, mark.column, .syntax, "block scalars are not part of libinput recordings")
        default:
            return FlowParser.plain(String(decoding: text, as: UTF8.self), quoted: false, mark: mark)
        }
    }
}
