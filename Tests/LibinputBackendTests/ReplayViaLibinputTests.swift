import Foundation
import PreviewTrace
import ReplayTool
import Testing
import _FixtureTestSupport

/// `preview-replay --via-libinput` prints the same trace format as the direct path.
@Suite(.enabled(if: Testbed.available, "needs umockdev-run and mount namespaces (unshare -m)"))
struct ReplayViaLibinputTests {
    @Test func jsonTraceHasTheDirectPathsShape() throws {
        let file = Fixtures.path("wacom-cintiq13hd-pen.yml")
        func run(viaLibinput: Bool) -> (Int32, [String]) {
            var options = ReplayOptions()
            options.format = .json
            options.viaLibinput = viaLibinput
            var lines: [String] = []
            let status = Replay.run(files: [file], options: options, output: { lines.append($0) }, error: { _ in })
            return (status, lines)
        }
        let (directStatus, direct) = run(viaLibinput: false)
        let (status, vialibinput) = run(viaLibinput: true)
        #expect(directStatus == 0 && status == 0)
        try #require(!vialibinput.isEmpty)
        func keys(_ line: String) throws -> Set<String> {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return Set(object?.keys ?? [:].keys)
        }
        #expect(try keys(vialibinput[0]) == keys(direct[0]))
        #expect(field(vialibinput.last!, "event") == field(direct.last!, "event"))
        #expect(field(vialibinput.last!, "device") == "Wacom Cintiq 13HD touch Pen")
    }

    @Test func aFileThatIsNotARecordingFailsCleanly() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-recording-\(getpid()).yml").path
        try "hello: [".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var options = ReplayOptions()
        options.viaLibinput = true
        let errors = Errors()
        let status = Replay.run(files: [path], options: options, output: { _ in }, error: { errors.append($0) })
        #expect(status == 1)
        #expect(errors.lines.first?.hasPrefix("preview-replay: \(path)") == true, "\(errors.lines)")
    }
}

final class Errors: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func append(_ line: String) { lock.withLock { stored.append(line) } }
    var lines: [String] { lock.withLock { stored } }
}
