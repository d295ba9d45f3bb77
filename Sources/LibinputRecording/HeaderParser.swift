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
    /// is an error, which bounds the parser's stack (and the nodes' recursive teardown).
    private var open: [OpenNode] = []
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
        let root = try parseBlocks()
        if let extra = try peek() {
            throw error(extra.number, extra.indent + 1, .syntax, "unexpected content at the top level")
        }
        return root
    }

    /// A block map or list being read: its indentation, what it holds so far and, for a map,
    /// the key whose value is being read.
    private struct OpenNode {
        let isSequence: Bool
        let indent: Int
        let context: Context
        let mark: Mark
        var items: [YAMLNode] = []
        var entries: [(key: String, value: YAMLNode)] = []
        var pendingKey: String?
    }

    /// What reading a value found: a finished node, or a block map or list that starts here
    /// (pushed onto `open`, its node delivered when it closes).
    private enum Value {
        case node(YAMLNode)
        case opened
    }

    /// Reads the top-level map and everything in it with an explicit stack of open maps and
    /// lists: no recursion on the file's nesting, and a depth error past `maximumDepth`.
    private func parseBlocks() throws(RecordingError) -> YAMLNode {
        try openBlock(isSequence: false, indent: 0, context: .top)
        while let top = open.last {
            let found = try top.isSequence ? nextItem(of: top) : nextEntry(of: top)
            switch found {
            case .opened: continue
            case .node(let node): try deliver(node)
            case nil:
                // The map or list ended: its node becomes its parent's next value.
                if !top.isSequence, let next = try peek(), next.indent > top.indent {
                    throw error(next.number, next.indent + 1, .syntax, "unexpected indentation")
                }
                let closed = open.removeLast()
                let node: YAMLNode =
                    closed.isSequence ? .sequence(closed.items, closed.mark) : .mapping(closed.entries, closed.mark)
                guard !open.isEmpty else { return node }
                try deliver(node)
            }
        }
        return .null(Mark(line: 0, column: 0))  // unreachable: the root closes above
    }

    /// Opens a block map or list at the lookahead line, or throws past `maximumDepth`.
    private func openBlock(isSequence: Bool, indent: Int, context: Context) throws(RecordingError) {
        let mark = Mark(line: (try peek())?.number ?? 0, column: indent + 1)
        guard open.count < Self.maximumDepth else {
            throw error(
                mark.line, mark.column, .syntax, "maps and lists nested deeper than \(Self.maximumDepth) levels")
        }
        open.append(OpenNode(isSequence: isSequence, indent: indent, context: context, mark: mark))
    }

    /// A finished value goes to the innermost open list, or to its map's pending key.
    private func deliver(_ node: YAMLNode) throws(RecordingError) {
        let index = open.count - 1
        guard !open[index].isSequence, let key = open[index].pendingKey else {
            open[index].items.append(node)
            return
        }
        if open[index].context == .top && key == "ndevices", case .scalar(let text, _, _) = node,
            let count = Int(text), count > 0
        {
            declaredDevices = count
        }
        open[index].entries.append((key, node))
        open[index].pendingKey = nil
    }

    /// The value on the lines indented under `parentIndent`: a block list or map (opened), a
    /// scalar or flow node on its own line, or null when nothing is indented further.
    private func blockValue(parentIndent: Int, context: Context) throws(RecordingError) -> Value {
        guard let line = try peek(), line.indent > parentIndent else { return .node(.null(Mark(line: 0, column: 0))) }
        if line.isSequenceItem {
            try openBlock(isSequence: true, indent: line.indent, context: context)
            return .opened
        }
        if splitKey(line.text) != nil {
            try openBlock(isSequence: false, indent: line.indent, context: context)
            return .opened
        }
        consume()
        return .node(try parseInline(line, from: 0))
    }

    /// The next item of an open list, or nil when the list ends.
    private func nextItem(of list: OpenNode) throws(RecordingError) -> Value? {
        guard var line = try peek(), line.indent == list.indent, line.isSequenceItem else { return nil }
        consume()
        var restStart = 1
        while restStart < line.text.count && line.text[restStart] == Byte.space { restStart += 1 }
        let itemContext: Context = list.context == .devices ? .device : .other
        if itemContext == .device { deviceCount += 1 }
        if restStart >= line.text.count { return try blockValue(parentIndent: list.indent, context: itemContext) }
        // The rest of the line is the item, indented where it starts. Cut in place: `- - - x`
        // is read in memory linear in the line, whatever its depth.
        line.text.removeFirst(restStart)
        line.indent += restStart
        if line.isSequenceItem {
            replaceLookahead(line)
            try openBlock(isSequence: true, indent: line.indent, context: .other)
            return .opened
        }
        if splitKey(line.text) != nil {
            replaceLookahead(line)
            try openBlock(isSequence: false, indent: line.indent, context: itemContext)
            return .opened
        }
        let item = try parseInline(line, from: 0)
        if let next = try peek(), next.indent > list.indent {
            throw error(next.number, next.indent + 1, .syntax, "unexpected indentation")
        }
        return .node(item)
    }

    /// The next entry of an open map (its key kept as `pendingKey`), or nil when the map ends.
    private func nextEntry(of map: OpenNode) throws(RecordingError) -> Value? {
        guard let line = try peek(), line.indent == map.indent, !line.isSequenceItem else { return nil }
        guard let (key, valueStart) = splitKey(line.text) else {
            throw error(line.number, line.indent + 1, .syntax, "expected 'key: value'")
        }
        consume()
        open[open.count - 1].pendingKey = key
        var start = valueStart
        while start < line.text.count && line.text[start] == Byte.space { start += 1 }
        if start < line.text.count { return .node(try parseInline(line, from: start)) }
        if map.context == .device && key == "events" { return .node(try skipEvents(keyLine: line)) }
        let valueContext: Context = map.context == .top && key == "devices" ? .devices : .other
        if let next = try peek(), next.indent > map.indent {
            return try blockValue(parentIndent: map.indent, context: valueContext)
        }
        if let next = try peek(), next.indent == map.indent, next.isSequenceItem {
            try openBlock(isSequence: true, indent: map.indent, context: valueContext)
            return .opened
        }
        return .node(.null(Mark(line: line.number, column: line.indent + 1)))
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
