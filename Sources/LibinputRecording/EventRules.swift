import EvdevDecoder

/// What makes five numbers an evdev event, for both readers (the streaming one and the general
/// YAML one), so they accept and reject the same events with the same words.
enum EventRules {
    /// Why `[sec, usec, type, code, value]` is not an evdev event; nil when it is one.
    @inline(__always)
    static func problem(seconds: Int64, micros: Int64, type: Int64, code: Int64, value: Int64)
        -> (RecordingError.Kind, String)?
    {
        guard seconds >= 0 && seconds < 1 << 40 else { return (.range, "seconds \(seconds) out of range") }
        guard micros >= 0 && micros < 1_000_000 else {
            return (.range, "microseconds \(micros) out of range 0...999999")
        }
        guard type >= 0 && type <= Int64(EventType.max), let maxCode = EventType.maxCode(for: UInt16(type)) else {
            return (.range, "event type \(type) is not an evdev type")
        }
        guard code >= 0 && code <= Int64(maxCode) else {
            return (.range, "event code \(code) out of range for \(EvdevNames.typeName(UInt16(type))) (0...\(maxCode))")
        }
        guard value >= Int64(Int32.min) && value <= Int64(Int32.max) else {
            return (.range, "event value \(value) does not fit in 32 bits")
        }
        return nil
    }

    static func backwards(_ time: Int64, after last: Int64) -> String {
        "time goes backwards (\(seconds(time)) after \(seconds(last)))"
    }

    static func seconds(_ micros: Int64) -> String {
        let fraction = String(micros % 1_000_000)
        return "\(micros / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }
}
