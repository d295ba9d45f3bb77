/// The testbed device's force-feedback log (the shim's `PREVIEW_FF_LOG` lines) read back.
public enum ForceFeedbackLog {
    /// An effect played: the HID usage of the waveform its upload gave its id, and when
    /// (CLOCK_MONOTONIC µs).
    public struct Played: Equatable, Sendable {
        public var usage: String
        public var time: Int64
    }

    /// Every `EV_FF` write that played, in order (writes to an id no one owns are ignored, as
    /// the kernel ignores them).
    public static func played(_ log: String) -> [Played] {
        var usages: [String: String] = [:]
        var played: [Played] = []
        for line in log.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            guard let fd = words.firstIndex(of: "fd").map({ words[$0 + 1] }), let id = words.firstIndex(of: "id"),
                words.indices.contains(id + 1), let time = Int64(words[0])
            else { continue }
            let key = "\(fd)/\(words[id + 1])"
            if line.contains("EVIOCSFF"), let usage = words.firstIndex(of: "usage"), words.indices.contains(usage + 1) {
                usages[key] = words[usage + 1]
            }
            if line.contains(" EV_FF id "), !line.hasSuffix("ignored") {
                played.append(Played(usage: usages[key] ?? "?", time: time))
            }
        }
        return played
    }

    /// The names of the waveforms the library uploads (HID haptics usages).
    public static func name(_ usage: String) -> String {
        ["0x1006": "press", "0x1003": "click", "0x1007": "release"][usage] ?? usage
    }
}
