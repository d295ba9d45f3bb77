import Foundation
import Testing

/// The sample outputs the README and docs/demo.md show, checked against a real run so they
/// cannot drift: every phase line of a sample must be in the run, in order (same interaction,
/// source, phase, device and client), its time since its interaction's first line within
/// `timeSlack` seconds of the sample's (where an interaction begins depends on how long the
/// client took to answer the ones before: the replay waits for every answer); the other
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
            guard line.hasPrefix("+"), let s = line.firstIndex(of: "s"),
                let time = Double(line[line.index(after: line.startIndex)..<s])
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

        /// `#2`: the interaction the line is about.
        var interaction: String? { words.first { $0.hasPrefix("#") } }
    }

    /// Each line's time since the first line of its interaction.
    static func sinceStart(_ lines: [PhaseLine]) -> [Double] {
        var starts: [String: Double] = [:]
        return lines.map { line in
            let key = line.interaction ?? ""
            let start = starts[key] ?? line.time
            starts[key] = start
            return line.time - start
        }
    }

    /// Every sample line is in `output` (in order), modulo the declared variable fields.
    static func check(sample: [String], output: String, where file: String) {
        let run = output.split(separator: "\n").map(String.init)
        let runPhases = run.compactMap(PhaseLine.init)
        let runSinceStart = sinceStart(runPhases)
        let sampleSinceStart = sinceStart(sample.compactMap(PhaseLine.init))
        var from = 0
        var phaseIndex = 0
        for line in sample where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            if let phase = PhaseLine(line) {
                let since = sampleSinceStart[phaseIndex]
                phaseIndex += 1
                let found = runPhases.indices[from...].first {
                    runPhases[$0].words == phase.words && abs(runSinceStart[$0] - since) <= timeSlack
                }
                #expect(found != nil, "\(file): '\(line)' is not what the demo prints now:\n\(output)")
                if let found { from = found + 1 }
            } else if line.contains(" interaction(s): ") {
                let stable = line.replacingOccurrences(of: #"; [0-9.]+ s$"#, with: "", options: .regularExpression)
                #expect(run.contains { $0.hasPrefix(stable + "; ") }, "\(file): '\(line)' vs\n\(output)")
            } else if line.hasPrefix("output in ") {
                #expect(run.contains { $0.hasPrefix("output in ") && $0.hasSuffix("/") })
            } else if line.hasPrefix("preview-demo: ") || line.hasPrefix("  (XDG_RUNTIME_DIR") {
                let stable = line.replacingOccurrences(
                    of: #"/tmp/preview-demo-runtime-\S+$"#, with: "", options: .regularExpression)
                #expect(run.contains { $0.hasPrefix(stable) }, "\(file): '\(line)' vs\n\(output)")
            } else {
                #expect(run.contains(line), "\(file): '\(line)' is not in the demo's output:\n\(output)")
            }
        }
    }
}
