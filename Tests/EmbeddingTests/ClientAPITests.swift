import DemoReport
import Foundation
import SystemLayer
import Testing
import _FixtureTestSupport

/// The client library from C (Tests/capi-client/client-api.c) under AddressSanitizer and UBSan,
/// the way an app's loop drives it: a compositor without the global, a press to completion
/// answered late, a decline, a cancel from a callback, the compositor killed mid-interaction,
/// and every misuse returning its status; surfaces with items and a hostile compositor
/// (Tests/capi-client/items.c); and the README's C snippet, run as an app.
@Suite(.serialized) struct ClientAPITests {
    @Test("The C client library: presses, a dying compositor and misuse, under ASan and UBSan")
    func clientLibraryFromC() throws {
        let log = Paths.scratch("capi-client") + "/make.log"
        let run = try make("Tests/capi-client", ["check"], log: log)
        #expect(run.status == 0, "\(run.output)")
        // client-api.c, items.c, then the README's snippet (readme-app.c): each prints its summary.
        let summaries = run.output.split(separator: "\n").filter { $0.hasSuffix(" failed") }
        #expect(summaries.count == 3, "\(run.output)")
        #expect(summaries.allSatisfy { $0.hasSuffix(" 0 failed") && !$0.hasPrefix("0 passed") }, "\(run.output)")
        #expect(
            !run.output.contains("ERROR: AddressSanitizer") && !run.output.contains("runtime error"), "\(run.output)")
    }

    @Test("A C app on the client library takes a recorded pen press to completion in preview-compositor")
    func aCAppInTheRealCompositor() throws {
        let scratch = Paths.scratch("window-app")
        let build = try make("Tests/capi-client", ["all"], log: scratch + "/make.log")
        #expect(build.status == 0, "\(build.output)")
        let app = Paths.binaries + "/capi-client-tests/window-app"
        let process = try ChildProcess(
            [
                Paths.binaries + "/preview-compositor", "--backend", "headless", "--socket", "window-app-\(getpid())",
                "--replay", Paths.root + "/Sources/BundledRecordings/recordings/dell-canvas-isdv4-pen.yml",
                "--exit-when-done",
                "--should-begin-timeout", String(slowClientShouldBeginTimeout), "--run", "\(app) 2",
            ],
            environment: [
                "XDG_RUNTIME_DIR": scratch,
                "LSAN_OPTIONS": "suppressions=\(Paths.root)/scripts/lsan.supp,print_suppressions=0",
            ], output: .file(scratch + "/run.log"))
        let status = process.wait(timeout: 120)
        let output = (try? String(contentsOfFile: scratch + "/run.log", encoding: .utf8)) ?? ""
        #expect(status == 0, "\(output.suffix(3000))")
        let calls = output.split(separator: "\n").filter { $0.hasPrefix("press ") }.map(String.init)
        // The Dell pen: a short stroke lifted in the preview, then the press that completes.
        #expect(calls.first?.hasPrefix("press 1 pen measured at ") == true, "\(calls)")
        #expect(calls.contains("press 1 cancelled lifted"), "\(calls)")
        #expect(
            calls.filter { $0.hasSuffix(" ended") }.count == 1 && calls.contains("press 2 preview 1.00 ended"),
            "\(calls)")
        #expect(calls.last == "press 2 completed", "\(calls)")
        #expect(
            !output.contains("ERROR: AddressSanitizer") && !output.contains("runtime error"), "\(output.suffix(3000))")
    }

    @Test("The client header's version and the pkg-config template name the library")
    func versionAndPkgConfig() throws {
        let header = try String(
            contentsOfFile: Paths.root + "/Sources/CClientLibrary/include/preview-interaction-client.h", encoding: .utf8
        )
        let template = try String(
            contentsOfFile: Paths.root + "/pkgconfig/preview-interaction-client.pc.in", encoding: .utf8)
        #expect(header.contains("#define PREVIEW_INTERACTION_CLIENT_VERSION \""))
        #expect(template.contains("Version: @VERSION@") && template.contains("-lpreview-interaction-client"))
        #expect(FileManager.default.fileExists(atPath: Paths.binaries + "/libpreview-interaction-client.so"))
    }
}
