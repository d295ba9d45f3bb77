import DemoReport
import Foundation
import PreviewEngine
import PreviewTrace
import SystemLayer
import Testing
import UmockdevHarness
import _FixtureTestSupport

/// sway 1.7 with examples/sway's patches, built by scripts/build-sway against Debian's wlroots 0.15
/// (and the same sway without them), run by scripts/sway-headless: headless, as nobody, with the
/// recording as a real device of sway's own libinput backend (the umockdev testbed).
enum Sway {
    static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path
    static let script = checkout + "/scripts/sway-headless"
    /// With the module, on the Embedded library (as a distribution's sway would load it).
    static let patched = checkout + "/.build/sway/build/sway/sway"
    static let unpatched = checkout + "/.build/sway-unpatched/build/sway/sway"

    /// Why sway cannot run here (nil: it can), and why its build failed (nil: it did not). Built
    /// once per test run, patched and unpatched; only a missing source is a reason to skip.
    static let build: (skip: String?, failure: String?) = {
        guard getuid() == 0 else {
            return ("sway refuses root: scripts/sway-headless needs root to run it as nobody", nil)
        }
        if case .unavailable(let why) = LibinputTestbed.availability() { return (why, nil) }
        let log = NSTemporaryDirectory() + "build-sway-\(getpid()).log"
        let build = try? ChildProcess.run(
            [checkout + "/scripts/build-sway", "--library", ParityBuilds.embedded, "--unpatched"], output: .file(log),
            errors: .file(log), timeout: 1200)
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        if output.contains("no sway 1.7 source") { return (output, nil) }
        guard build?.status == 0 else { return (nil, "scripts/build-sway failed: \(output)") }
        return (nil, ParityBuilds.loadsEmbeddedLibrary(patched))
    }()

    static var available: Bool {
        if let why = build.skip {
            print("SwayTests: skipping sway: \(why)")
            return false
        }
        return true
    }

    /// The deep clicks whose first phase came more than 50 ms after their should-begin was sent
    /// (peek-client's or v2_client's log: `interaction=N event=frame serial=1 time_us=T` after
    /// the ask; a client answers in a millisecond or two), with that delay in µs: a client the
    /// machine starved, which a real-time testbed does not wait for.
    static func lateAnswers(client: [String], trace: [TraceRecord]) -> [InteractionID: Int64] {
        var asked: [InteractionID: Int64] = [:]
        var deepClicks: Set<InteractionID> = []
        for line in client {
            let fields = line.split(separator: " ")
            guard let first = fields.first, first.hasPrefix("interaction="),
                let number = UInt32(first.dropFirst("interaction=".count))
            else { continue }
            let id = InteractionID(number)
            if fields.contains("behaviour=deep_click") { deepClicks.insert(id) }
            if fields.contains("serial=1"), asked[id] == nil,
                let time = fields.first(where: { $0.hasPrefix("time_us=") }).flatMap({ Int64($0.dropFirst(8)) })
            {
                asked[id] = time
            }
        }
        var late: [InteractionID: Int64] = [:]
        for id in deepClicks {
            guard let ask = asked[id], let first = trace.first(where: { $0.interaction == id }) else { continue }
            let delay = first.time.microseconds - ask
            if delay > 50_000 { late[id] = delay }
        }
        return late
    }

    struct Run {
        var status: Int32?
        var client: [String]
        var trace: [TraceRecord]
        var log: String
        var shots: String

        /// sway's libinput said it read the device late ("your system is too slow": its tablet
        /// proximity timer expired before the frames were read), or the client answered a deep
        /// click's should-begin late. The testbed plays in real time, and a machine that starves
        /// sway for 50 ms or more makes libinput force the pen out of proximity and lose the
        /// stroke; a client starved as long leaves a short press no time to commit before its
        /// lift: such a run measures the load, not sway.
        var starved: Bool { log.contains("your system is too slow") || !lateAnswers.isEmpty }

        var lateAnswers: [InteractionID: Int64] { Sway.lateAnswers(client: client, trace: trace) }
    }

    /// `body`'s expectations, a known issue (not a failure) when a run was starved.
    static func unlessStarved(_ runs: Run..., body: () throws -> Void) rethrows {
        try withKnownIssue(
            "the machine starved sway's libinput or the client (late reads, late answers)", isIntermittent: true
        ) {
            try body()
        } when: {
            runs.contains(where: \.starved)
        }
    }

    /// Replays `recordings` (of one device: fixtures' names or paths) to `client` in sway; `sway`
    /// another build of it, `options` more of scripts/sway-headless's, `environment` sway's. The
    /// stream starts once the client's window is mapped (scripts/sway-headless), however long
    /// sway and the client take to start on a loaded machine.
    static func run(
        _ recordings: [String], client: String, sway: String? = nil, options: [String] = [],
        environment: [String: String] = [:], name: String = #function
    ) throws -> Run {
        if let failure = build.failure { throw BuildFailure(description: failure) }
        let folder = scratchDirectory(name)
        var command = [script, "--replay"] + recordings.map { $0.hasPrefix("/") ? $0 : Fixtures.path($0) }
        command += ["--run", client, "--trace", folder + "/trace.jsonl", "--screenshot-dir", folder + "/shots"]
        command += ["--should-begin-timeout", String(slowClientShouldBeginTimeout), "--log", folder + "/sway.log"]
        if let sway { command += ["--sway", sway] }
        let process = try ChildProcess(
            command + options, environment: environment.merging(["PREVIEW_TESTBED_DIR": tools.directory]) { $1 },
            output: .file(folder + "/client.log"), errors: .file(folder + "/errors.log"))
        let status = process.wait(timeout: 180)
        let client = FileWatch.contents(of: folder + "/client.log").split(separator: "\n").map(String.init)
        let log = FileWatch.contents(of: folder + "/errors.log") + FileWatch.contents(of: folder + "/sway.log")
        let trace = (try? TraceReader.read(path: folder + "/trace.jsonl")) ?? []
        return Run(status: status, client: client, trace: trace, log: log, shots: folder + "/shots")
    }

    struct BuildFailure: Error, CustomStringConvertible { var description: String }

    static func peek() -> String { "exec \(shellQuote(tools.client)) --log" }

    static func python(_ script: String, _ arguments: String) -> String {
        "exec /usr/bin/python3 \(shellQuote(checkout + "/Tests/python/" + script)) \(arguments)"
    }
}

@Suite(.serialized, .enabled(if: Sway.available, "needs root, the umockdev testbed and sway 1.7's source"))
struct SwayTests {
    @Test("A recorded pen press over peek-client pops in sway, through sway's libinput and seat")
    func penPressCompletes() throws {
        let run = try Sway.run(["dell-canvas-isdv4-pen.yml"], client: Sway.peek())
        #expect(run.status == 0, "\(run.log.suffix(4000))")
        Sway.unlessStarved(run) {
            let phases = run.trace.compactMap(\.phase)
            #expect(phases.first == .previewBegan && phases.contains(.previewEnded), "\(run.trace)")
            #expect(phases.last == .completed, "\(run.trace)\n\(run.client)\n\(run.log.suffix(3000))")
            #expect(run.client.contains { $0.contains("result=opened") }, "\(run.client)")
        }
        #expect(run.trace.allSatisfy { $0.source == .pen && !$0.simulated && $0.device == "Wacom ISD-V4 Pen" })
        let shot = try #require(Picture(path: run.shots + "/end.png"), "no screenshot: \(run.log.suffix(2000))")
        #expect(shot.width == 1280 && shot.height == 800)
        #expect(Set(shot.pixels).count > 16, "the screenshot shows peek-client's page")
    }

    @Test(
        "peek-gtk (GTK 4): its window fills the tile, and the pen's firm press on a photo opens it",
        .enabled(if: FileManager.default.fileExists(atPath: ParityBuilds.gtkAdapter), "scripts/build-gtk builds it"))
    func peekGTKPressCompletes() throws {
        let peekGTK = Sway.checkout + "/examples/peek-gtk/peek-gtk"
        let run = try Sway.run(
            ["dell-canvas-isdv4-pen.yml"],
            client: "GSK_RENDERER=cairo NO_AT_BRIDGE=1 GDK_BACKEND=wayland GTK_A11Y=none exec /usr/bin/python3 "
                + shellQuote(peekGTK) + " --log")
        #expect(run.status == 0, "\(run.log.suffix(4000))")
        Sway.unlessStarved(run) {
            // The photo under the pen is the one every host finds there (HostParityTests).
            #expect(run.client.contains { $0.hasPrefix("should-begin Misty Peaks pen") }, "\(run.client)")
            #expect(run.client.contains("open Misty Peaks"), "\(run.client)\n\(run.log.suffix(3000))")
            #expect(run.trace.compactMap(\.phase).last == .completed, "\(run.trace)")
        }
        // Tiled, not maximized: GTK keeps its shadow, which sway leaves outside the tile.
        let origins = run.client.filter { $0.hasPrefix("window-geometry ") }
        #expect(!origins.isEmpty && !origins.contains("window-geometry 0,0"), "\(run.client)")
        let shot = try #require(Picture(path: run.shots + "/end.png"), "no screenshot: \(run.log.suffix(2000))")
        #expect(shot.width == 1280 && shot.height == 800)
        #expect(Set(shot.pixels).count > 16, "the screenshot shows peek-gtk's photo page")
    }

    @Test("A client that takes seconds to start still gets the pen's press: the stream waits for its window")
    func slowClientGetsThePress() throws {
        // The stream's earliest start is a second after sway's; this client maps 3 s later.
        let run = try Sway.run(["dell-canvas-isdv4-pen.yml"], client: "sleep 3; " + Sway.peek())
        #expect(run.status == 0, "\(run.log.suffix(4000))")
        // The events' times moved with the stream: libinput never finds a frame seconds old (a
        // starved run's lateness is a few hundred ms at most).
        let lateness = run.log.split(separator: "\n").compactMap { line -> Int? in
            guard let range = line.range(of: "scheduled expiry is in the past (-") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
        #expect(lateness.allSatisfy { $0 < 1000 }, "libinput's timers, ms late: \(lateness)")
        Sway.unlessStarved(run) {
            #expect(run.trace.compactMap(\.phase).last == .completed, "\(run.trace)\n\(run.client)")
        }
    }

    @Test("A firm press on a pressure touchpad pops, its force read from the device; the photo's accelerator works")
    func touchpadPressAndAccelerator() throws {
        let run = try Sway.run(["apple-bcm5974-pressurepad.yml"], client: Sway.peek())
        #expect(run.status == 0, "\(run.log.suffix(4000))")
        let first = run.trace.filter { $0.interaction == InteractionID(1) }
        #expect(first.allSatisfy { $0.source == .touchpad && !$0.simulated }, "\(first)")
        Sway.unlessStarved(run) {
            #expect(first.last?.phase == .completed, "\(run.trace)")
            // The later presses land on the photo page's 4-stage accelerator.
            #expect(
                run.client.contains { $0.contains("event=behaviour behaviour=accelerator stages=4") }, "\(run.client)")
            #expect(run.trace.contains { $0.interaction != InteractionID(1) }, "\(run.trace)")
        }
    }

    @Test("The pen pressed twice: the second press lands on the photo page's accelerator zoom, and sway lives on")
    func acceleratorPage() throws {
        let run = try Sway.run(["dell-canvas-isdv4-pen.yml", "dell-canvas-isdv4-pen.yml"], client: Sway.peek())
        #expect(run.status == 0, "\(run.log.suffix(4000))")
        try Sway.unlessStarved(run) {
            #expect(run.client.contains { $0.contains("result=opened") }, "\(run.client)")
            let accelerator = try #require(
                run.client.first { $0.contains("event=behaviour behaviour=accelerator") },
                "\(run.client)\nsway's log: \(run.log.suffix(3000))")
            let id = try #require(
                accelerator.split(separator: " ").first.flatMap { UInt32($0.dropFirst("interaction=".count)) })
            #expect(run.trace.contains { $0.interaction == InteractionID(id) }, "its phases reach sway: \(run.trace)")
        }
    }

    @Test("A recorded Menu key held over a version 2 client: a keyboard interaction through sway's key handler")
    func heldMenuKey() throws {
        let run = try Sway.run(["handwritten-usb-keyboard-menu-hold.yml"], client: Sway.python("v2_client.py", ""))
        #expect(run.status == 0, "\(run.log.suffix(4000))")
        Sway.unlessStarved(run) {
            #expect(run.client.contains("should_begin 1 5 2"), "source keyboard, force simulated: \(run.client)")
            #expect(run.client.last == "v2_client: completed", "\(run.client)")
            #expect(
                run.trace.last?.phase == .completed && run.trace.allSatisfy { $0.source == .keyboard }, "\(run.trace)")
        }
    }

    @Test("A client that does not use the protocol gets the same tablet-v2 and pointer events as from sway unpatched")
    func ownInputUnchanged() throws {
        let cases = [
            ("dell-canvas-isdv4-pen.yml", "--tablet", "tool down"),
            ("handwritten-usb-mouse.yml", "--pointer", "pointer button"),
        ]
        for (recording, mode, expected) in cases {
            let runs = try [nil, Sway.unpatched].map { sway in
                let folder = scratchDirectory("own-input")
                chmod(folder, 0o777)
                let client = Sway.python("tablet_client.py", "\(mode) \(folder)/events.log")
                let run = try Sway.run([recording], client: client, sway: sway)
                #expect(run.status == 0, "\(run.log.suffix(4000))")
                #expect(run.trace.isEmpty, "no client asked for the preview interaction: \(run.trace)")
                return (run, Self.events(FileWatch.contents(of: folder + "/events.log")))
            }
            let logs = runs.map(\.1)
            Sway.unlessStarved(runs[0].0, runs[1].0) {
                #expect(logs[0].contains { $0.hasPrefix(expected) }, "\(logs[0])")
                #expect(logs[0] == logs[1], "patched:\n\(logs[0])\nunpatched:\n\(logs[1])")
            }
        }
    }

    /// The client's events, its frame lines left out: wlroots sends a tablet tool's frame from an
    /// idle callback, so how many frames a run's axes are grouped in depends on timing (the
    /// testbed plays in real time).
    static func events(_ log: String) -> [String] {
        log.split(separator: "\n").map(String.init).filter { $0.split(separator: " ").dropFirst().first != "frame" }
    }
}
