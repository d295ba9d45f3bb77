import Foundation
import SystemLayer
import Testing

/// A client written against the XML with someone else's tooling: pywayland generates its
/// bindings from protocol/preview-interaction-v1.xml, then talks to the scripted test
/// server (Tests/python/preview_client.py). Needs `pip install -r Tests/python/requirements.txt`
/// (scripts/install-deps does it).
@Test func aPywaylandClientBindsAnswersAndCancels() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    // The test server is built next to this test bundle.
    let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let server = products.appendingPathComponent("preview-protocol-test-server")
    #expect(FileManager.default.isExecutableFile(atPath: server.path), "build first: swift build --build-tests")

    let run = try ChildProcess.run(
        ["/usr/bin/python3", root.appendingPathComponent("Tests/python/preview_client.py").path, server.path],
        errors: nil)
    let transcript = run.output
    #expect(run.status == 0, "\(transcript)")
    #expect(transcript.contains("preview_client: all checks passed"), "\(transcript)")
}
