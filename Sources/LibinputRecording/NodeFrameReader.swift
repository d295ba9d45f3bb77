import EvdevDecoder
import PreviewEngine

/// One device's events as frames from the general YAML reader's nodes (the file is already in
/// memory): the same frames, rules and messages as `DeviceFrameReader`, whatever the layout.
final class NodeFrameReader {
    let device: Int
    private let file: String
    private let items: [YAMLNode]
    private let options: ReadOptions
    private var item = 0
    private var evdev: [YAMLNode] = []
    private var inItem = 0
    private var events: [InputEvent] = []
    private var pendingFirstLine = 0
    private var lastTime: Int64 = 0
    private(set) var eventLines = 0

    init(file: String, device: Int, items: [YAMLNode], options: ReadOptions) {
        self.file = file
        self.device = device
        self.items = items
        self.options = options
    }

    private func problem(_ node: YAMLNode, _ kind: RecordingError.Kind, _ reason: String) throws(RecordingError) {
        let error = RecordingError(
            file: file, line: node.mark.line, column: node.mark.line > 0 ? node.mark.column : nil, kind: kind,
            reason: reason)
        guard options.lenient else { throw error }
        options.onWarning?(error)
    }

    func next() throws(RecordingError) -> EvdevFrame? {
        events.removeAll(keepingCapacity: true)
        while true {
            while inItem < evdev.count {
                let node = evdev[inItem]
                inItem += 1
                if let frame = try event(node) { return frame }
            }
            guard item < items.count else { return try finish() }
            let entry = items[item]
            item += 1
            evdev = []
            inItem = 0
            guard case .mapping(let keys, _) = entry else {
                try problem(entry, .syntax, "expected an event frame 'evdev:', found \(entry.typeName)")
                continue
            }
            for (key, value) in keys where key == "evdev" {  // `libinput:` and `hid:` entries are skipped
                switch value {
                case .sequence(let list, _): evdev = list
                case .null: break
                case .scalar, .mapping, .events:
                    try problem(value, .syntax, "expected a list of events '[sec, usec, type, code, value]'")
                }
            }
        }
    }

    private func finish() throws(RecordingError) -> EvdevFrame? {
        guard !events.isEmpty else { return nil }
        let count = events.count
        events.removeAll()
        let error = RecordingError(
            file: file, line: pendingFirstLine, kind: .truncated,
            reason: "truncated: \(count) event(s) after the last SYN_REPORT (device \(device))")
        guard options.lenient else { throw error }
        options.onWarning?(error)
        return nil
    }

    private func event(_ node: YAMLNode) throws(RecordingError) -> EvdevFrame? {
        eventLines += 1
        guard case .sequence(let parts, _) = node else {
            try problem(node, .syntax, "expected an event '[sec, usec, type, code, value]', found \(node.typeName)")
            return nil
        }
        guard parts.count == 5 else {
            try problem(
                node, .arity, "an event has 5 numbers [sec, usec, type, code, value], this one has \(parts.count)")
            return nil
        }
        var values: [Int64] = []
        for part in parts {
            guard case .scalar(let text, _, _) = part, let value = HeaderConverter.parseInt(text) else {
                try problem(part, .type, "expected an integer, found \(part.typeName)")
                return nil
            }
            values.append(value)
        }
        if let (kind, reason) = EventRules.problem(
            seconds: values[0], micros: values[1], type: values[2], code: values[3], value: values[4])
        {
            try problem(node, kind, reason)
            return nil
        }
        var time = values[0] * 1_000_000 + values[1]
        if time < lastTime {
            try problem(node, .range, EventRules.backwards(time, after: lastTime))
            time = lastTime
        }
        lastTime = time
        if events.isEmpty { pendingFirstLine = node.mark.line }
        let event = InputEvent(type: UInt16(values[2]), code: UInt16(values[3]), value: Int32(values[4]))
        events.append(event)
        guard event.isSynReport else { return nil }
        return EvdevFrame(device: device, time: Timestamp(microseconds: time), events: events)
    }
}
