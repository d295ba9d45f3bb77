import Foundation
import Testing

@testable import PreviewCompositor

/// A recording given at start-up is read through before the socket opens: a bad one is one
/// line and a non-zero status; a good one with an absurd pause still ends.
@Suite(.serialized) struct BadRecordingStartupTests {
    static let goodPen = ReplayRunTests.recordings + "/dell-canvas-isdv4-pen.yml"

    /// Bad files of every kind the reader rejects: header, events, depth, size, bytes.
    static func badFiles() throws -> [(name: String, path: String)] {
        let good = try String(contentsOfFile: goodPen, encoding: .utf8)
        let lines = good.split(separator: "\n", omittingEmptySubsequences: false)
        let lastEvent = try #require(lines.lastIndex { $0.contains("- [") })
        var badEvent = lines
        badEvent[lastEvent] = "    - [  1, 2, 3 ]"
        // 5 MB of comment lines in the header: past its 4 MiB limit.
        let hugeComment = String(repeating: "# " + String(repeating: "x", count: 1_000) + "\n", count: 5_000)
        let cases: [(String, String)] = [
            ("empty", ""),
            ("not yaml", "\u{7f}ELF\u{1b}[2J junk\n"),
            ("version 2", good.replacingOccurrences(of: "version: 1", with: "version: 2")),
            ("bad last event", badEvent.joined(separator: "\n")),
            ("deep flow", "version: 1\nndevices: " + String(repeating: "[", count: 20_000) + "\n"),
            ("deep block", "version: 1\ndevices:\n" + String(repeating: "- ", count: 25_000) + "x\n"),
            ("control bytes", "version: 1\nndevices: [1] \u{1b}[2J\u{7}\n"),
            ("huge header", good.replacingOccurrences(of: "version: 1\n", with: "version: 1\n" + hugeComment)),
        ]
        let folder = TestRuntime.temporaryDirectory("bad-recordings")
        return try cases.map { name, text in
            let path = folder + "/\(name.replacingOccurrences(of: " ", with: "-")).yml"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return (name, path)
        }
    }

    @Test("The library: every bad recording is the replay backend's invalidRecording, named file:line")
    func libraryRejects() throws {
        for (name, path) in try Self.badFiles() {
            var configuration = CompositorConfiguration()
            configuration.listen = false
            configuration.input = .replay([Self.goodPen, path])
            do {
                _ = try Compositor(configuration: configuration)
                Issue.record("\(name): accepted")
            } catch {
                guard case .backend(let failure) = error,
                    case .invalidRecording(let reason) = failure.error as? ReplayError
                else {
                    Issue.record("\(name): \(error)")
                    continue
                }
                #expect(reason.hasPrefix(path + ":"), "\(name): \(reason)")
                #expect(!reason.contains("\n"), "\(name)")
            }
        }
    }

    @Test("preview-compositor --replay BAD.yml: one line on stderr, status 1, no socket")
    func executableRejects() throws {
        for (name, path) in try Self.badFiles().prefix(4) {
            let socket = TestRuntime.uniqueSocket()
            let run = try ClientProcess(
                [
                    ReplayRunTests.binaries + "/preview-compositor", "--socket", socket, "--replay", path,
                    "--exit-when-done",
                ],
                socket: "", environment: [:]
            ).finish(timeout: 60)
            #expect(run.status == 1, "\(name): \(run.output)")
            #expect(run.output.hasPrefix("preview-compositor: \(path):"), "\(name): \(run.output)")
            #expect(run.output.filter { $0 == "\n" }.count == 1, "\(name): \(run.output)")
            #expect(!run.output.unicodeScalars.contains { $0.value == 0x1b }, "\(name): raw escape echoed")
            #expect(!FileManager.default.fileExists(atPath: TestRuntime.directory + "/" + socket))
        }
    }

    @Test("A pause of 10^6 s in a recording is shortened: --exit-when-done ends")
    func longGapEnds() throws {
        let good = try String(contentsOfFile: Self.goodPen, encoding: .utf8)
        // Every frame in the second half of the file happens 10^6 s later.
        var lines = good.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let events: [Int] = Array(lines.indices).filter { lines[$0].contains("- [") }
        var shifting = false
        for index in events.suffix(from: events.count / 2) {
            let line = lines[index]
            guard let open = line.firstIndex(of: "["), let close = line.firstIndex(of: "]") else { continue }
            var fields: [String] = line[line.index(after: open)..<close].split(separator: ",").map {
                String($0).trimmingCharacters(in: CharacterSet.whitespaces)
            }
            if shifting, let seconds = Int(fields[0]) {
                fields[0] = String(seconds + 1_000_000)
                lines[index] = line[...open] + fields.joined(separator: ", ") + line[close...]
            }
            if fields[2] == "0" && fields[3] == "0" { shifting = true }  // after a SYN_REPORT
        }
        let shifted = lines.joined(separator: "\n")
        let path = TestRuntime.temporaryDirectory("long-gap") + "/gap.yml"
        try shifted.write(toFile: path, atomically: true, encoding: .utf8)

        let host = try LocalCompositor {
            var replay = ReplayOptions(paths: [path], fast: false)
            replay.longestGapMilliseconds = 200
            $0.input = .replay(replay)
            $0.exitWhenDone = true
        }
        let client = try host.connect()
        _ = client.window()  // the replay starts when a window maps
        let start = ContinuousClock.now
        #expect(host.dispatch(until: { host.compositor.isStopped }, timeout: 60), "still waiting after the gap")
        #expect(ContinuousClock.now - start < .seconds(60))
    }
}
