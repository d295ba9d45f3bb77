/// The JSON the trace writer emits: one flat object per line, values that are strings, numbers,
/// booleans or null. Numbers are read with Swift's own parser, which round-trips the writer's
/// shortest-decimal output exactly (Foundation's JSONSerialization loses the last bit on Linux).
enum FlatJSON {
    enum Value: Equatable {
        case string(String)
        case number(Double)
        case bool(Bool)
        case null
    }

    static func object(_ line: String) throws(TraceError) -> [String: Value] {
        var scanner = Scanner(Array(line.utf8))
        return try scanner.object()
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        func fail(_ reason: String) -> TraceError { TraceError(file: "", line: 0, reason: reason) }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0D, 0x0A].contains(bytes[index]) { index += 1 }
        }

        mutating func expect(_ byte: UInt8) throws(TraceError) {
            skipSpace()
            guard index < bytes.count, bytes[index] == byte else { throw fail("not JSON") }
            index += 1
        }

        mutating func object() throws(TraceError) -> [String: Value] {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else {
                throw fail(index < bytes.count ? "not a JSON object" : "not JSON")
            }
            index += 1
            var result: [String: Value] = [:]
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
            } else {
                while true {
                    skipSpace()
                    let key = try string()
                    try expect(UInt8(ascii: ":"))
                    result[key] = try value()
                    skipSpace()
                    guard index < bytes.count else { throw fail("not JSON") }
                    if bytes[index] == UInt8(ascii: ",") {
                        index += 1
                        continue
                    }
                    try expect(UInt8(ascii: "}"))
                    break
                }
            }
            skipSpace()
            guard index == bytes.count else { throw fail("not JSON") }
            return result
        }

        mutating func value() throws(TraceError) -> Value {
            skipSpace()
            guard index < bytes.count else { throw fail("not JSON") }
            switch bytes[index] {
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try word("true"); return .bool(true)
            case UInt8(ascii: "f"): try word("false"); return .bool(false)
            case UInt8(ascii: "n"): try word("null"); return .null
            case UInt8(ascii: "{"), UInt8(ascii: "["): throw fail("nested values are not part of a trace")
            default:
                let start = index
                while index < bytes.count, "+-0123456789.eE".utf8.contains(bytes[index]) { index += 1 }
                guard let number = Double(String(decoding: bytes[start..<index], as: UTF8.self)) else {
                    throw fail("not JSON")
                }
                return .number(number)
            }
        }

        mutating func word(_ text: String) throws(TraceError) {
            let expected = Array(text.utf8)
            guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
                throw fail("not JSON")
            }
            index += expected.count
        }

        mutating func string() throws(TraceError) -> String {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("not JSON") }
            index += 1
            var out: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""): return String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { throw fail("not JSON") }
                    let escaped = bytes[index]
                    index += 1
                    switch escaped {
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "u"):
                        guard index + 4 <= bytes.count,
                            let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
                        else { throw fail("not JSON") }
                        index += 4
                        // Surrogate pairs are not needed: the writer escapes control characters only.
                        out += Array(String(Unicode.Scalar(code).map(Character.init) ?? "\u{FFFD}").utf8)
                    default: out.append(escaped)
                    }
                default: out.append(byte)
                }
            }
            throw fail("not JSON")
        }
    }
}
