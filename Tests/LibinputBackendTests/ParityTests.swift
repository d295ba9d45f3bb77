import Foundation
import LibinputBackend
import LibinputRecording
import PreviewEngine
import ReplayTool
import Testing
import UmockdevHarness
import _FixtureTestSupport

/// Every recording in the fixtures, through the recording decoder and through the real libinput:
/// the same contacts, interactions, outcomes (cancel reasons included) and peak force (within
/// 0.01). A difference fails unless docs/testing.md lists it, with its reason, in its table of
/// known differences (with the values seen: a changed value fails too).
/// Part of `ViaLibinputTests`, whose testbeds run one at a time.
extension ViaLibinputTests {
    static let forceTolerance = 0.01

    /// Every `.yml` under the fixtures directory, subdirectories included, relative to it.
    static let recordings: [String] = {
        let root = Fixtures.directory
        let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        return files.filter { $0.hasSuffix(".yml") }.sorted()
    }()

    @Test(arguments: recordings)
    func decoderAndLibinputAgree(file: String) throws {
        let path = Fixtures.path(file)
        let (direct, directOutcomes) = try replay(try RecordingInput(path: path))
        let input = try LibinputTestbedInput(path: path)
        let (real, realOutcomes) = try replay(input)
        let known = KnownDifference.table.filter { $0.recording == file }
        let differences = Self.differences(direct, real)
        withKnownIssue(
            "testbed starved: \(input.framesAtRisk) frame(s) read too late for libinput's 50 ms timer",
            isIntermittent: true
        ) {
            for difference in differences where !known.contains(where: { $0.explains(difference) }) {
                Issue.record(
                    """
                    \(file): \(difference.field): decoder \(difference.decoder), libinput \(difference.libinput), \
                    not in docs/testing.md's known differences
                    decoder  \(directOutcomes)
                    libinput \(realOutcomes)
                    \(input.log)
                    """)
            }
            for row in known where !differences.contains(where: { row.explains($0) }) {
                Issue.record("\(file): docs/testing.md lists a difference in \(row.field) that is gone: remove the row")
            }
            // Where the sums agree, each interaction must too: the same outcome, in order, and a
            // peak preview progress within `progressTolerance`.
            guard differences.isEmpty else { return }
            #expect(realOutcomes.map(\.end) == directOutcomes.map(\.end), "\(input.log)")
            for (got, want) in zip(realOutcomes, directOutcomes) {
                #expect(
                    abs(got.peakPreview - want.peakPreview) <= progressTolerance, "libinput \(got) vs decoder \(want)")
            }
        } when: {
            // A pressure pad's touch is read from the kernel state once per libinput dispatch: a
            // lift of a few ms (the fixture re-touches after 8 ms, twice) is missed when libinput
            // reads both frames in one dispatch, which a loaded machine makes likely.
            input.framesAtRisk > 0 || (file == "apple-bcm5974-pressurepad.yml" && Self.oneTouchApart(differences))
        }
        #expect(!input.log.contains("libinput bug"), "\(input.log)")
        let added = input.backendEvents.compactMap { event -> BackendDevice? in
            if case .deviceAdded(let device) = event { device } else { nil }
        }
        #expect(added.count == 1, "libinput did not take the device:\n\(input.log)")
        if input.devices.first?.kind == .touchpad {
            #expect(added.first?.hasForce == true, "every touchpad fixture has a pressure axis")
            let moved = input.backendEvents.contains { if case .input(.pointerMotion) = $0 { true } else { false } }
            #expect(moved, "libinput moved no pointer:\n\(input.log)")
        }
    }

    /// Every difference is one contact (and its interaction, cancelled on lift) fewer.
    static func oneTouchApart(_ differences: [Difference]) -> Bool {
        differences.allSatisfy { difference in
            guard let decoder = Int(difference.decoder), let libinput = Int(difference.libinput) else { return false }
            return ["contacts", "interactions", "cancelled (lifted)"].contains(difference.field)
                && decoder - libinput == 1
        }
    }

    struct Difference: CustomStringConvertible {
        var field: String
        var decoder: String
        var libinput: String
        var description: String { "\(field): \(decoder) vs \(libinput)" }
    }

    static func differences(_ a: ReplaySummary, _ b: ReplaySummary) -> [Difference] {
        var out: [Difference] = []
        func compare(_ field: String, _ x: Int, _ y: Int) {
            if x != y { out.append(Difference(field: field, decoder: "\(x)", libinput: "\(y)")) }
        }
        compare("contacts", a.contacts, b.contacts)
        compare("interactions", a.interactions, b.interactions)
        compare("completed", a.completed, b.completed)
        for reason in CancelReason.allCases {
            compare("cancelled (\(reason))", a.cancelled[reason] ?? 0, b.cancelled[reason] ?? 0)
        }
        if abs(a.peakForce - b.peakForce) > forceTolerance {
            out.append(
                Difference(
                    field: "peak force", decoder: String(format: "%.3f", a.peakForce),
                    libinput: String(format: "%.3f", b.peakForce)))
        }
        return out
    }

    @Test func theDocumentedTableIsReadable() {
        #expect(!KnownDifference.table.isEmpty, "docs/testing.md has no known-differences table")
        for row in KnownDifference.table {
            #expect(Self.recordings.contains(row.recording), "\(row.recording): no such fixture")
            #expect(!row.reason.isEmpty, "\(row.recording) \(row.field): a difference needs its reason")
        }
    }
}

/// One row of docs/testing.md's table "Known differences between the decoder and libinput":
/// `| recording | field | decoder | libinput | reason |`.
struct KnownDifference {
    var recording: String
    var field: String
    var decoder: String
    var libinput: String
    var reason: String

    func explains(_ difference: ViaLibinputTests.Difference) -> Bool {
        guard difference.field == field else { return false }
        if field == "peak force" {
            // The documented values, as far as the tolerance goes.
            guard let x = Double(decoder), let y = Double(libinput), let dx = Double(difference.decoder),
                let dy = Double(difference.libinput)
            else { return false }
            return abs(x - dx) <= ViaLibinputTests.forceTolerance && abs(y - dy) <= ViaLibinputTests.forceTolerance
        }
        return difference.decoder == decoder && difference.libinput == libinput
    }

    static let docs: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return (try? String(contentsOfFile: path + "/docs/testing.md", encoding: .utf8)) ?? ""
    }()

    static let table: [KnownDifference] = {
        guard let start = docs.range(of: "## Known differences between the decoder and libinput") else { return [] }
        var rows: [KnownDifference] = []
        for line in docs[start.upperBound...].split(separator: "\n") {
            if line.hasPrefix("## ") { break }
            guard line.hasPrefix("|") else { continue }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "`", with: "") }
            guard cells.count == 5, cells[0] != "recording", !cells[0].hasPrefix("-") else { continue }
            rows.append(
                KnownDifference(
                    recording: cells[0], field: cells[1], decoder: cells[2], libinput: cells[3], reason: cells[4]))
        }
        return rows
    }()
}
