import EvdevDecoder
import InputEvents
import LibinputBackend
import PreviewEngine

/// How the runner inside the testbed reports the backend's events to the process that started
/// it: one line per `BackendEvent`, space-separated fields, times in µs on the recording's
/// clock, "-" for an absent value. Doubles print in Swift's shortest round-trip form, so
/// parsing gives back exactly what the backend emitted.
public enum TestbedLine {
    /// The runner's last line: everything before it is complete.
    public static let done = "done"

    /// The largest delay between an event's timestamp and the backend reporting it.
    public static func lag(milliseconds: Int64) -> String { "lag \(milliseconds)" }

    /// Frames read so late that libinput's 50 ms tablet proximity timer could have fired first.
    public static func atRisk(frames: Int64) -> String { "risk \(frames)" }

    /// A live tool's exit status (`LibinputTestbed.runLive`).
    public static func liveStatus(_ status: Int32) -> String { "live-status \(status)" }

    public static func format(_ event: BackendEvent) -> String {
        switch event {
        case .deviceAdded(let device):
            return "added \(device.id.rawValue) \(device.kind.rawValue) \(device.hasForce ? 1 : 0) "
                + "\(escape(device.forceOrigin)) \(escape(device.name))"
        case .deviceRemoved(let id, let time):
            return "removed \(time.microseconds) \(id.rawValue)"
        case .input(let input):
            return format(input)
        }
    }

    static func format(_ event: DeviceEvent) -> String {
        switch event {
        case .contactBegan(let contact): "began " + fields(contact)
        case .contactChanged(let contact): "changed " + fields(contact)
        case .contactEnded(let key, let time, let reason):
            "ended \(time.microseconds) \(key.seat) \(key.device.rawValue) \(key.contact) \(reason.rawValue)"
        case .toolProximity(let state, let inProximity): "proximity \(inProximity ? 1 : 0) " + fields(state)
        case .toolMotion(let state): "hover " + fields(state)
        case .pointerMotion(let motion):
            "motion \(motion.time.microseconds) \(motion.device.rawValue) \(motion.dx) \(motion.dy)"
        case .scroll(let scroll):
            "scroll \(scroll.time.microseconds) \(scroll.device.rawValue) \(scroll.vertical120) \(scroll.horizontal120)"
        case .button(let key): "button " + fields(key)
        case .key(let key): "key " + fields(key)
        case .frame(let time): "frame \(time.microseconds)"
        }
    }

    private static func fields(_ c: DeviceContact) -> String {
        "\(c.time.microseconds) \(c.key.seat) \(c.key.device.rawValue) \(c.key.contact) \(c.force) \(c.hasForce ? 1 : 0) "
            + "\(c.position.x) \(c.position.y) \(c.positioning.rawValue) \(c.source.rawValue) "
            + (c.pen.map(fields) ?? "- - - -")
    }

    private static func fields(_ s: ToolState) -> String {
        "\(s.time.microseconds) \(s.device.rawValue) \(s.position.x) \(s.position.y) \(optional(s.pressure)) "
            + fields(s.axes)
    }

    private static func fields(_ a: PenAxes) -> String {
        "\(a.tool.rawValue) \(optional(a.distance)) \(optional(a.tiltX)) \(optional(a.tiltY))"
    }

    private static func fields(_ k: KeyState) -> String {
        "\(k.time.microseconds) \(k.device.rawValue) \(k.code) \(k.pressed ? 1 : 0)"
    }

    private static func optional(_ value: Double?) -> String { value.map { "\($0)" } ?? "-" }

    /// Nil for a line that is not one of ours (the caller reports it).
    public static func parse(_ line: Substring) -> BackendEvent? {
        var f = Fields(line.split(separator: " ", omittingEmptySubsequences: true).map(String.init))
        guard let kind = f.next() else { return nil }
        switch kind {
        case "added":
            guard let id = f.uint32(), let raw = f.next(), let kind = DeviceKind(rawValue: raw), let force = f.next(),
                let origin = f.next()
            else { return nil }
            return .deviceAdded(
                BackendDevice(
                    id: DeviceID(id), name: unescape(f.rest()), kind: kind, hasForce: force == "1",
                    forceOrigin: unescape(origin)))
        case "removed":
            guard let time = f.time(), let id = f.uint32() else { return nil }
            return .deviceRemoved(DeviceID(id), at: time)
        default:
            return parseInput(kind, &f).map { .input($0) }
        }
    }

    private static func parseInput(_ kind: String, _ f: inout Fields) -> DeviceEvent? {
        switch kind {
        case "began": return contact(&f).map { .contactBegan($0) }
        case "changed": return contact(&f).map { .contactChanged($0) }
        case "ended":
            guard let time = f.time(), let seat = f.uint32(), let device = f.uint32(), let contact = f.int32(),
                let raw = f.uint8(), let reason = CancelReason(rawValue: raw)
            else { return nil }
            return .contactEnded(
                ContactKey(seat: seat, device: DeviceID(device), contact: contact), time: time, reason: reason)
        case "proximity":
            guard let inProximity = f.next(), let state = toolState(&f) else { return nil }
            return .toolProximity(state, inProximity: inProximity == "1")
        case "hover": return toolState(&f).map { .toolMotion($0) }
        case "motion":
            guard let time = f.time(), let device = f.uint32(), let dx = f.double(), let dy = f.double() else {
                return nil
            }
            return .pointerMotion(RelativeMotion(device: DeviceID(device), time: time, dx: dx, dy: dy))
        case "scroll":
            guard let time = f.time(), let device = f.uint32(), let v = f.int32(), let h = f.int32() else { return nil }
            return .scroll(ScrollMotion(device: DeviceID(device), time: time, vertical120: v, horizontal120: h))
        case "button": return keyState(&f).map { .button($0) }
        case "key": return keyState(&f).map { .key($0) }
        case "frame": return f.time().map { .frame($0) }
        default: return nil
        }
    }

    private static func contact(_ f: inout Fields) -> DeviceContact? {
        guard let time = f.time(), let seat = f.uint32(), let device = f.uint32(), let contact = f.int32(),
            let force = f.double(), let hasForce = f.next(), let x = f.double(), let y = f.double(),
            let positioningRaw = f.next(), let positioning = Positioning(rawValue: positioningRaw),
            let sourceRaw = f.uint8(), let source = InputSource(rawValue: sourceRaw), let tool = f.next()
        else { return nil }
        let pen: PenAxes?
        if tool == "-" {
            for _ in 0..<3 { _ = f.next() }
            pen = nil
        } else {
            guard let penTool = PenTool(rawValue: tool) else { return nil }
            pen = PenAxes(
                tool: penTool, distance: f.optionalDouble(), tiltX: f.optionalDouble(), tiltY: f.optionalDouble())
        }
        return DeviceContact(
            key: ContactKey(seat: seat, device: DeviceID(device), contact: contact), time: time, force: force,
            hasForce: hasForce == "1", position: NormalisedPoint(x: x, y: y), positioning: positioning, source: source,
            pen: pen)
    }

    private static func toolState(_ f: inout Fields) -> ToolState? {
        guard let time = f.time(), let device = f.uint32(), let x = f.double(), let y = f.double() else { return nil }
        let pressure = f.optionalDouble()
        guard let raw = f.next(), let tool = PenTool(rawValue: raw) else { return nil }
        let axes = PenAxes(
            tool: tool, distance: f.optionalDouble(), tiltX: f.optionalDouble(), tiltY: f.optionalDouble())
        return ToolState(
            device: DeviceID(device), time: time, position: NormalisedPoint(x: x, y: y), pressure: pressure, axes: axes)
    }

    private static func keyState(_ f: inout Fields) -> KeyState? {
        guard let time = f.time(), let device = f.uint32(), let raw = f.next(), let code = UInt16(raw),
            let pressed = f.next()
        else { return nil }
        return KeyState(device: DeviceID(device), time: time, code: code, pressed: pressed == "1")
    }

    private static func escape(_ text: String) -> String {
        guard !text.isEmpty else { return "-" }
        var out = ""
        for character in text {
            switch character {
            case "%": out += "%25"
            case " ": out += "%20"
            case "\n": out += "%0A"
            default: out.append(character)
            }
        }
        return out
    }

    private static func unescape(_ text: String) -> String {
        guard text != "-" else { return "" }
        return text.split(separator: "%", omittingEmptySubsequences: false).enumerated().map { index, part in
            guard index > 0, part.count >= 2, let byte = UInt8(part.prefix(2), radix: 16) else {
                return index > 0 ? "%" + part : String(part)
            }
            return String(UnicodeScalar(byte)) + part.dropFirst(2)
        }.joined()
    }

    private struct Fields {
        var items: [String]
        var index = 0
        init(_ items: [String]) { self.items = items }
        mutating func next() -> String? {
            guard index < items.count else { return nil }
            defer { index += 1 }
            return items[index]
        }
        mutating func rest() -> String {
            defer { index = items.count }
            return index < items.count ? items[index...].joined(separator: " ") : ""
        }
        mutating func time() -> Timestamp? { next().flatMap { Int64($0) }.map { Timestamp(microseconds: $0) } }
        mutating func uint32() -> UInt32? { next().flatMap { UInt32($0) } }
        mutating func int32() -> Int32? { next().flatMap { Int32($0) } }
        mutating func uint8() -> UInt8? { next().flatMap { UInt8($0) } }
        mutating func double() -> Double? { next().flatMap { Double($0) } }
        mutating func optionalDouble() -> Double? { next().flatMap { $0 == "-" ? nil : Double($0) } }
    }
}
