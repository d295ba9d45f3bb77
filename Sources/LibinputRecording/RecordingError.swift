/// Why a recording could not be read, with where: printed as `file.yml:123: reason`
/// (`file.yml:123:7: reason` when the column is known), like a compiler.
public struct RecordingError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable {
        /// The file can't be opened or read.
        case io
        /// Not the YAML subset `libinput record` writes (bad indentation, unclosed brackets, tabs...).
        case syntax
        /// A key has a value of the wrong type (a string where a list belongs...).
        case type
        /// A required key is missing or null.
        case missing
        /// A list has the wrong number of elements (an event that is not 5 numbers...).
        case arity
        /// A number outside what evdev allows (type, code, microseconds, 32-bit value...).
        case range
        /// The file ends inside the data (a frame without SYN_REPORT, fewer devices than declared).
        case truncated
        /// A device without any events.
        case noEvents
        /// A `version` other than 1.
        case version
        /// Larger than any recording is: a header past its size limit. Not a layout question, so
        /// the general YAML reader is not tried (it would hold the whole file in memory).
        case tooLarge
    }

    public var file: String
    /// 1-based; 0 when the error is about the file as a whole.
    public var line: Int
    /// 1-based byte column, nil when not meaningful.
    public var column: Int?
    public var kind: Kind
    public var reason: String

    public init(file: String, line: Int, column: Int? = nil, kind: Kind, reason: String) {
        self.file = file
        self.line = line
        self.column = column
        self.kind = kind
        self.reason = reason
    }

    /// One line for a terminal: control characters (from the file's bytes, or its name) are
    /// written as `\u{1B}`, so a crafted file cannot move the cursor or clear the screen.
    public var description: String {
        let file = Self.escapingControls(file)
        let reason = Self.escapingControls(reason)
        guard line > 0 else { return "\(file): \(reason)" }
        if let column { return "\(file):\(line):\(column): \(reason)" }
        return "\(file):\(line): \(reason)"
    }

    static func escapingControls(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return text }
        var escaped = ""
        for scalar in text.unicodeScalars {
            if scalar.properties.generalCategory == .control {
                escaped += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}

/// Lenient reading reports skipped input here instead of failing; strict reading throws it.
public typealias RecordingWarningHandler = @Sendable (RecordingError) -> Void

/// How strictly to read.
public struct ReadOptions: Sendable {
    /// Skip bad event lines and bad header entries with a warning instead of failing.
    public var lenient: Bool
    /// Receives warnings (lenient skips, devices without events in multi-device files).
    public var onWarning: RecordingWarningHandler?

    public init(lenient: Bool = false, onWarning: RecordingWarningHandler? = nil) {
        self.lenient = lenient
        self.onWarning = onWarning
    }
}
