import EvdevDecoder

/// Turns the header's nodes into typed values, with file:line errors for every wrong type,
/// arity or range. In lenient mode a bad entry (one absinfo axis, one code list) is skipped
/// with a warning; a bad structure still fails.
struct HeaderConverter {
    let source: ByteSource
    let options: ReadOptions
    var file: String { source.name }

    init(source: ByteSource, options: ReadOptions) {
        self.source = source
        self.options = options
    }

    private func error(_ node: YAMLNode, _ kind: RecordingError.Kind, _ reason: String) -> RecordingError {
        RecordingError(
            file: file, line: node.mark.line, column: node.mark.line > 0 ? node.mark.column : nil, kind: kind,
            reason: reason)
    }

    /// Strict: throws. Lenient: warns, and the caller skips the entry.
    private func skippable(_ problem: RecordingError) throws(RecordingError) {
        guard options.lenient else { throw problem }
        options.onWarning?(problem)
    }

    // MARK: Typed accessors

    private func int(_ node: YAMLNode, _ what: String, in range: ClosedRange<Int64>) throws(RecordingError) -> Int64 {
        guard case .scalar(let text, _, _) = node else {
            throw error(node, .type, "\(what): expected an integer, found \(node.typeName)")
        }
        guard let value = Self.parseInt(text) else {
            throw error(node, .type, "\(what): expected an integer, found '\(text)'")
        }
        guard range.contains(value) else {
            throw error(node, .range, "\(what): \(value) is out of range \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }

    /// Decimal or 0x-hex, optionally signed.
    static func parseInt(_ text: String) -> Int64? {
        var body = Substring(text)
        var negative = false
        if body.first == "-" || body.first == "+" {
            negative = body.first == "-"
            body = body.dropFirst()
        }
        let value: Int64?
        if body.hasPrefix("0x") || body.hasPrefix("0X") {
            value = Int64(body.dropFirst(2), radix: 16)
        } else {
            value = Int64(body, radix: 10)
        }
        guard let value else { return nil }
        return negative ? -value : value
    }

    private func string(_ node: YAMLNode, _ what: String) throws(RecordingError) -> String {
        guard case .scalar(let text, _, _) = node else {
            throw error(node, .type, "\(what): expected a string, found \(node.typeName)")
        }
        return text
    }

    private func list(_ node: YAMLNode, _ what: String) throws(RecordingError) -> [YAMLNode] {
        if node.isNull { return [] }
        guard case .sequence(let items, _) = node else {
            throw error(node, .type, "\(what): expected a list, found \(node.typeName)")
        }
        return items
    }

    private func map(_ node: YAMLNode, _ what: String) throws(RecordingError) -> [(key: String, value: YAMLNode)] {
        if node.isNull { return [] }
        guard case .mapping(let entries, _) = node else {
            throw error(node, .type, "\(what): expected a map, found \(node.typeName)")
        }
        return entries
    }

    private func present(_ node: YAMLNode?) -> YAMLNode? {
        guard let node, !node.isNull else { return nil }
        return node
    }

    // MARK: The recording

    mutating func recording(from root: YAMLNode) throws(RecordingError) -> Recording {
        _ = try map(root, "top level")
        var version = 1
        if let node = present(root["version"]) {
            let value = try int(node, "version", in: Int64(Int32.min)...Int64(Int32.max))
            guard value == 1 else {
                throw error(node, .version, "unsupported recording version \(value) (this reader knows version 1)")
            }
            version = Int(value)
        }
        var declared: Int?
        if let node = present(root["ndevices"]) {
            declared = Int(try int(node, "ndevices", in: 1...4096))
        }
        var libinputVersion: String?
        if let libinput = present(root["libinput"]) {
            for (key, value) in try map(libinput, "libinput") where key == "version" && !value.isNull {
                libinputVersion = try string(value, "libinput.version")
            }
        }
        var system: [String: String] = [:]
        if let node = present(root["system"]) {
            for (key, value) in try map(node, "system") {
                if case .scalar(let text, _, _) = value { system[key] = text }
            }
        }
        guard let devicesNode = present(root["devices"]) else {
            throw RecordingError(
                file: file, line: root.mark.line, kind: .missing, reason: "no 'devices' list: not a libinput recording")
        }
        let items = try list(devicesNode, "devices")
        guard !items.isEmpty else {
            throw error(devicesNode, .missing, "the 'devices' list is empty")
        }
        var devices: [RecordedDevice] = []
        for (index, item) in items.enumerated() {
            devices.append(try device(item, index: index))
        }
        if let declared, declared != devices.count {
            let kind: RecordingError.Kind = devices.count < declared ? .truncated : .arity
            let problem = error(
                devicesNode, kind, "ndevices says \(declared) but the file has \(devices.count) device(s)")
            if devices.count < declared {
                try skippable(problem)
            } else {
                options.onWarning?(problem)
            }
        }
        return Recording(
            source: source, version: version, declaredDeviceCount: declared, libinputVersion: libinputVersion,
            system: system, devices: devices, options: options)
    }

    private func device(_ node: YAMLNode, index: Int) throws(RecordingError) -> RecordedDevice {
        let what = "devices[\(index)]"
        _ = try map(node, what)
        var node_: String?
        if let value = present(node["node"]) { node_ = try string(value, "\(what).node") }
        guard let evdev = present(node["evdev"]) else {
            throw RecordingError(
                file: file, line: node.mark.line, kind: .missing, reason: "\(what) has no 'evdev' description")
        }
        var description = try evdevDescription(evdev, what: "\(what).evdev")
        var hid: [UInt8]?
        if let value = present(node["hid"]) {
            var bytes: [UInt8] = []
            for item in try list(value, "\(what).hid") {
                bytes.append(UInt8(try int(item, "\(what).hid", in: 0...255)))
            }
            hid = bytes
        }
        if let udev = present(node["udev"]) {
            for (key, value) in try map(udev, "\(what).udev") where key == "properties" {
                for item in try list(value, "\(what).udev.properties") {
                    let text = try string(item, "\(what).udev.properties")
                    guard let equals = text.firstIndex(of: "=") else {
                        try skippable(error(item, .type, "\(what).udev.properties: '\(text)' is not KEY=VALUE"))
                        continue
                    }
                    description.udevProperties[String(text[..<equals])] = String(text[text.index(after: equals)...])
                }
            }
        }
        var quirks: [String] = []
        if let value = present(node["quirks"]) {
            for item in try list(value, "\(what).quirks") { quirks.append(try string(item, "\(what).quirks")) }
        }
        var capabilities: [String] = []
        if let libinput = present(node["libinput"]) {
            for (key, value) in try map(libinput, "\(what).libinput") where key == "capabilities" {
                for item in try list(value, "\(what).libinput.capabilities") {
                    capabilities.append(try string(item, "\(what).libinput.capabilities"))
                }
            }
        }
        var events: EventSource?
        if let value = node["events"] {
            switch value {
            case .events(let location, _): events = .file(location)
            case .null: break
            case .sequence(let items, _) where items.isEmpty: break  // `events: []` (--no-events)
            case .sequence(let items, let mark): events = .nodes(items, keyLine: mark.line)  // the general reader
            default:
                throw error(value, .type, "\(what).events: expected a list of event frames, found \(value.typeName)")
            }
        }
        return RecordedDevice(
            index: index, line: node.mark.line, node: node_, description: description, hidReportDescriptor: hid,
            quirks: quirks, libinputCapabilities: capabilities, events: events)
    }

    private func evdevDescription(_ node: YAMLNode, what: String) throws(RecordingError) -> DeviceDescription {
        _ = try map(node, what)
        var description = DeviceDescription(name: "")
        if let value = present(node["name"]) { description.name = try string(value, "\(what).name") }
        if let value = present(node["id"]) {
            let items = try list(value, "\(what).id")
            if items.count != 4 {
                try skippable(
                    error(
                        value, .arity,
                        "\(what).id: expected [bus, vendor, product, version], found \(items.count) numbers"))
            } else {
                var parts: [UInt16] = []
                for item in items { parts.append(UInt16(try int(item, "\(what).id", in: 0...0xFFFF))) }
                description.identity = DeviceIdentity(
                    bus: parts[0], vendor: parts[1], product: parts[2], version: parts[3])
            }
        }
        if let value = present(node["codes"]) {
            for (key, codes) in try map(value, "\(what).codes") {
                guard let type = Self.parseInt(key), let maxCode = EventType.maxCode(for: UInt16(clamping: type)),
                    (0...Int64(EventType.max)).contains(type)
                else {
                    try skippable(error(codes, .range, "\(what).codes: '\(key)' is not an evdev event type"))
                    continue
                }
                var set = Set<UInt16>()
                for item in try list(codes, "\(what).codes.\(key)") {
                    set.insert(UInt16(try int(item, "\(what).codes.\(key)", in: 0...Int64(maxCode))))
                }
                description.codes[UInt16(type)] = set
            }
        }
        if let value = present(node["absinfo"]) {
            for (key, info) in try map(value, "\(what).absinfo") {
                guard let code = Self.parseInt(key), (0...0x3f).contains(code) else {
                    try skippable(error(info, .range, "\(what).absinfo: '\(key)' is not an ABS_* code"))
                    continue
                }
                let name = "\(what).absinfo.\(EvdevNames.codeName(type: EventType.abs, code: UInt16(code)))"
                let items = try list(info, name)
                guard items.count == 5 else {
                    try skippable(
                        error(
                            info, .arity,
                            "\(name): expected [min, max, fuzz, flat, resolution], found \(items.count) numbers"))
                    continue
                }
                var numbers: [Int32] = []
                for item in items {
                    numbers.append(Int32(try int(item, name, in: Int64(Int32.min)...Int64(Int32.max))))
                }
                if numbers[1] < numbers[0] {
                    try skippable(error(info, .range, "\(name): maximum \(numbers[1]) is below minimum \(numbers[0])"))
                    continue
                }
                description.absinfo[UInt16(code)] = AbsInfo(
                    minimum: numbers[0], maximum: numbers[1], fuzz: numbers[2], flat: numbers[3], resolution: numbers[4]
                )
            }
        }
        if let value = present(node["properties"]) {
            for item in try list(value, "\(what).properties") {
                description.properties.insert(
                    UInt16(try int(item, "\(what).properties", in: 0...Int64(InputProperty.max))))
            }
        }
        return description
    }
}
