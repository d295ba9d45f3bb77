import PreviewEngine

/// The two ways a trace is printed.
public enum TraceFormat: String, Hashable, Sendable, CaseIterable {
    /// Aligned columns for people, like `libinput debug-events`.
    case human
    /// One JSON object per line, for programs (`jq`, tests, the libinput comparison).
    case json

    /// `nameWidth`: the device column (human), as wide as the longest device name of the input.
    public func format(_ record: TraceRecord, nameWidth: Int = TraceColumns.nameWidth) -> String {
        switch self {
        case .human: record.humanLine(nameWidth: nameWidth)
        case .json: record.jsonLine
        }
    }
}

/// The leading columns of a human trace line (device, kind, time), shared by the phase lines and
/// `--verbose`'s contact and proximity lines so they line up.
public enum TraceColumns {
    /// The narrowest device column.
    public static let nameWidth = 24

    /// The device column for these names: the longest, so names are never cut (two devices of one
    /// file often differ only at the end: "… Pen" and "… Finger").
    public static func nameWidth(for names: [String]) -> Int {
        max(nameWidth, names.map(\.count).max() ?? 0)
    }

    /// `Wacom ISD-V4 Pen          PREVIEW        +6.598s  `: the time right-aligned, so columns stay
    /// put past 10 s and 100 s.
    public static func prefix(name: String, nameWidth: Int, kind: String, time: Timestamp) -> String {
        var line = name + String(repeating: " ", count: max(1, nameWidth + 1 - name.count))
        line += kind + String(repeating: " ", count: max(1, 14 - kind.count))
        let seconds = "+" + Fixed.format(Double(time.microseconds) / 1_000_000, digits: 3) + "s"
        line += String(repeating: " ", count: max(0, 9 - seconds.count)) + seconds + "  "
        return line
    }
}

extension TraceRecord {
    /// `{"time_us":1234,"device":"Wacom Pen","source":"pen","simulated":false,"interaction":1,
    /// "event":"preview","progress":0.42,"force":0.31,"ended":false,"phase":"preview-progress","x":512.5,"y":300}`
    /// (written by hand: no Foundation, fixed key order; `phase` is the engine's phase event, absent
    /// on should-begin; `force`/`reason`/`stage`/`surface`/`client` only when set).
    public var jsonLine: String {
        var out = "{\"time_us\":"
        out += String(time.microseconds)
        out += ",\"device\":"
        JSON.appendString(device, to: &out)
        out += ",\"source\":\"\(source)\",\"simulated\":\(simulated),\"interaction\":\(interaction.rawValue)"
        out += ",\"event\":\"\(event.rawValue)\",\"progress\":"
        JSON.appendNumber(progress, to: &out)
        if let force {
            out += ",\"force\":"
            JSON.appendNumber(force, to: &out)
        }
        out += ",\"ended\":\(ended)"
        if let phase { out += ",\"phase\":\"\(phase)\"" }
        out += ",\"x\":"
        JSON.appendNumber(location.x, to: &out)
        out += ",\"y\":"
        JSON.appendNumber(location.y, to: &out)
        if let reason { out += ",\"reason\":\"\(reason)\"" }
        if let stage { out += ",\"stage\":\(stage)" }
        if let surface { out += ",\"surface\":\(surface.rawValue)" }
        if let client {
            out += ",\"client\":"
            JSON.appendString(client, to: &out)
        }
        out += "}"
        return out
    }

    /// `Wacom DTH2242 Pen         PREVIEW         +1.234s  #1  pen               progress 0.420  at (512.0, 300.0)`
    public var humanLine: String { humanLine(nameWidth: TraceColumns.nameWidth) }

    public func humanLine(nameWidth: Int) -> String {
        let kind = event == .shouldBegin ? "SHOULD_BEGIN" : event.rawValue.uppercased()
        var source = self.source.description + (simulated ? " (sim)" : "")
        source += String(repeating: " ", count: max(1, 18 - source.count))
        var id = "#\(interaction.rawValue)"
        id += String(repeating: " ", count: max(0, 4 - id.count))
        var line = TraceColumns.prefix(name: device, nameWidth: nameWidth, kind: kind, time: time) + id
        line += "\(source)progress \(Fixed.format(progress, digits: 3))  at (\(Fixed.format(location.x, digits: 1)), "
        line += "\(Fixed.format(location.y, digits: 1)))"
        switch phase {
        case .previewEnded?: line += "  -> commit"
        case .completed?: line += "  completed"
        case .cancelled(let reason)?: line += "  \(reason)"
        case .stage(let level)?: line += "  stage \(level)"
        case .previewBegan?, .previewProgress?, .commitProgress?, nil: break
        }
        if let surface { line += "  \(surface)" }
        if let client { line += "  \(client)" }
        return line
    }
}

/// JSON text without Foundation.
public enum JSON {
    /// A JSON string literal: quotes, backslashes and control characters escaped; other
    /// characters stay UTF-8.
    public static func appendString(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }

    /// Shortest round-tripping decimal; integers without a fraction; `null` for NaN and infinities
    /// (JSON has no spelling for them).
    public static func appendNumber(_ value: Double, to out: inout String) {
        guard value.isFinite else {
            out += "null"
            return
        }
        if value == value.rounded() && abs(value) < 1e15 {
            out += String(Int64(value))
        } else {
            out += value.description
        }
    }
}

/// Fixed-point formatting without Foundation's String(format:).
public enum Fixed {
    public static func format(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return value.description }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9e18 else { return value.description }
        let units = Int64(scaled)
        let whole = units / Int64(scale)
        var fraction = String(units % Int64(scale))
        fraction = String(repeating: "0", count: max(0, digits - fraction.count)) + fraction
        let sign = value < 0 && units != 0 ? "-" : ""
        return digits == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
    }
}
