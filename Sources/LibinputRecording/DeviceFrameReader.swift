import EvdevDecoder
import InputEvents
import PreviewEngine

/// Streams one device's `events:` list as evdev frames, straight from the file's bytes: a frame
/// is every event up to and including a `SYN_REPORT`, however the list items split them
/// (libinput 1.15 split frames across items). `libinput:` and `hid:` entries are skipped.
/// Memory is one line buffer and one frame.
public final class DeviceFrameReader {
    public let device: Int
    private let reader: LineReader
    private let keyIndent: Int
    private let options: ReadOptions
    private var itemIndent = -1
    private var inEvdevSection = false
    private var events: [InputEvent] = []
    private var clearOnNext = false
    private var lastTime: Int64 = 0
    private var pendingFirstLine = 0
    private var finished = false
    /// Event lines read so far (valid or not), for throughput figures.
    public private(set) var eventLines = 0

    /// The last device the header declared: nothing but the end of the file should follow it.
    private let isLastDevice: Bool

    init(source: ByteSource, device: Int, location: EventsLocation, isLastDevice: Bool, options: ReadOptions) {
        self.device = device
        self.isLastDevice = isLastDevice
        reader = LineReader(source: source, offset: location.offset, lineNumber: location.lineNumber)
        keyIndent = location.keyIndent
        self.options = options
        events.reserveCapacity(64)
    }

    /// Whether the list after `events:` has at least one item.
    static func hasEvents(source: ByteSource, location: EventsLocation) throws(RecordingError) -> Bool {
        let reader = LineReader(
            source: source, offset: location.offset, lineNumber: location.lineNumber, bufferSize: 4096)
        while let line = try reader.next() {
            let (indent, _) = LineScan.indent(line)
            guard indent < line.count, line[indent] != Byte.hash else { continue }
            return line[indent] == Byte.dash && indent >= location.keyIndent
        }
        return false
    }

    private func error(_ kind: RecordingError.Kind, _ reason: String, column: Int? = nil) -> RecordingError {
        RecordingError(file: reader.path, line: reader.lineNumber, column: column, kind: kind, reason: reason)
    }

    /// Strict: throws. Lenient: warns; the caller skips the line.
    private func problem(_ error: RecordingError) throws(RecordingError) {
        guard options.lenient else { throw error }
        options.onWarning?(error)
    }

    /// A frame is what a device reports at once (tens of events, a few hundred for a
    /// ten-finger touchscreen); the limit keeps each step of a replay bounded.
    static let maximumFrameEvents = 10_000

    /// The next complete frame, nil at the end of this device's events.
    public func next() throws(RecordingError) -> EvdevFrame? {
        if clearOnNext {
            events.removeAll(keepingCapacity: true)
            clearOnNext = false
        }
        guard !finished else { return nil }
        while let line = try reader.next() {
            let count = line.count
            var index = 0
            while index < count && line[index] == Byte.space { index += 1 }
            guard index < count else { continue }
            let first = line[index]
            if first == Byte.hash { continue }
            if first == Byte.tab {
                try problem(error(.syntax, "tab in indentation (YAML indents with spaces)", column: index + 1))
                continue
            }
            if itemIndent < 0 {
                guard first == Byte.dash, index >= keyIndent else { return try finish() }
                itemIndent = index
            }
            if index < itemIndent || (index == itemIndent && first != Byte.dash) {
                if isLastDevice && index == 0 && first == Byte.dash {
                    // The header reading stopped at the device `ndevices` called the last one.
                    options.onWarning?(
                        error(.arity, "another device after the last of ndevices: it is ignored (is ndevices wrong?)"))
                }
                return try finish()
            }
            if index == itemIndent {
                try startItem(line, at: index)
                continue
            }
            if first == Byte.dash {
                guard inEvdevSection else { continue }  // libinput events, hid reports
                if let frame = try event(line, at: index) { return frame }
                continue
            }
            // A key inside the item (`libinput:` after `evdev:` frames), or deeper content of a
            // skipped section (`time:` and hex bytes of `hid:`).
            if let (key, hasValue) = Self.key(line, at: index) {
                if inEvdevSection && hasValue {
                    // `evdev:` holds a list: a `key: value` here is not YAML libinput writes.
                    try problem(
                        error(.syntax, "expected an event '- [sec, usec, type, code, value]'", column: index + 1))
                } else if index == itemIndent + 2 || inEvdevSection {
                    inEvdevSection = key.elementsEqual("evdev".utf8)
                }
                continue
            }
            if inEvdevSection {
                try problem(error(.syntax, "expected an event '- [sec, usec, type, code, value]'", column: index + 1))
            }
        }
        return try finish()
    }

    /// `- evdev:`, `- libinput:`, `- hid:`...
    private func startItem(_ line: UnsafeBufferPointer<UInt8>, at index: Int) throws(RecordingError) {
        var position = index + 1
        while position < line.count && line[position] == Byte.space { position += 1 }
        guard let (key, _) = Self.key(line, at: position) else {
            inEvdevSection = false
            try problem(error(.syntax, "expected an event frame '- evdev:'", column: position + 1))
            return
        }
        inEvdevSection = key.elementsEqual("evdev".utf8)
    }

    /// The key of a `key:` line (a `:` followed by a blank or the end) and whether a value
    /// follows on the line; nil when the line is not a key.
    private static func key(_ line: UnsafeBufferPointer<UInt8>, at start: Int)
        -> (UnsafeBufferPointer<UInt8>.SubSequence, hasValue: Bool)?
    {
        var index = start
        while index < line.count {
            let byte = line[index]
            if byte == Byte.colon {
                guard index + 1 == line.count || line[index + 1] == Byte.space else { return nil }
                var rest = index + 1
                while rest < line.count && line[rest] == Byte.space { rest += 1 }
                return (line[start..<index], rest < line.count && line[rest] != Byte.hash)
            }
            if byte == Byte.space || byte == Byte.openBracket || byte == Byte.openBrace || byte == Byte.comma {
                return nil
            }
            index += 1
        }
        return nil
    }

    private func finish() throws(RecordingError) -> EvdevFrame? {
        finished = true
        if !events.isEmpty {
            let count = events.count
            events.removeAll(keepingCapacity: true)
            let truncated = RecordingError(
                file: reader.path, line: pendingFirstLine, kind: .truncated,
                reason: "truncated: \(count) event(s) after the last SYN_REPORT (device \(device))")
            try problem(truncated)
        }
        return nil
    }

    /// One `- [sec, usec, type, code, value]` line; returns the frame when it is a SYN_REPORT.
    @inline(__always)
    private func event(_ line: UnsafeBufferPointer<UInt8>, at index: Int) throws(RecordingError) -> EvdevFrame? {
        eventLines += 1
        let count = line.count
        var position = index + 1
        while position < count && line[position] == Byte.space { position += 1 }
        guard position < count && line[position] == Byte.openBracket else {
            try problem(error(.syntax, "expected an event '[sec, usec, type, code, value]'", column: position + 1))
            return nil
        }
        position += 1
        var values: (Int64, Int64, Int64, Int64, Int64) = (0, 0, 0, 0, 0)
        var found = 0
        while true {
            while position < count && line[position] == Byte.space { position += 1 }
            guard position < count else {
                try problem(error(.truncated, "unterminated '[' (the line is cut short)", column: position + 1))
                return nil
            }
            if line[position] == Byte.closeBracket && found == 0 {
                position += 1
                break
            }
            let numberStart = position
            var negative = false
            if line[position] == Byte.dash {
                negative = true
                position += 1
            }
            var magnitude: Int64 = 0
            var digits = 0
            while position < count, line[position] >= Byte.zero, line[position] <= Byte.nine {
                if digits < 18 { magnitude = magnitude * 10 + Int64(line[position] - Byte.zero) }
                digits += 1
                position += 1
            }
            guard digits > 0 else {
                let text = String(decoding: line[numberStart..<min(count, numberStart + 12)], as: UTF8.self)
                try problem(error(.type, "expected an integer, found '\(text)'", column: numberStart + 1))
                return nil
            }
            if digits > 18 {
                try problem(error(.range, "number too large", column: numberStart + 1))
                return nil
            }
            let value = negative ? -magnitude : magnitude
            switch found {
            case 0: values.0 = value
            case 1: values.1 = value
            case 2: values.2 = value
            case 3: values.3 = value
            case 4: values.4 = value
            default: break
            }
            found += 1
            while position < count && line[position] == Byte.space { position += 1 }
            guard position < count else {
                try problem(error(.truncated, "unterminated '[' (the line is cut short)", column: position + 1))
                return nil
            }
            if line[position] == Byte.comma {
                position += 1
                continue
            }
            if line[position] == Byte.closeBracket {
                position += 1
                break
            }
            try problem(error(.syntax, "expected ',' or ']' in an event", column: position + 1))
            return nil
        }
        while position < count && line[position] == Byte.space { position += 1 }
        if position < count && line[position] != Byte.hash {
            try problem(error(.syntax, "unexpected text after the event", column: position + 1))
            return nil
        }
        guard found == 5 else {
            try problem(error(.arity, "an event has 5 numbers [sec, usec, type, code, value], this one has \(found)"))
            return nil
        }
        let (seconds, micros, type, code, value) = values
        if let (kind, reason) = EventRules.problem(
            seconds: seconds, micros: micros, type: type, code: code, value: value)
        {
            try problem(error(kind, reason))
            return nil
        }
        var time = seconds * 1_000_000 + micros
        if time < lastTime {
            try problem(error(.range, EventRules.backwards(time, after: lastTime)))
            time = lastTime  // lenient: keep the stream monotonic
        }
        lastTime = time
        if events.isEmpty { pendingFirstLine = reader.lineNumber }
        let event = InputEvent(type: UInt16(type), code: UInt16(code), value: Int32(value))
        guard events.count < Self.maximumFrameEvents || event.isSynReport else {
            events.removeAll(keepingCapacity: true)
            try problem(
                error(
                    .range, "more than \(Self.maximumFrameEvents) events before a SYN_REPORT: not one frame of a device"
                ))
            return nil
        }
        events.append(event)
        guard event.isSynReport else { return nil }
        clearOnNext = true
        return EvdevFrame(device: device, time: Timestamp(microseconds: time), events: events)
    }

}
