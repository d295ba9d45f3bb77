import Foundation
import Testing

/// The sample outputs the README and docs/demo.md show, checked against a real run so they
/// cannot drift: every phase line of a sample must be in the run, in order (same interaction,
/// source, phase, device and client) within `timeSlack` seconds of the time shown; the other
/// lines must match but for the declared variable fields: the gauge and its value (they depend
/// on when the client answered should-begin), the run's duration, the output and runtime folders.
enum DocSamples {
    static let timeSlack = 0.5

    /// The fenced block after `marker` in `file` (relative to the checkout).
    static func block(in file: String, after marker: String) throws -> [String] {
        let text = try String(contentsOfFile: checkout + "/" + file, encoding: .utf8)
        let start = try #require(text.range(of: marker), "\(file) has no '\(marker)'")
        let rest = text[start.upperBound...]
        let open = try #require(rest.range(of: "```\n"))
        let close = try #require(rest[open.upperBound...].range(of: "```"))
        return rest[open.upperBound..<close.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
    }

    struct PhaseLine: Equatable {
        var time: Double
        var words: [String]

        /// `+0.136s   #1 pen          peek → commit       ████ 1.00  Wacom ISD-V4 Pen → client1`
        init?(_ line: String) {
            guard line.hasPrefix("+"), let s = line.firstIndex(of: "s"), let time = Double(line[line.index(after: line.startIndex)..<s])
            else { return nil }
            self.time = time
            var words: [String] = []
            for word in line[line.index(after: s)...].split(separator: " ") {
                if word.unicodeScalars.allSatisfy({ (0x2580...0x259F).contains($0.value) }) { continue }  // the gauge
                if word.contains("."), Double(word) != nil { continue }  // its value
                words.append(String(word))
            }
            self.words = words
        }
    }

    /// Every sample line is in `output` (in order), modulo the declared variable fields.
    static func check(sample: [String], output: String, where file: String) {
        let run = output.split(separator: "\n").map(String.init)
        let runPhases = run.compactMap(PhaseLine.init)
        var from = 0
        for line in sample where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            if let phase = PhaseLine(line) {
                let found = runPhases[from...].firstIndex {
                    $0.words == phase.words && abs($0.time - phase.time) <= timeSlack
                }
                #expect(found != nil, "\(file): '\(line)' is not what the demo prints now:\n\(output)")
                if let found { from = found + 1 }
            } else if line.contains(" interaction(s): ") {
                let stable = line.replacingOccurrences(of: #"; [0-9.]+ s$"#, with: "", options: .regularExpression)
                #expect(run.contains { $0.hasPrefix(stable + "; ") }, "\(file): '\(line)' vs\n\(output)")
            } else if line.hasPrefix("output in ") {
                #expect(run.contains { $0.hasPrefix("output in ") && $0.hasSuffix("/") })
            } else if line.hasPrefix("preview-demo: ") || line.hasPrefix("  (XDG_RUNTIME_DIR") {
                let stable = line.replacingOccurrences(of: #"/tmp/preview-demo-runtime-\S+$"#, with: "", options: .regularExpression)
                #expect(run.contains { $0.hasPrefix(stable) }, "\(file): '\(line)' vs\n\(output)")
            } else {
                #expect(run.contains(line), "\(file): '\(line)' is not in the demo's output:\n\(output)")
            }
        }
    }
}
