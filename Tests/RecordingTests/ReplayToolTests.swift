import Foundation
import LibinputRecording
import PreviewEngine
import PreviewTrace
import ReplayTool
import Synchronization
import SystemLayer
import Testing
import _FixtureTestSupport

/// Runs the replay in-process and returns its stdout lines, stderr lines and status.
func replay(_ files: [String], configure: (inout ReplayOptions) -> Void = { _ in }) -> (
    out: [String], err: [String], status: Int32
) {
    var options = ReplayOptions()
    configure(&options)
    var out: [String] = []
    let err = Mutex<[String]>([])
    let status = Replay.run(
        files: files, options: options, output: { out.append($0) }, error: { line in err.withLock { $0.append(line) } })
    return (out, err.withLock { $0 }, status)
}

@Suite("preview-replay")
struct ReplayToolTests {
    @Test("Every fixture replays with status 0 and valid JSON lines", arguments: Fixtures.all)
    func replaysAsJSON(name: String) throws {
        let result = replay([Fixtures.path(name)]) { $0.format = .json }
        #expect(result.status == 0)
        // The one fixture libinput would refuse says so; nothing else reaches stderr.
        let expected =
            name == "wacom-dth2242-pen.yml"
            ? [
                "preview-replay: warning: \(Fixtures.path(name)): device 0 'Wacom DTH2242 Pen': libinput would reject it (missing tablet capabilities: resolution); the decoder replays it anyway"
            ] : []
        #expect(result.err == expected)
        for line in result.out {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            if object["event"] as? String == "haptic" {
                // A haptic device's clicks: their own, shorter line.
                #expect(Fixtures.hapticPads.contains(name), "\(line)")
                for key in ["time_us", "device", "effect", "waveform"] {
                    #expect(object[key] != nil, "\(key) missing in \(line)")
                }
                #expect(["press", "deep-click", "release"].contains(object["effect"] as? String ?? ""), "\(line)")
                continue
            }
            for key in [
                "time_us", "device", "source", "simulated", "interaction", "event", "progress", "ended", "x", "y",
            ] {
                #expect(object[key] != nil, "\(key) missing in \(line)")
            }
            let event = try #require(object["event"] as? String)
            #expect(["preview", "commit", "cancel"].contains(event))
            #expect((event == "cancel") == (object["reason"] != nil))
        }
    }

    @Test("A pressure pad with FF_HAPTIC: press at its click, deep click at the commit, release at button up")
    func hapticLines() throws {
        let result = replay([Fixtures.path("apple-bcm5974-pressurepad.yml")]) { $0.format = .json }
        let lines = try result.out.map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let haptics = lines.filter { $0["event"] as? String == "haptic" }
        let effects = haptics.map { "\($0["effect"] as? String ?? "?")@\($0["time_us"] as? Int ?? -1)" }
        // The fixture's BTN_LEFT goes down in the frame of 32012 µs, up in that of 311872 µs; the
        // commit comes at 48 ms (the engine's -> commit line); the light tap at 0.92 s clicks
        // and releases.
        #expect(
            effects.prefix(5) == [
                "press@32012", "deep-click@48008", "release@311872", "press@921988", "release@930988",
            ], "\(effects)")
        let commits = lines.filter { $0["event"] as? String == "preview" && $0["ended"] as? Bool == true }
        #expect(commits.count == 3)
        for commit in commits {
            let time = commit["time_us"] as? Int ?? -1
            #expect(effects.filter { $0 == "deep-click@\(time)" }.count == 1, "one deep click at \(time)")
        }
        // Never two effects for one moment.
        let times = haptics.map { $0["time_us"] as? Int ?? -1 }
        #expect(Set(times).count == times.count)
        // The same recording without FF_HAPTIC: not a single effect.
        let plain = replay([Fixtures.path("apple-bcm5974-touchpad.yml")]) { $0.format = .json }
        #expect(!plain.out.contains { $0.contains("\"haptic\"") })
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

/// Per interaction: how it ended, and whether it reached the commit phase.
struct Outcome: Equatable, CustomStringConvertible {
    var end: String
    var committed: Bool
    var description: String { "\(end)\(committed ? "+commit" : "")" }
}

func outcomes(_ file: String, configure: (inout ReplayOptions) -> Void = { _ in }) throws -> [Outcome] {
    let result = replay([file]) {
        $0.format = .json
        configure(&$0)
    }
    #expect(result.status == 0)
    var ends: [Int: String] = [:]
    var committed: Set<Int> = []
    var lastTime = Int64.min
    for line in result.out {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let id = try #require(object["interaction"] as? Int)
        let time = try #require(object["time_us"] as? Int64)
        #expect(time >= lastTime, "trace time never goes back")
        lastTime = time
        #expect(ends[id] == nil, "nothing after an interaction ended: \(line)")
        switch object["event"] as? String {
        case "commit":
            committed.insert(id)
            if object["ended"] as? Bool == true { ends[id] = "completed" }
        case "cancel": ends[id] = "cancelled (\(object["reason"] as? String ?? "?"))"
        default: break
        }
    }
    return ends.keys.sorted().map { Outcome(end: ends[$0]!, committed: committed.contains($0)) }
}

@Suite("preview-replay outcomes")
struct ReplayOutcomeTests {
    static let lifted = Outcome(end: "cancelled (lifted)", committed: false)
    static let liftedInCommit = Outcome(end: "cancelled (lifted)", committed: true)
    static let completed = Outcome(end: "completed", committed: true)

    /// Pinned with the engine's medium preset: every pen interaction, in order, and how it ended.
    @Test(
        "Pen fixtures: interactions and their outcomes",
        arguments: [
            // Two strokes, as libinput has them: the pressure dips to ~0 at 6.64 s (docs/testing.md).
            ("dell-canvas-isdv4-pen.yml", [lifted, completed]),
            ("uclogic-wp5540u-pen.yml", [lifted]),
            ("wacom-cintiq12wx-pen.yml", [lifted, liftedInCommit]),
            ("wacom-cintiq13hd-pen.yml", [liftedInCommit]),
            ("wacom-dth2242-pen.yml", [lifted, lifted, lifted, liftedInCommit, lifted, lifted, liftedInCommit]),
        ])
    func pens(file: String, expected: [Outcome]) throws {
        #expect(try outcomes(Fixtures.path(file)) == expected)
    }

    @Test("Touchpad fixtures: clicks are force clicks")
    func touchpads() throws {
        #expect(
            try outcomes(Fixtures.path("apple-bcm5974-touchpad.yml")) == [
                Self.completed, Self.completed, Self.completed,
            ])
        #expect(try outcomes(Fixtures.path("cypress-trackpad.yml")) == [Self.lifted])
        #expect(try outcomes(Fixtures.path("elantech-touchpad.yml")) == [], "no click, no interaction")
    }

    @Test("A lighter preset commits at least as often as a firmer one")
    func presets() throws {
        let file = Fixtures.path("wacom-dth2242-pen.yml")
        let light = try outcomes(file) { $0.configuration.sensitivity = .light }.filter(\.committed).count
        let firm = try outcomes(file) { $0.configuration.sensitivity = .firm }.filter(\.committed).count
        #expect(light >= firm)
        #expect(light > 0)
    }

    @Test("Without a pressure axis a held touch is a long press with simulated force")
    func longPress() throws {
        let path = try scratchFile(Self.plainTouchscreen)
        defer { removeScratch(path) }
        #expect(try outcomes(path) == [Self.completed])
        let result = replay([path]) { $0.format = .json }
        #expect(
            result.out.allSatisfy { $0.contains("\"simulated\":true") && $0.contains("\"source\":\"touchscreen\"") })
        let times = { (preset: LongPressDuration) -> Int64 in
            let lines = replay([path]) {
                $0.format = .json
                $0.configuration.longPress = preset
            }.out
            let first = lines.first.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            return first?["time_us"] as? Int64 ?? -1
        }
        #expect(
            times(.fast) < times(.default) && times(.default) < times(.slow), "presets change when the preview starts")
    }

    static let plainTouchscreen = """
        version: 1
        ndevices: 1
        devices:
        - node: /dev/input/event9
          evdev:
            name: "Plain Touchscreen"
            codes:
              1: [330]
              3: [0, 1]
            absinfo:
              0: [0, 1000, 0, 0, 0]
              1: [0, 1000, 0, 0, 0]
            properties: [1]
          events:
          - evdev:
            - [  0,      0,   1, 330,       1]
            - [  0,      0,   3,   0,     500]
            - [  0,      0,   3,   1,     500]
            - [  0,      0,   0,   0,       0]
          - evdev:
            - [  3,      0,   3,   0,     501]
            - [  3,      0,   0,   0,       0]
          - evdev:
            - [  4,      0,   1, 330,       0]
            - [  4,      0,   0,   0,       0]

        """
}

/// The real executable, next to the test bundle in the build directory.
func runReplayBinary(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
    let directory = try #require(
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")).map {
            ($0 as NSString).deletingLastPathComponent
        })
    let binary = directory + "/preview-replay"
    #expect(FileManager.default.isExecutableFile(atPath: binary), "build the package first: \(binary)")
    let run = try ChildProcess.run([binary] + arguments, input: .inherit)
    return (run.status, run.output, run.errors)
}

@Suite("preview-replay command line")
struct ReplayCommandLineTests {
    @Test("--help explains the output and exits 0")
    func help() throws {
        let result = try runReplayBinary(["--help"])
        #expect(result.status == 0)
        for word in [
            "--format", "--realtime", "--sensitivity", "--long-press", "--lenient", "--verbose", "completed",
            "Exit status",
            "standard input",
        ] {
            #expect(result.out.contains(word), "help mentions \(word)")
        }
    }

    @Test("A fixture replays with exit status 0")
    func success() throws {
        let result = try runReplayBinary(["--format", "json", Fixtures.path("dell-canvas-isdv4-pen.yml")])
        #expect(result.status == 0)
        #expect(result.err.isEmpty)
        #expect(result.out.split(separator: "\n").last?.contains("\"ended\":true") == true)
    }

    @Test("A malformed file: status 1 and a one-line file:line: reason error")
    func badInput() throws {
        let path = try scratchFile(
            Template.replacing("- [  0,  20000,   3,  24,     800]", with: "- [  0,  20000,   3,  24]"))
        defer { removeScratch(path) }
        let result = try runReplayBinary([path])
        #expect(result.status == 1)
        let line = Template.line(of: "- [  0,  20000,   3,  24,     800]")
        #expect(
            result.err
                == "preview-replay: \(path):\(line): an event has 5 numbers [sec, usec, type, code, value], this one has 4\n"
        )
        let lenient = try runReplayBinary(["--lenient", path])
        #expect(lenient.status == 0)
        #expect(lenient.err.hasPrefix("preview-replay: warning: \(path):\(line): "))
    }

    @Test(
        "Usage errors exit non-zero", arguments: [[], ["--format", "xml", "x.yml"], ["--preset", "squishy", "x.yml"]])
    func usage(arguments: [String]) throws {
        let result = try runReplayBinary(arguments)
        #expect(result.status == 64)
        #expect(!result.err.isEmpty)
    }
}

@Suite("preview-replay clocks")
struct ReplayClockTests {
    @Test("--realtime takes the recording's duration; the virtual clock doesn't")
    func realtime() throws {
        let file = Fixtures.path("wacom-cintiq13hd-pen.yml")  // 0.5 s of events
        let clock = ContinuousClock()
        let virtual = clock.measure { _ = replay([file]) }
        let real = clock.measure { _ = replay([file]) { $0.realtime = true } }
        #expect(real >= .milliseconds(480), "\(real)")
        #expect(virtual < .milliseconds(400), "\(virtual)")
        #expect(replay([file]).out == replay([file]) { $0.realtime = true }.out, "same trace either way")
    }

    @Test("Records for comparisons: the same outcomes as the printed trace")
    func records() throws {
        let file = Fixtures.path("wacom-dth2242-pen.yml")
        let (records, summary) = try Replay.records(input: RecordingInput(path: file), options: ReplayOptions())
        #expect(records.filter(\.isFinal).count == summary.interactions)
        #expect(records.map(\.jsonLine) == replay([file]) { $0.format = .json }.out)
    }
}

@Suite("preview-replay file errors")
struct ReplayFileErrorTests {
    @Test("A directory is an unreadable file, reported without a line number")
    func directory() {
        let result = replay([Fixtures.directory])
        #expect(result.status == 1)
        #expect(result.err == ["preview-replay: \(Fixtures.directory): cannot read: Is a directory"])
    }

    @Test("Several files replay in order; the first bad one stops with status 1")
    func severalFiles() {
        let good = Fixtures.path("wacom-cintiq13hd-pen.yml")
        let both = replay([good, Fixtures.path("cypress-trackpad.yml")])
        #expect(both.status == 0)
        #expect(both.out.filter { $0.hasPrefix("# /") } == ["# \(good)", "# \(Fixtures.path("cypress-trackpad.yml"))"])
        let bad = replay([good, "/nonexistent.yml", good])
        #expect(bad.status == 1)
        #expect(bad.out.filter { $0.hasPrefix("# /") }.count == 2, "stops at the bad file")
    }
}

@Suite("preview-replay --verbose")
struct ReplayVerboseTests {
    @Test("Verbose JSON adds one should-begin line per interaction, before its first phase event")
    func verboseJSON() throws {
        let file = Fixtures.path("wacom-dth2242-pen.yml")
        let quiet = replay([file]) { $0.format = .json }.out
        let verbose = replay([file]) {
            $0.format = .json
            $0.verbose = true
        }.out
        let asks = verbose.filter { $0.contains("\"event\":\"should-begin\"") }
        #expect(asks.count == 7)
        #expect(verbose.filter { !$0.contains("\"event\":\"should-begin\"") } == quiet)
        for id in 1...7 {
            let first = verbose.first { $0.contains("\"interaction\":\(id),") }
            #expect(first?.contains("should-begin") == true)
        }
    }

    @Test("Verbose human output shows contacts and pen proximity")
    func verboseHuman() {
        let out = replay([Fixtures.path("wacom-cintiq13hd-pen.yml")]) { $0.verbose = true }.out
        #expect(out.filter { $0.contains("CONTACT_BEGIN") }.count == 2)
        #expect(out.filter { $0.contains("CONTACT_END") }.count == 2)
        #expect(out.contains { $0.contains("PROXIMITY_IN") })
        #expect(out.contains { $0.contains("SHOULD_BEGIN") })
    }
}
