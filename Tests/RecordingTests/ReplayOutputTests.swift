import Foundation
import PreviewTrace
import ReplayTool
import Testing
import _FixtureTestSupport

/// Where the `+…s` time field ends on a human line (nil: not a columned line).
private func timeColumn(_ line: String) -> Int? {
    guard let match = line.range(of: #" \+[0-9]+\.[0-9]{3}s  "#, options: .regularExpression) else { return nil }
    return line.distance(from: line.startIndex, to: match.upperBound)
}

@Suite("preview-replay's human output: columns, names, why nothing happened")
struct ReplayOutputTests {
    @Test("Two devices whose names differ only at the end keep their whole names, and the columns line up")
    func longNames() throws {
        let text = RobustnessTests.twoDevices
        let names = text.split(separator: "\n").filter { $0.contains("name:") }
        #expect(names.count == 2)
        var renamed = text
        renamed = renamed.replacingOccurrences(of: String(names[0]), with: "    name: \"Wacom Cintiq 13HD touch Pen\"")
        renamed = renamed.replacingOccurrences(
            of: String(names[1]), with: "    name: \"Wacom Cintiq 13HD touch Finger\"")
        let path = try scratchFile(renamed)
        defer { removeScratch(path) }
        let result = replay([path]) { $0.verbose = true }
        #expect(result.status == 0, "\(result.err)")
        let columned = result.out.filter { timeColumn($0) != nil }
        #expect(!columned.isEmpty)
        #expect(!result.out.contains { $0.contains("…") }, "no name is cut")
        #expect(Set(columned.map(timeColumn)).count == 1, "\(columned.joined(separator: "\n"))")
    }

    @Test("Times right-aligned: the same column at 1 s, 12 s and 123 s")
    func timesPastTenSeconds() {
        let columns = [1_000_000, 12_000_000, 123_000_000].map {
            TraceColumns.prefix(name: "Pen", nameWidth: 24, kind: "PREVIEW", time: .init(microseconds: Int64($0))).count
        }
        #expect(Set(columns).count == 1, "\(columns)")
    }

    @Test("-v: phase, contact and proximity lines share the columns", arguments: Fixtures.pens)
    func verboseColumns(name: String) {
        let result = replay([Fixtures.path(name)]) { $0.verbose = true }
        let columns = Set(result.out.compactMap(timeColumn))
        #expect(columns.count == 1, "\(result.out.prefix(12).joined(separator: "\n"))")
        #expect(result.out.contains { $0.contains("CONTACT_BEGIN") })
    }

    @Test(
        "-v says why a device began nothing",
        arguments: [
            (
                "elantech-touchpad.yml",
                "never clicked: a force click begins at the click, as on macOS"
            ),
            ("handwritten-usb-keyboard.yml", "keyboards pass keys through"),
            ("handwritten-usb-mouse.yml", "none held still for the long press"),
        ])
    func whyNothing(name: String, expected: String) {
        let verbose = replay([Fixtures.path(name)]) { $0.verbose = true }
        #expect(
            verbose.out.contains { $0.hasPrefix("# ") && $0.contains("no interaction: ") && $0.contains(expected) },
            "\(verbose.out.suffix(3))")
        let quiet = replay([Fixtures.path(name)])
        #expect(!quiet.out.contains { $0.contains("no interaction: ") }, "only with -v")
    }

    @Test("-v is silent about devices that did begin an interaction")
    func nothingToExplain() {
        let verbose = replay([Fixtures.path("dell-canvas-isdv4-pen.yml")]) { $0.verbose = true }
        #expect(!verbose.out.contains { $0.contains("no interaction: ") })
    }
}

@Suite("Sample outputs in the docs are what the tools print")
struct DocSampleTests {
    @Test("docs/recordings.md's preview-replay block: every line shown is in the real output, in order")
    func recordingsDoc() throws {
        let docs = Fixtures.directory + "/../../../docs/recordings.md"
        let text = try String(contentsOfFile: docs, encoding: .utf8)
        let start = try #require(text.range(of: "```\nWacom ISD-V4 Pen"))
        let block = text[text.index(after: start.lowerBound)...].dropFirst(3)
        let end = try #require(block.range(of: "```"))
        let sample = block[..<end.lowerBound].split(separator: "\n").map(String.init)
        let real = replay([Fixtures.path("dell-canvas-isdv4-pen.yml")]).out
        var from = 0
        for line in sample where line != "…" {
            let found = real[from...].firstIndex(of: line)
            #expect(
                found != nil,
                "docs/recordings.md shows '\(line)'; preview-replay prints:\n\(real.joined(separator: "\n"))")
            from = (found ?? from) + 1
        }
        #expect(sample.last == real.last, "the closing line")
    }
}
