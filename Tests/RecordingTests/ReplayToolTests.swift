import Foundation
import PreviewEngine
import PreviewTrace
import ReplayTool
import Testing

/// Runs the replay in-process and returns its stdout lines, stderr lines and status.
func replay(_ files: [String], configure: (inout ReplayOptions) -> Void = { _ in }) -> (out: [String], err: [String], status: Int32) {
    var options = ReplayOptions()
    configure(&options)
    var out: [String] = []
    let err = Mutex<[String]>([])
    let status = Replay.run(files: files, options: options, output: { out.append($0) }, error: { line in err.withLock { $0.append(line) } })
    return (out, err.withLock { $0 }, status)
}

import Synchronization

@Suite("preview-replay")
struct ReplayToolTests {
    @Test("Every fixture replays with status 0 and valid JSON lines", arguments: Fixtures.all)
    func replaysAsJSON(name: String) throws {
        let result = replay([Fixtures.path(name)]) { $0.format = .json }
        #expect(result.status == 0)
        #expect(result.err.isEmpty)
        for line in result.out {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            for key in ["time_us", "device", "source", "simulated", "interaction", "event", "progress", "ended", "x", "y"] {
                #expect(object[key] != nil, "\(key) missing in \(line)")
            }
            let event = try #require(object["event"] as? String)
            #expect(["preview", "commit", "cancel"].contains(event))
            #expect((event == "cancel") == (object["reason"] != nil))
        }
    }

    @Test("Human output ends with a summary line")
    func humanSummary() {
        let result = replay([Fixtures.path("wacom-cintiq13hd-pen.yml")])
        #expect(result.status == 0)
        #expect(result.out.last?.hasPrefix("# 2 contact(s)") == true, "\(result.out.last ?? "")")
    }

    @Test("A missing file is a one-line error and status 1")
    func missingFile() {
        let result = replay(["/nonexistent/recording.yml"])
        #expect(result.status == 1)
        #expect(result.err == ["preview-replay: /nonexistent/recording.yml: cannot open: No such file or directory"])
    }
}
