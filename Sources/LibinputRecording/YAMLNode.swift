/// Where a node starts in the file.
struct Mark: Hashable, Sendable {
    var line: Int
    var column: Int
}

/// Where a device's `events:` list starts, for the lazy event stream.
struct EventsLocation: Hashable, Sendable {
    /// Byte offset and number of the line after `events:`.
    var offset: Int64
    var lineNumber: Int
    /// Indentation of the `events:` key: the list's lines are deeper, or at it with `-`.
    var keyIndent: Int
    /// The line of the `events:` key itself, for errors.
    var keyLine: Int
}

/// The YAML subset `libinput record` writes: block maps and sequences, flow sequences and maps,
/// plain and quoted scalars. Only the header becomes nodes; device event lists stay in the file.
indirect enum YAMLNode: Sendable {
    case scalar(String, quoted: Bool, Mark)
    case sequence([YAMLNode], Mark)
    case mapping([(key: String, value: YAMLNode)], Mark)
    case null(Mark)
    case events(EventsLocation, Mark)

    var mark: Mark {
        switch self {
        case .scalar(_, _, let mark), .sequence(_, let mark), .mapping(_, let mark), .null(let mark),
            .events(_, let mark):
            mark
        }
    }

    var typeName: String {
        switch self {
        case .scalar(let text, _, _): "'\(text.count > 40 ? String(text.prefix(40)) + "…" : text)'"
        case .sequence: "a list"
        case .mapping: "a map"
        case .null: "nothing"
        case .events: "an event list"
        }
    }

    /// The value of `key` in a mapping; nil if absent or not a mapping.
    subscript(key: String) -> YAMLNode? {
        guard case .mapping(let entries, _) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }

    var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}
