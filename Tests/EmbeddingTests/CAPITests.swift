import Foundation
import Testing

/// The C API's error paths (Tests/capi/api-errors.c) under AddressSanitizer and UBSan: NULL
/// and stale handles, unknown contacts, double removal, calls after destroy, the wrong thread,
/// destroy from inside a callback, the display destroyed first.
@Suite struct CAPITests {
    @Test("Every misuse of the C API returns its status, under ASan and UBSan")
    func errorPaths() throws {
        let log = Paths.scratch("capi") + "/make.log"
        let run = try make("Tests/capi", ["check"], log: log)
        #expect(run.status == 0, "\(run.output)")
        let summary = run.output.split(separator: "\n").last { $0.hasSuffix(" failed") } ?? ""
        #expect(summary.hasSuffix(" 0 failed") && !summary.hasPrefix("0 passed"), "\(run.output)")
        #expect(
            !run.output.contains("ERROR: AddressSanitizer") && !run.output.contains("runtime error"), "\(run.output)")
    }

    @Test("The header's version matches the library's, and the pkg-config file names the library")
    func versionAndPkgConfig() throws {
        let header = try String(
            contentsOfFile: Paths.root + "/Sources/CCompositorModule/include/preview-interaction.h", encoding: .utf8)
        let template = try String(contentsOfFile: Paths.root + "/pkgconfig/preview-interaction.pc.in", encoding: .utf8)
        let version = header.split(separator: "\n").first { $0.hasPrefix("#define PREVIEW_INTERACTION_VERSION \"") }
        let number = version?.split(separator: "\"").dropFirst().first.map(String.init)
        #expect(number != nil)
        #expect(template.contains("Version: @VERSION@") && template.contains("-lpreview-interaction"))
        #expect(FileManager.default.fileExists(atPath: Paths.binaries + "/libpreview-interaction.so"))
    }
}
