import DemoReport
import Foundation
import PreviewEngine
import PreviewTrace
import SystemLayer
import Testing
import _FixtureTestSupport

/// Where SwiftPM put the binaries (libpreview-interaction.so among them), and the repository.
enum Paths {
    static let binaries = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../..").standardized.path

    static func scratch(_ label: String) -> String {
        let path = NSTemporaryDirectory() + "embedding-\(label)-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        chmod(path, 0o700)
        return path
    }
}

/// Runs `make` in a folder of the repository against this build; returns its output.
func make(_ folder: String, _ targets: [String] = [], log: String) throws -> (status: Int32?, output: String) {
    let process = try ChildProcess(
        ["/usr/bin/env", "make", "-C", Paths.root + "/" + folder, "BUILD=\(Paths.binaries)"] + targets,
        output: .file(log))
    let status = process.wait(timeout: 600)
    return (status, (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
}

/// One interaction of a trace, as compared across compositors: its phase changes, outcome
/// and the progress values it went through.
struct TracedInteraction: CustomStringConvertible {
    var phases: [String]
    var outcome: String
    var preview: [Double]
    var commit: [Double]

    static func all(_ records: [TraceRecord]) -> [TracedInteraction] {
        InteractionStory.stories(of: records).map { story in
            TracedInteraction(
                phases: story.records.compactMap { $0.phase?.changesPhase == true ? $0.phase?.description : nil },
                outcome: "\(story.outcome)",
                preview: story.records.filter { $0.phaseAfter == .preview || $0.phase == .previewEnded }.map(
                    \.progress),
                commit: story.records.filter { $0.phaseAfter == .commit && $0.phase != .previewEnded }.map(\.progress))
        }
    }

    var description: String { "\(phases) \(outcome) preview \(preview) commit \(commit)" }

    /// Progress values of `self` off the reference's curve by more than `tolerance`, phase by
    /// phase (`ProgressCurves.mismatches`; the best reference is the engine alone, which answers
    /// at once and so has every sample).
    func progressMismatches(against reference: TracedInteraction, tolerance: Double) -> [String] {
        ProgressCurves.mismatches("preview", preview, against: reference.preview, tolerance: tolerance)
            + ProgressCurves.mismatches("commit", commit, against: reference.commit, tolerance: tolerance)
    }
}
