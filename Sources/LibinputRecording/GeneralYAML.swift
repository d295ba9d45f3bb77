import Yams

/// The fallback for recordings that are valid YAML in another layout than libinput's own (the
/// same recording re-saved by PyYAML: block lists for events, keys sorted, long strings folded),
/// which libinput's tools accept because they read YAML with a general parser. Read by Yams
/// (libyaml: iterative, nesting limited to 1000 levels) into `YAMLNode`s, events included, so
/// unlike the streaming reader it holds the whole file in memory: it is for files of at most
/// `maximumBytes`, and the streaming reader stays the path for libinput's own layout.
enum GeneralYAML {
    static let maximumBytes = 256 << 20

    /// The document, or nil when the file is not YAML either (the caller reports the streaming
    /// reader's error: it knows libinput's layout and says more). Throws for YAML that cannot
    /// be a recording.
    static func document(_ source: ByteSource, fastPathError: RecordingError) throws(RecordingError) -> YAMLNode? {
        guard let bytes = try source.readAll(limit: maximumBytes) else {
            throw RecordingError(
                file: source.name, line: fastPathError.line, column: fastPathError.column, kind: fastPathError.kind,
                reason: fastPathError.reason
                    + " (not libinput's layout; larger than \(maximumBytes >> 20) MiB, too large to read as general YAML)"
            )
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: String(decoding: bytes, as: UTF8.self))
        } catch {
            return nil
        }
        guard let root else { return nil }
        // YAML that does not even look like a recording: the streaming reader's words are better.
        guard case .mapping(let top) = root, top.contains(where: { $0.key.string == "devices" }) else { return nil }
        var converter = Converter(file: source.name, budget: 2 * bytes.count + 64)
        return try converter.node(root)
    }

    /// Yams nodes to ours. Aliases are expanded, so the walk has a budget proportional to the
    /// file's size (a few aliases can otherwise stand for billions of nodes).
    private struct Converter {
        let file: String
        var budget: Int

        mutating func node(_ node: Node) throws(RecordingError) -> YAMLNode {
            budget -= 1
            let mark = LibinputRecording.Mark(line: node.mark?.line ?? 0, column: node.mark?.column ?? 0)
            guard budget >= 0 else {
                throw RecordingError(
                    file: file, line: mark.line, column: mark.column, kind: .range,
                    reason: "aliases expand to more nodes than the file has bytes: not a recording")
            }
            switch node {
            case .scalar(let scalar):
                return FlowParser.plain(
                    scalar.string, quoted: scalar.style != .plain && scalar.style != .any, mark: mark)
            case .sequence(let sequence):
                var items: [YAMLNode] = []
                items.reserveCapacity(sequence.count)
                for item in sequence { items.append(try self.node(item)) }
                return .sequence(items, mark)
            case .mapping(let mapping):
                var entries: [(key: String, value: YAMLNode)] = []
                entries.reserveCapacity(mapping.count)
                for (key, value) in mapping {
                    guard case .scalar(let scalar) = key else {
                        throw RecordingError(
                            file: file, line: key.mark?.line ?? mark.line, column: key.mark?.column, kind: .type,
                            reason: "a map key that is not a plain value")
                    }
                    entries.append((scalar.string, try self.node(value)))
                }
                return .mapping(entries, mark)
            case .alias:
                // Yams resolves aliases while composing; an unresolved one is not a recording.
                throw RecordingError(
                    file: file, line: mark.line, column: mark.column, kind: .syntax, reason: "an unresolved alias")
            }
        }
    }
}
