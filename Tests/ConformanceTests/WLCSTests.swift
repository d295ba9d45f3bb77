import Foundation
import Testing

/// WLCS, the conformance suite Mir and Smithay run, against the compositor loaded as a WLCS
/// module (scripts/conformance). Every failure must be one docs/conformance.md lists with its
/// reason, and a listed failure that passes now must leave the list.
@Suite struct WLCSTests {
    static let binaries = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../..").standardized.path

    @Test func everyFailureIsListedWithItsReason() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.root + "/scripts/conformance")
        var environment = ProcessInfo.processInfo.environment
        environment["WLCS_MODULE"] = Self.binaries + "/libpreview-compositor-wlcs.so"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        // The counts line, and enough passing tests that the module really ran.
        let counts = text.split(separator: "\n").first { $0.hasPrefix("WLCS: ") }
        let passed = counts.flatMap { Int($0.dropFirst(6).prefix { $0 != " " }) } ?? 0
        #expect(passed >= 100, "\(text)")
    }
}
