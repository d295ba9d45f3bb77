import Foundation
import SystemLayer
import Testing

/// WLCS, the conformance suite Mir and Smithay run, against the compositor loaded as a WLCS
/// module (scripts/conformance). Every failure must be one docs/conformance.md lists with its
/// reason, and a listed failure that passes now must leave the list.
@Suite struct WLCSTests {
    static let binaries = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../..").standardized.path

    @Test func everyFailureIsListedWithItsReason() throws {
        let run = try ChildProcess.run(
            [Self.root + "/scripts/conformance"],
            environment: ["WLCS_MODULE": Self.binaries + "/libpreview-compositor-wlcs.so"], input: .inherit,
            errors: nil, timeout: 1800)
        let text = run.output
        #expect(run.status == 0, "\(text)")
        // The counts line, and enough passing tests that the module really ran.
        let counts = text.split(separator: "\n").first { $0.hasPrefix("WLCS: ") }
        let passed = counts.flatMap { Int($0.dropFirst(6).prefix { $0 != " " }) } ?? 0
        #expect(passed >= 100, "\(text)")
    }
}
