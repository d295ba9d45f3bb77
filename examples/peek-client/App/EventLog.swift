// The --log lines: one per preview-interaction event received, plus the client's answers and what
// the app did, as `key=value` pairs separated by single spaces (README.md documents the format).

enum EventLog {
    static func sourceName(_ source: UInt32) -> String {
        switch source {
        case 1: "pen"
        case 2: "touchpad"
        case 3: "touchscreen"
        case 4: "pointer"
        case 5: "keyboard"
        default: "unknown(\(source))"
        }
    }

    static func forceName(_ force: UInt32) -> String {
        switch force {
        case 1: "measured"
        case 2: "simulated"
        default: "unknown(\(force))"
        }
    }

    static func reasonName(_ reason: UInt32) -> String {
        switch reason {
        case 1: "lifted"
        case 2: "client_cancelled"
        case 3: "declined"
        case 4: "timeout"
        case 5: "device_removed"
        case 6: "surface_gone"
        case 7: "desynchronised"
        case 8: "moved"
        case 9: "system"
        case 10: "dismissed"
        default: "unknown(\(reason))"
        }
    }

    static func behaviourName(_ behaviour: UInt32) -> String {
        switch behaviour {
        case 1: "deep_click"
        case 2: "generic"
        case 3: "accelerator"
        default: "unknown(\(behaviour))"
        }
    }

    /// `value` with exactly `digits` decimals, without Foundation (e.g. -3.5 → "-3.50").
    static func fixed(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return "nan" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = Int(scaled / scale)
        let fraction = Int(scaled - Double(whole) * scale)
        var text = String(fraction)
        text = String(repeating: "0", count: max(0, digits - text.count)) + text
        let sign = value < 0 && scaled > 0 ? "-" : ""
        return digits == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(text)"
    }

    static func progress(_ value: Double) -> String { fixed(value, digits: 4) }
    static func coordinate(_ value: Double) -> String { fixed(value, digits: 2) }

    /// A quoted value for text that may hold spaces (titles).
    static func quoted(_ text: String) -> String {
        "\"" + text.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"") + "\""
    }
}

extension String {
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
