import Foundation
import Testing

/// The client library from C (Tests/capi-client/client-api.c) under AddressSanitizer and UBSan,
/// the way an app's loop drives it: a compositor without the global, a press to completion
/// answered late, a decline, a cancel from a callback, the compositor killed mid-interaction,
/// and every misuse returning its status; and the README's C snippet, run as an app.
@Suite struct ClientAPITests {
    @Test("The C client library: presses, a dying compositor and misuse, under ASan and UBSan")
    func clientLibraryFromC() throws {
        let log = Paths.scratch("capi-client") + "/make.log"
        let run = try make("Tests/capi-client", ["check"], log: log)
        #expect(run.status == 0, "\(run.output)")
        // client-api.c, then the README's snippet (readme-app.c): each prints its summary.
        let summaries = run.output.split(separator: "\n").filter { $0.hasSuffix(" failed") }
        #expect(summaries.count == 2, "\(run.output)")
        #expect(summaries.allSatisfy { $0.hasSuffix(" 0 failed") && !$0.hasPrefix("0 passed") }, "\(run.output)")
        #expect(!run.output.contains("ERROR: AddressSanitizer") && !run.output.contains("runtime error"), "\(run.output)")
    }

    @Test("The client header's version and the pkg-config template name the library")
    func versionAndPkgConfig() throws {
        let header = try String(
            contentsOfFile: Paths.root + "/Sources/CClientLibrary/include/preview-interaction-client.h", encoding: .utf8)
        let template = try String(
            contentsOfFile: Paths.root + "/pkgconfig/preview-interaction-client.pc.in", encoding: .utf8)
        #expect(header.contains("#define PREVIEW_INTERACTION_CLIENT_VERSION \""))
        #expect(template.contains("Version: @VERSION@") && template.contains("-lpreview-interaction-client"))
        #expect(FileManager.default.fileExists(atPath: Paths.binaries + "/libpreview-interaction-client.so"))
    }
}
