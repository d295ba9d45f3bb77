import Foundation
import PreviewEngine
import PreviewProtocolServer

/// What the user may change while the compositor runs: the engine's settings and the preview
/// keys. The command line gives them first; the settings file overrides them.
public struct UserSettings: Equatable, Sendable {
    public var engine: EngineConfiguration
    public var previewKeys: [PreviewKeyBinding]
    /// Look Up (docs/look-up.md): nil leaves the command line's choice.
    public var lookup: LookupSettings

    public init(
        engine: EngineConfiguration = EngineConfiguration(),
        previewKeys: [PreviewKeyBinding] = PreviewKeyBinding.defaults, lookup: LookupSettings = LookupSettings()
    ) {
        self.engine = engine
        self.previewKeys = previewKeys
        self.lookup = lookup
    }
}

/// The user's settings file (`--settings FILE`): `name = value` lines, `#` comments. Read at
/// start and again on SIGHUP; a value it gives overrides the command line's, a line removed
/// goes back to it. Haptics are not in it: the pads' host mode is set up with `--haptics`
/// when a device is added and does not change while the compositor runs.
///
///     sensitivity = firm          # light, medium, firm
///     long-press = slow           # fast, default, slow
///     completion = on-release     # on-force, on-release
///     preview-key = Menu          # one line per key, or keys separated by commas;
///     preview-key = Ctrl+Alt+p    #   the file's lines replace the command line's keys
///     preview-key = none          # no key begins an interaction
///     lookup = off                # on, off: Look Up in apps without the protocol
///     lookup-long-press = on      # on, off: a long press (no force) looks up too
///     lookup-deadline = 800       # ms (100...5000): how long a lookup may take
enum SettingsFile {
    /// A file that is larger than this is not a settings file.
    static let maximumBytes = 64 * 1024
    /// More keys than this is not a user's choice.
    static let maximumPreviewKeys = 16

    /// `options` with the file's values applied; throws `path:line: reason`.
    static func read(_ path: String, over options: UserSettings) throws(CompositorError) -> UserSettings {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .settings("\(path): cannot be read")
        }
        guard data.count <= maximumBytes else { throw .settings("\(path): larger than \(maximumBytes) bytes") }
        guard let text = String(data: data, encoding: .utf8) else { throw .settings("\(path): not UTF-8 text") }
        return try parse(text, path: path, over: options)
    }

    static func parse(_ text: String, path: String, over options: UserSettings) throws(CompositorError)
        -> UserSettings
    {
        var configuration = options.engine
        var lookup = options.lookup
        // The file's preview keys, once it has a preview-key line; `none` names no key.
        var previewKeys: [PreviewKeyBinding]?
        var noneLine: String?
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.prefix { $0 != "#" }.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty else { continue }
            let at = "\(path):\(index + 1)"
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { throw .settings("\(at): expected name = value") }
            let (name, value) = (parts[0], parts[1])
            switch name {
            case "sensitivity":
                guard let sensitivity = Sensitivity(rawValue: value) else {
                    throw .settings("\(at): sensitivity must be light, medium or firm, not \(value)")
                }
                configuration.sensitivity = sensitivity
            case "long-press":
                guard let longPress = LongPressDuration(rawValue: value) else {
                    throw .settings("\(at): long-press must be fast, default or slow, not \(value)")
                }
                configuration.longPress = longPress
            case "completion":
                guard let completion = Completion(rawValue: value) else {
                    throw .settings("\(at): completion must be on-force or on-release, not \(value)")
                }
                configuration.completion = completion
            case "preview-key":
                for key in value.split(separator: ",").map({ String($0) }) {
                    let isNone = key.trimmingCharacters(in: .whitespaces).lowercased() == "none"
                    if let noneLine, noneLine != at || !isNone {
                        throw .settings("\(at): preview-key none (no key) cannot be combined with keys")
                    }
                    if isNone {
                        guard previewKeys?.isEmpty ?? true else {
                            throw .settings("\(at): preview-key none (no key) cannot be combined with keys")
                        }
                        (noneLine, previewKeys) = (at, [])
                        continue
                    }
                    do {
                        let binding = try PreviewKeyBinding(parsing: key)
                        if previewKeys?.contains(binding) != true { previewKeys = (previewKeys ?? []) + [binding] }
                    } catch {
                        throw .settings("\(at): preview-key: \(error)")
                    }
                    guard previewKeys!.count <= maximumPreviewKeys else {
                        throw .settings("\(at): more than \(maximumPreviewKeys) preview keys")
                    }
                }
            case "lookup", "lookup-long-press":
                guard value == "on" || value == "off" else {
                    throw .settings("\(at): \(name) must be on or off, not \(value)")
                }
                if name == "lookup" { lookup.enabled = value == "on" } else { lookup.longPress = value == "on" }
            case "lookup-deadline":
                let range = LookupConfiguration.deadlineMilliseconds
                guard let milliseconds = Int64(value), range.contains(milliseconds) else {
                    throw .settings(
                        "\(at): lookup-deadline must be \(range.lowerBound)...\(range.upperBound) ms, not \(value)")
                }
                lookup.deadlineMilliseconds = milliseconds
            default:
                throw .settings(
                    """
                    \(at): unknown setting \(name) (sensitivity, long-press, completion, preview-key, lookup, \
                    lookup-long-press, lookup-deadline)
                    """)
            }
        }
        return UserSettings(engine: configuration, previewKeys: previewKeys ?? options.previewKeys, lookup: lookup)
    }
}
