// Byte-level helpers shared by the header parser and the event stream.

enum Byte {
    static let space: UInt8 = 0x20
    static let tab: UInt8 = 0x09
    static let carriageReturn: UInt8 = 0x0D
    static let hash: UInt8 = 0x23
    static let dash: UInt8 = 0x2D
    static let colon: UInt8 = 0x3A
    static let comma: UInt8 = 0x2C
    static let openBracket: UInt8 = 0x5B
    static let closeBracket: UInt8 = 0x5D
    static let openBrace: UInt8 = 0x7B
    static let closeBrace: UInt8 = 0x7D
    static let doubleQuote: UInt8 = 0x22
    static let singleQuote: UInt8 = 0x27
    static let backslash: UInt8 = 0x5C
    static let zero: UInt8 = 0x30
    static let nine: UInt8 = 0x39
}

enum LineScan {
    /// Leading spaces; `hasTab` when a tab appears in the indentation (YAML forbids it).
    @inline(__always)
    static func indent(_ line: UnsafeBufferPointer<UInt8>) -> (count: Int, hasTab: Bool) {
        var index = 0
        var hasTab = false
        while index < line.count {
            let byte = line[index]
            if byte == Byte.space {
                index += 1
            } else if byte == Byte.tab {
                hasTab = true
                index += 1
            } else {
                break
            }
        }
        return (index, hasTab)
    }

    /// End of the content: before a comment (a `#` at the start or after a space, outside
    /// quotes) and trailing spaces.
    static func contentEnd(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        var quote: UInt8 = 0
        var end = line.count
        while index < line.count {
            let byte = line[index]
            if quote != 0 {
                if byte == Byte.backslash && quote == Byte.doubleQuote {
                    index += 1
                } else if byte == quote {
                    quote = 0
                }
            } else if byte == Byte.doubleQuote || byte == Byte.singleQuote {
                quote = byte
            } else if byte == Byte.hash
                && (index == start || line[index - 1] == Byte.space || line[index - 1] == Byte.tab)
            {
                end = index
                break
            }
            index += 1
        }
        while end > start && (line[end - 1] == Byte.space || line[end - 1] == Byte.tab) { end -= 1 }
        return end
    }
}
