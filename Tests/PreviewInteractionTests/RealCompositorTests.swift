import Foundation
import SystemLayer
import Testing
import _FixtureTestSupport

// The library against the real compositor: preview-compositor replays a recorded pen press
// (real hardware, Sources/BundledRecordings/recordings) into minimal-preview-app, which uses nothing but
// the PreviewInteraction API. What CI runs to show an app built on the library works end to end.

@Suite(.serialized) struct RealCompositorTests {
    static let binaries = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
    static let recordings = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/BundledRecordings/recordings").standardized.path

    struct Run {
        var status: Int32
        var output: String
        var lines: [String] { output.split(separator: "\n").map(String.init) }
    }

    /// preview-compositor --replay RECORDING --run 'minimal-preview-app --exit-after PRESSES'.
    static func run(_ recording: String, presses: Int = 1, extra: [String] = []) throws -> Run {
        let runtime = FileManager.default.temporaryDirectory.appendingPathComponent(
            "minimal-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: runtime) }
        let log = runtime.appendingPathComponent("run.log")
        let process = try ChildProcess(
            [
                binaries + "/preview-compositor",
                "--backend", "headless", "--socket", "minimal-\(getpid())-\(UUID().uuidString.prefix(6))", "--replay",
                recordings + "/" + recording,
                "--exit-when-done", "-v", "--should-begin-timeout", String(slowClientShouldBeginTimeout),
                "--run", binaries + "/minimal-preview-app --exit-after \(presses)",
            ] + extra,
            environment: ["XDG_RUNTIME_DIR": runtime.path], output: .file(log.path))
        let status = process.wait(timeout: 120, grace: 60) ?? -1
        return Run(status: status, output: (try? String(contentsOf: log, encoding: .utf8)) ?? "")
    }

    @Test func aRecordedPenPressOpensTheItem() throws {
        // The Dell pen: a 47 ms stroke first (libinput's pressure thresholds lift the tip in its
        // pressure dip), then the press that opens the item.
        let run = try Self.run("dell-canvas-isdv4-pen.yml", presses: 2)
        #expect(run.status == 0, "\(run.output.suffix(3000))")
        let calls = run.lines.filter { $0.hasPrefix("press ") }
        #expect(
            calls.first?.hasPrefix("press 1 pen measured at ") == true && calls.first?.hasSuffix(": accept") == true,
            "\(calls)")
        let lifted = try #require(calls.firstIndex(of: "press 1 cancelled: lifted"), "\(calls)")
        #expect(calls[1..<lifted].allSatisfy { $0.hasPrefix("press 1 preview ") && !$0.hasSuffix("ended") }, "\(calls)")
        // The seeds' order: should-begin, preview progress, preview ended once, commit
        // progress, commit ended = completed; nothing after it.
        let begin = lifted + 1
        #expect(
            calls.count > begin && calls[begin].hasPrefix("press 2 pen measured at ")
                && calls[begin].hasSuffix(": accept"),
            "\(calls)")
        let previewEnded = try #require(calls.firstIndex(of: "press 2 preview 1.0 ended"), "\(calls)")
        #expect(
            calls[(begin + 1)..<previewEnded].allSatisfy { $0.hasPrefix("press 2 preview ") && !$0.hasSuffix("ended") },
            "\(calls)")
        #expect(calls.last == "press 2 completed: opened the item", "\(calls)")
        #expect(calls[(previewEnded + 1)...].dropLast().allSatisfy { $0.hasPrefix("press 2 commit ") }, "\(calls)")
        #expect(calls.filter { $0.contains("preview") && $0.hasSuffix("ended") }.count == 1)
        #expect(run.output.contains("flow control: "), "the compositor reports how it held progress back")
    }

    @Test func aPenLiftedDuringThePreviewCancels() throws {
        let run = try Self.run("uclogic-wp5540u-pen.yml")
        #expect(run.status == 0, "\(run.output.suffix(3000))")
        let calls = run.lines.filter { $0.hasPrefix("press ") }
        #expect(calls.first?.hasSuffix(": accept") == true, "\(calls)")
        #expect(calls.last == "press 1 cancelled: lifted", "\(calls)")
        #expect(!calls.contains { $0.contains("completed") || $0.contains("commit") }, "\(calls)")
    }

    /// The keyboard, with no force at all: a recorded Menu key held over the focused app (its
    /// one item has the focus point) runs the simulated long press through to the pop.
    @Test func aHeldMenuKeyOpensTheFocusedItem() throws {
        let run = try Self.run("handwritten-usb-keyboard-menu-hold.yml")
        #expect(run.status == 0, "\(run.output.suffix(3000))")
        let calls = run.lines.filter { $0.hasPrefix("press ") }
        #expect(calls.first?.hasPrefix("press 1 keyboard simulated at ") == true, "\(calls)")
        #expect(calls.first?.hasSuffix(" in the item: accept") == true, "\(calls)")
        #expect(calls.contains("press 1 preview 1.0 ended"), "\(calls)")
        #expect(calls.last == "press 1 completed: opened the item", "\(calls)")
    }

    /// A tap of Menu is the app's own key; a hold released before the commit cancels (`lifted`).
    @Test func aMenuKeyReleasedEarlyCancels() throws {
        let run = try Self.run("handwritten-usb-keyboard-menu-release.yml")
        #expect(run.status == 0, "\(run.output.suffix(3000))")
        let calls = run.lines.filter { $0.hasPrefix("press ") }
        #expect(calls.first?.hasPrefix("press 1 keyboard simulated at ") == true, "\(calls)")
        #expect(calls.last == "press 1 cancelled: lifted", "\(calls)")
        #expect(!calls.contains { $0.contains("completed") }, "\(calls)")
    }
}
