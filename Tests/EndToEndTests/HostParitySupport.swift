import DemoReport
import Foundation
import LibinputRecording
import PreviewEngine
import PreviewTrace
import SystemLayer
import Testing
import UmockdevHarness
import _FixtureTestSupport

// The host parity suite's machinery: one scenario (recordings, an app, the user's settings) run
// in every host that embeds the interaction, and their JSON-lines traces reduced to what must
// agree. A host is one `ParityHost` entry: a third (sway) is one more.

/// What one run is given, whatever the host.
struct ParityRunSpec {
    var recordings: [String]
    var trace: String
    /// A shell command for the host's `--run` (the app, its log redirected).
    var client: String
    var width = 1280
    var height = 800
    /// The user's completion setting: complete when the contact lifts past the commit line.
    var completeOnRelease = false
    /// Look Up on (nil: off), with the user's long-press setting.
    var lookup: ParityLookUp?
    /// The replay keeps the recorded gaps and holds each stroke until the clients caught up
    /// (`--await-clients`), instead of skipping idle gaps (`--fast`).
    var awaitsClients = false
    /// Where the run's files go (a settings file, for one).
    var folder = ""
}

/// Look Up in a parity run: on, with the user's long-press setting.
struct ParityLookUp: Sendable {
    var longPress = false
    /// The recording is played twice and the second play's lookups are compared: an app's
    /// accessibility comes up after its window maps, in its own time, and a press right after
    /// the map may find it cold in any host (the first replies can miss the deadline).
    var warmUp = false
    /// preview-lookup of this build.
    static var executable: String { tools.directory + "/preview-lookup" }
}

/// A compositor that embeds the preview interaction and replays recordings into it.
struct ParityHost: Sendable {
    let name: String
    /// Whether its trace carries an accelerator's stage changes (`"event":"stage"` records).
    let tracesStages: Bool
    /// Builds what the host needs; the reason it cannot run otherwise.
    let prepare: @Sendable () -> String?
    /// Why the host cannot run on this machine (nil: it can): its runs are left out.
    var unavailable: @Sendable () -> String? = { nil }
    /// Why the host cannot run a scenario (nil: it can): that scenario compares the others.
    var refuses: @Sendable (ParityScenario) -> String? = { _ in nil }
    /// Whether the host runs its client as another user (the run's folder is opened to it).
    var foreignUser = false
    /// Its command line for a run.
    let command: @Sendable (ParityRunSpec) -> [String]

    /// preview-compositor, headless, idle gaps skipped (`--fast`).
    static let previewCompositor = ParityHost(
        name: "preview-compositor", tracesStages: true, prepare: { nil },
        command: { spec in
            [tools.compositor, "--backend", "headless", "--output", "\(spec.width)x\(spec.height)", "--replay"]
                + spec.recordings.map(ParityBuilds.recording) + [
                    spec.awaitsClients ? "--await-clients" : "--fast", "--exit-when-done", "--should-begin-timeout",
                    String(slowClientShouldBeginTimeout),
                    "--trace", spec.trace, "--run", spec.client,
                ] + (spec.completeOnRelease ? ["--completion", "on-release"] : [])
                + (spec.lookup.map { lookup in
                    // The long-press setting is the settings file's.
                    let settings = spec.folder + "/settings"
                    try? "lookup-long-press = \(lookup.longPress ? "on" : "off")\n".write(
                        toFile: settings, atomically: true, encoding: .utf8)
                    return ["--lookup", "on", "--settings", settings]
                } ?? [])
        })

    /// examples/wlroots-compositor: wlroots 0.15's headless backend, the recordings as virtual
    /// wlroots devices, the interaction through libpreview-interaction's C API. Its trace has
    /// stages where the C API reports them (`PREVIEW_INTERACTION_PHASE_STAGE`).
    static let wlrootsExample = ParityHost(
        name: "wlroots example", tracesStages: ParityBuilds.cAPIReportsStages, prepare: { ParityBuilds.wlroots },
        command: { spec in
            [
                ParityBuilds.wlrootsCompositor, "--decoder", tools.directory + "/preview-replay", "--width",
                String(spec.width), "--height",
                String(spec.height), "--replay",
            ]
                + spec.recordings.map(ParityBuilds.recording) + [
                    "--exit-when-done", "--should-begin-timeout", String(slowClientShouldBeginTimeout), "--trace",
                    spec.trace, "--run", spec.client,
                ] + (spec.completeOnRelease ? ["--completion", "on-release"] : [])
                + (spec.awaitsClients ? ["--await-clients"] : [])
                + (spec.lookup.map {
                    ["--lookup", "on", "--lookup-path", ParityLookUp.executable]
                        + ($0.longPress ? ["--lookup-long-press"] : [])
                } ?? [])
        })

    /// sway 1.7 with examples/sway's patches (scripts/sway-headless): the recordings as a real
    /// device of sway's own libinput backend (the umockdev testbed, played in real time), the app
    /// as nobody, the pointer started in the output's middle. Its trace has no stages. It plays
    /// one device per run, and its patch has no completion setting.
    static let sway = ParityHost(
        name: "sway", tracesStages: false, prepare: { Sway.build.failure }, unavailable: { Sway.build.skip },
        refuses: { scenario in
            if scenario.completeOnRelease { return "its patch sets no completion" }
            return ParityBuilds.oneDevice(scenario.recordings) ? nil : "the testbed plays one device per run"
        }, foreignUser: true,
        command: { spec in
            [
                "/usr/bin/env", "PREVIEW_TESTBED_DIR=" + tools.directory, Sway.script, "--replay",
            ] + spec.recordings.map(ParityBuilds.recording) + [
                "--output", "\(spec.width)x\(spec.height)", "--should-begin-timeout",
                String(slowClientShouldBeginTimeout), "--trace", spec.trace, "--run", spec.client, "--log",
                URL(fileURLWithPath: spec.trace).deletingLastPathComponent().path + "/sway.log",
            ]
                + (spec.lookup.map {
                    ["--lookup", ParityLookUp.executable] + ($0.longPress ? ["--lookup-long-press"] : [])
                } ?? [])
        })

    /// wayfire 0.7 with examples/wayfire's plugin (scripts/wayfire-headless --replay): the
    /// recordings as a real device of wayfire's own libinput backend (the umockdev testbed, played
    /// in real time, as sway's), the app as nobody, its window tiled to the whole output. Its trace
    /// has no stages; its plugin has no completion setting, and Look Up is off in wayfire
    /// (docs/wayfire.md).
    static let wayfire = ParityHost(
        name: "wayfire", tracesStages: false, prepare: { nil },
        unavailable: { Wayfire.skip ?? Wayfire.replaySkip },
        refuses: { scenario in
            if scenario.completeOnRelease { return "its plugin sets no completion" }
            if scenario.lookup != nil { return "Look Up is off in wayfire (docs/wayfire.md)" }
            return ParityBuilds.oneDevice(scenario.recordings) ? nil : "the testbed plays one device per run"
        }, foreignUser: true,
        command: { spec in
            [
                "/usr/bin/env", "PREVIEW_TESTBED_DIR=" + tools.directory, Wayfire.script, "--library",
                ParityBuilds.embedded, "--replay",
            ] + spec.recordings.map(ParityBuilds.recording) + [
                "--output", "\(spec.width)x\(spec.height)", "--should-begin-timeout",
                String(slowClientShouldBeginTimeout), "--trace", spec.trace, "--run", spec.client, "--log",
                URL(fileURLWithPath: spec.trace).deletingLastPathComponent().path + "/wayfire.log",
            ]
        })

    static let all = [previewCompositor, wlrootsExample, sway, wayfire]

    /// The hosts that can run `scenario` here, prepared (what could not be built is an issue);
    /// the others are left out with their reason, printed under `suite`'s name.
    static func hosts(for scenario: ParityScenario, suite: String) -> [ParityHost] {
        let hosts = all.filter { host in
            if let why = host.unavailable() ?? host.refuses(scenario) {
                print("\(suite): \(scenario.name) without \(host.name): \(why)")
                return false
            }
            return true
        }
        for host in hosts {
            if let problem = host.prepare() { Issue.record("\(host.name): \(problem)") }
        }
        return hosts
    }
}

/// What the suite builds with make (once per test process).
enum ParityBuilds {
    static let binaries = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../..").standardized.path
    /// The compositor library as it ships: the Embedded build (scripts/build-embedded, which
    /// scripts/test runs first).
    static let embedded = root + "/.build/embedded"
    /// The wlroots example on the Embedded library, in a folder of its own (other suites build
    /// it against the debug library).
    static let wlrootsCompositor = binaries + "/wlroots-embedded/preview-wlroots-compositor"
    static let windowApp = binaries + "/capi-client-tests/window-app"
    static let gtkAdapter = root + "/.build/gtk/meson/Pi-1.typelib"
    /// Whether the C API this tree builds reports an accelerator's stages to its host.
    static let cAPIReportsStages =
        (try? String(contentsOfFile: root + "/Sources/CCompositorModule/include/preview-interaction.h", encoding: .utf8))?
        .contains("PREVIEW_INTERACTION_PHASE_STAGE") ?? false

    /// A scenario's recording: a bundled one by name, any other by its absolute path.
    static func recording(_ name: String) -> String { name.hasPrefix("/") ? name : Fixtures.path(name) }

    /// Whether `recordings` are all of one device (name and event codes), as the testbed plays them.
    static func oneDevice(_ recordings: [String]) -> Bool {
        let devices = recordings.map { try? TestbedDevice(recording: Recording.open(recording($0))) }
        guard let first = devices.first ?? nil else { return false }
        return devices.allSatisfy { $0?.name == first.name && $0?.codes == first.codes }
    }

    /// examples/wlroots-compositor against the Embedded library, which it loads with no Swift
    /// runtime beside it; nil when built so.
    static let wlroots: String? = {
        let library = embedded + "/libpreview-interaction.so.1"
        guard FileManager.default.fileExists(atPath: library) else {
            return "no \(library): scripts/build-embedded preview-interaction"
        }
        if let problem = make("examples/wlroots-compositor", ["OUT=\(binaries)/wlroots-embedded"], build: embedded) {
            return problem
        }
        return loadsEmbeddedLibrary(wlrootsCompositor)
    }()

    /// Why `executable` would not load the Embedded compositor library, or would load a Swift
    /// runtime (nil: it loads that library and no Swift runtime).
    static func loadsEmbeddedLibrary(_ executable: String) -> String? {
        let library = embedded + "/libpreview-interaction.so.1"
        guard let ldd = try? ChildProcess.run(["/usr/bin/ldd", executable]), ldd.status == 0 else {
            return "ldd \(executable) failed"
        }
        guard ldd.output.contains("=> " + library), !ldd.output.contains("libswiftCore") else {
            return "\(executable) does not load \(library) alone:\n" + ldd.output
        }
        return nil
    }
    /// Tests/capi-client's window-app (the C client library's xdg-shell app).
    static let capiClient: String? = make("Tests/capi-client", ["all"])

    private static func make(_ folder: String, _ arguments: [String] = [], build: String = binaries) -> String? {
        let log = scratchDirectory("make") + "/make.log"
        guard
            let child = try? ChildProcess(
                ["/usr/bin/env", "make", "-C", root + "/" + folder, "BUILD=\(build)"] + arguments, output: .file(log))
        else { return "make could not start" }
        guard child.wait(timeout: 600) == 0 else {
            return "make -C \(folder) failed:\n" + FileWatch.contents(of: log).suffix(3000)
        }
        return nil
    }
}

/// A sample app as a `--run` command writing its log to `log`.
struct ParityApp: Sendable {
    let name: String
    let command: @Sendable (_ log: String) -> String

    private static func quote(_ words: [String]) -> String { words.map(shellQuote).joined(separator: " ") }

    /// peek-client (the PreviewInteraction library): the photo grid, the page's accelerator and
    /// markup pad.
    static func peekClient(_ options: [String] = []) -> ParityApp {
        ParityApp(name: "peek-client") { log in
            "exec " + quote([tools.client, "--log"] + options) + " > " + shellQuote(log) + " 2>&1"
        }
    }

    /// minimal-preview-app: one item filling the window but for a margin.
    static let minimal = ParityApp(name: "minimal-preview-app") { log in
        "exec " + quote([tools.directory + "/minimal-preview-app"]) + " > " + shellQuote(log) + " 2>&1"
    }

    /// The C client library's window app: accepts every press, leaves after `presses` ended.
    /// Built with AddressSanitizer, whose link-order check fails under umockdev's preload (sway).
    static func windowApp(presses: Int) -> ParityApp {
        ParityApp(name: "window-app") { log in
            "ASAN_OPTIONS=verify_asan_link_order=0 LSAN_OPTIONS="
                + shellQuote("suppressions=\(ParityBuilds.root)/scripts/lsan.supp,print_suppressions=0") + " exec "
                + quote([ParityBuilds.windowApp, String(presses)]) + " > " + shellQuote(log) + " 2>&1"
        }
    }

    /// peek-gtk: the photo library on GTK 4 through the GTK adapter's typelib (scripts/build-gtk).
    static func peekGTK(_ options: [String] = []) -> ParityApp {
        ParityApp(name: "peek-gtk") { log in
            "GSK_RENDERER=cairo NO_AT_BRIDGE=1 GDK_BACKEND=wayland GTK_A11Y=none exec "
                + quote(["/usr/bin/python3", ParityBuilds.root + "/examples/peek-gtk/peek-gtk", "--log"] + options)
                + " > " + shellQuote(log) + " 2>&1"
        }
    }

    /// Tests/python/v2_client.py (pywayland): a version 2 client whose options script it.
    static func v2Client(_ options: [String]) -> ParityApp {
        ParityApp(name: "v2_client") { log in
            "exec " + quote(["/usr/bin/python3", ParityBuilds.root + "/Tests/python/v2_client.py"] + options) + " > "
                + shellQuote(log) + " 2>&1"
        }
    }
}

/// One interaction reduced to what every host must agree on: where its force came from, its
/// phase changes with their reasons, and (where both hosts trace them) its stage changes, for a
/// measured force only: a simulated force is paced by the host's timer, and a late tick passes
/// two levels at once (the engine reports the level reached).
/// Left out: times, interaction numbers, device and client names, progress samples. Where it
/// ended is kept beside, compared with a tolerance (`ParityScenario.locationTolerance`): its
/// first record differs by host (a stage, or the end where stages are not traced).
struct ParityInteraction: Hashable, CustomStringConvertible {
    var source: InputSource
    var simulated: Bool
    var steps: [String]
    var end: Point

    var description: String { "\(source)\(simulated ? " (simulated)" : ""): \(steps.joined(separator: ", "))" }

    static func == (a: Self, b: Self) -> Bool { a.description == b.description }
    func hash(into hasher: inout Hasher) { hasher.combine(description) }

    static func all(_ records: [TraceRecord], stages: Bool) -> [ParityInteraction] {
        var order: [InteractionID] = []
        var byID: [InteractionID: ParityInteraction] = [:]
        for record in records {
            guard let phase = record.phase else { continue }  // should-begin: a question
            if byID[record.interaction] == nil {
                order.append(record.interaction)
                byID[record.interaction] = ParityInteraction(
                    source: record.source, simulated: record.simulated, steps: [], end: record.location)
            }
            byID[record.interaction]?.end = record.location
            switch phase {
            case .stage(let level) where stages && !record.simulated:
                byID[record.interaction]?.steps.append("stage \(level)")
            case .cancelled(let reason): byID[record.interaction]?.steps.append("cancelled (\(reason))")
            case .previewBegan, .previewEnded, .completed: byID[record.interaction]?.steps.append(phase.description)
            case .stage, .previewProgress, .commitProgress: break
            }
        }
        return order.compactMap { byID[$0] }
    }
}

/// One host's run of a scenario.
struct ParityRun {
    var host: String
    var status: Int32?
    var records: [TraceRecord]
    /// Look Up's records: each lookup reduced to what every host must agree on.
    var lookups: [ParityLookupRecord] = []
    var tracesStages: Bool
    var folder: String
    var clientLog: String
    var hostLog: String

    func interactions(stages: Bool) -> [ParityInteraction] {
        ParityInteraction.all(records, stages: stages && tracesStages)
    }

    /// The kind of area each press the client was asked about landed on, as peek-client logs
    /// it (`event=behaviour behaviour=accelerator stages=4`): what tells an accelerator from a
    /// deep click where a host's trace has no stages.
    var areas: [String] {
        clientLog.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("interaction="), line.contains(" event=behaviour ") else { return nil }
            return line.split(separator: " ").dropFirst(2).joined(separator: " ")
        }
    }

    /// Where the app's window geometry starts in its surface, as peek-gtk logs it at each press
    /// (`window-geometry X,Y`; zero for the other apps): sway tiles GTK's window without
    /// maximizing it, and puts its geometry, inside the shadow GTK keeps then, at the tile's
    /// origin; the other hosts maximize it (no shadow). Ends are compared relative to it.
    var windowOrigin: Point {
        for line in clientLog.split(separator: "\n") where line.hasPrefix("window-geometry ") {
            let numbers = line.dropFirst("window-geometry ".count).split(separator: ",").compactMap { Double($0) }
            if numbers.count == 2 { return Point(x: numbers[0], y: numbers[1]) }
        }
        return Point(x: 0, y: 0)
    }

    /// The presses peek-client was asked about and had not answered when they ended (its log:
    /// `event=should_begin`, then `event=cancelled` with no `request=` between): it answers in a
    /// millisecond or two unless the machine starves it.
    var unansweredPresses: [String] {
        var asked: Set<Substring> = []
        var unanswered: [String] = []
        for line in clientLog.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard let id = fields.first, id.hasPrefix("interaction="), fields.count > 1 else { continue }
            if fields[1] == "event=should_begin" { asked.insert(id) }
            if fields[1].hasPrefix("request=") { asked.remove(id) }
            if fields[1] == "event=cancelled", asked.remove(id) != nil { unanswered.append(String(id)) }
        }
        return unanswered
    }

    /// The run's evidence for a failure message.
    var summary: String {
        "\(host) (status \(status.map(String.init) ?? "none"), \(folder)):\n"
            + interactions(stages: true).map { "  \($0) at \($0.end)" }.joined(separator: "\n")
            + "\n  host log: …\(hostLog.suffix(1200))\n  client log: …\(clientLog.suffix(1200))"
    }
}

/// A scenario: recordings, an app, the user's settings; run in every host and compared.
struct ParityScenario: CustomStringConvertible, Sendable {
    var name: String
    var recordings: [String]
    var app: ParityApp
    var width = 1280
    var height = 800
    var completeOnRelease = false
    /// What the reference's interactions must show (each a part of one's description), how many
    /// there must be, and areas peek-client must have been pressed on: the scenario did what it
    /// is there for.
    var expected: [String] = []
    var count: Int? = nil
    var areas: [String] = []
    /// Look Up on (nil: off): every host then runs on a session bus of its own; the lookups the
    /// reference must show (each a `ParityLookupRecord`'s description).
    var lookup: ParityLookUp? = nil
    var lookups: [String] = []
    /// `--await-clients` pacing (every host's replay holds each stroke until its clients caught up).
    var awaitsClients = false

    /// How far apart (surface pixels) two hosts may place the end of one interaction.
    static let locationTolerance = 16.0
    /// The same for a touchpad's: sway's and wayfire's pointer is libinput's, which does not
    /// move it for a resting finger's first millimetre of drift, where the decoder does (up to
    /// 25 pixels in the bundled recordings; docs/testing.md).
    static let touchpadLocationTolerance = 32.0

    var description: String { name }

    func run(in host: ParityHost) throws -> ParityRun {
        let folder = scratchDirectory("parity")
        chmod(folder, host.foreignUser ? 0o777 : 0o700)
        let spec = ParityRunSpec(
            recordings: recordings, trace: folder + "/trace.jsonl", client: app.command(folder + "/client.log"),
            width: width, height: height, completeOnRelease: completeOnRelease, lookup: lookup,
            awaitsClients: awaitsClients, folder: folder)
        var environment = ["XDG_RUNTIME_DIR": folder]
        // Look Up reads the apps' accessibility: a session bus of the run's own (sway starts one
        // for its user).
        let bus = lookup != nil && !host.foreignUser ? try LookUpTests.SessionBus() : nil
        if let bus { environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address }
        let child = try ChildProcess(
            host.command(spec), environment: environment,
            unsetting: ["WAYLAND_DISPLAY"] + (lookup != nil ? ["NO_AT_BRIDGE", "GTK_A11Y"] : []),
            output: .file(folder + "/host.log"))
        let status = child.wait(timeout: 300)
        withExtendedLifetime(bus) {}
        return ParityRun(
            host: host.name, status: status, records: (try? TraceReader.read(path: spec.trace)) ?? [],
            lookups: ParityLookupRecord.all(in: spec.trace),
            tracesStages: host.tracesStages, folder: folder, clientLog: FileWatch.contents(of: folder + "/client.log"),
            hostLog: FileWatch.contents(of: folder + "/host.log") + FileWatch.contents(of: folder + "/sway.log")
                + FileWatch.contents(of: folder + "/wayfire.log"))
    }

    /// Where a host's run differs from the reference's: interactions only one of them has, or
    /// that differ, aligned as `diff` aligns lines (a longest common subsequence).
    struct Difference: Hashable, CustomStringConvertible {
        var host: String
        /// The reference's interaction, or nil where only `host` has one.
        var reference: String?
        var other: String?

        var description: String { "\(reference ?? "—") | \(host): \(other ?? "—")" }
    }

    /// Compares every run with the first (the reference). Stages are compared where both hosts
    /// trace them; end locations of matching interactions within `locationTolerance`.
    static func differences(_ runs: [ParityRun]) -> (differences: [Difference], misplaced: [String]) {
        guard let reference = runs.first else { return ([], []) }
        var differences: [Difference] = []
        var misplaced: [String] = []
        for other in runs.dropFirst() {
            let stages = reference.tracesStages && other.tracesStages
            let a = reference.interactions(stages: stages)
            let b = other.interactions(stages: stages)
            let (origin, otherOrigin) = (reference.windowOrigin, other.windowOrigin)
            for step in align(a, b) {
                switch step {
                case .both(let x, let y):
                    // In window-geometry coordinates: where the press landed in what the app drew.
                    let dx = (x.end.x - origin.x) - (y.end.x - otherOrigin.x)
                    let dy = (x.end.y - origin.y) - (y.end.y - otherOrigin.y)
                    let distance = (dx * dx + dy * dy).squareRoot()
                    if distance > (x.source == .touchpad ? touchpadLocationTolerance : locationTolerance) {
                        misplaced.append(
                            "\(x): \(reference.host) at \(x.end), \(other.host) at \(y.end) (window geometry at \(origin), \(otherOrigin))"
                        )
                    }
                case .onlyFirst(let x): differences.append(Difference(host: other.host, reference: x.description))
                case .onlySecond(let y): differences.append(Difference(host: other.host, other: y.description))
                }
            }
        }
        return (differences, misplaced)
    }

    enum Aligned {
        case both(ParityInteraction, ParityInteraction), onlyFirst(ParityInteraction), onlySecond(ParityInteraction)
    }

    /// `a` and `b` aligned on their longest common subsequence.
    static func align(_ a: [ParityInteraction], _ b: [ParityInteraction]) -> [Aligned] {
        var length = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                length[i][j] = a[i] == b[j] ? length[i + 1][j + 1] + 1 : max(length[i + 1][j], length[i][j + 1])
            }
        }
        var result: [Aligned] = []
        var (i, j) = (0, 0)
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i] == b[j] {
                result.append(.both(a[i], b[j]))
                (i, j) = (i + 1, j + 1)
            } else if j == b.count || (i < a.count && length[i + 1][j] >= length[i][j + 1]) {
                result.append(.onlyFirst(a[i]))
                i += 1
            } else {
                result.append(.onlySecond(b[j]))
                j += 1
            }
        }
        return result
    }
}

/// The differences docs/testing.md ("Host parity") documents, with their reasons: a scenario's
/// runs must differ by exactly its rows.
enum DocumentedDifferences {
    struct Row: Hashable {
        var scenario: String
        var difference: ParityScenario.Difference
    }

    static func rows() throws -> [Row] {
        let text = try String(contentsOfFile: ParityBuilds.root + "/docs/testing.md", encoding: .utf8)
        guard let section = text.range(of: "## Host parity") else { return [] }
        var rows: [Row] = []
        for line in text[section.upperBound...].split(separator: "\n") {
            if line.hasPrefix("## ") { break }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            // | scenario | host | preview-compositor | that host | reason |
            guard cells.count == 7, cells[1] != "scenario", !cells[1].hasPrefix("---") else { continue }
            func interaction(_ cell: String) -> String? {
                cell == "—" ? nil : cell.replacingOccurrences(of: "`", with: "")
            }
            rows.append(
                Row(
                    scenario: cells[1],
                    difference: .init(host: cells[2], reference: interaction(cells[3]), other: interaction(cells[4]))))
        }
        return rows
    }
}

/// One lookup reduced to what every host must agree on: the outcome of preview-lookup's answer,
/// what it found (the link's address, else the word), and how it ended. Left out: times, the
/// lookup's number, the toolkit and the definition (preview-lookup's, the same in every host).
struct ParityLookupRecord: Hashable, CustomStringConvertible {
    var outcome: String
    var found: String
    var steps: [String]

    var description: String { "\(outcome) \(found)" + (steps.isEmpty ? "" : ": " + steps.joined(separator: ", ")) }

    /// The trace's lookup records (`lookup`, `lookup-completed`, `lookup-cancelled`,
    /// `lookup-dismissed`), per lookup in the order they were answered.
    static func all(in trace: String) -> [ParityLookupRecord] {
        let text = (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""
        var order: [Int] = []
        var byID: [Int: ParityLookupRecord] = [:]
        for line in text.split(separator: "\n") where line.contains("\"event\":\"lookup") {
            guard let record = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
                let event = record["event"] as? String, let id = record["interaction"] as? Int
            else { continue }
            switch event {
            case "lookup":
                let link = record["link"] as? String ?? ""
                order.append(id)
                byID[id] = ParityLookupRecord(
                    outcome: record["outcome"] as? String ?? "?",
                    found: link.isEmpty ? record["word"] as? String ?? "" : link, steps: [])
            case "lookup-completed": byID[id]?.steps.append("completed")
            case "lookup-cancelled": byID[id]?.steps.append("cancelled (\(record["reason"] as? String ?? "?"))")
            case "lookup-dismissed": byID[id]?.steps.append("dismissed")
            default: break
            }
        }
        return order.compactMap { byID[$0] }
    }
}

extension ParityRun {
    var lookUpSummary: String {
        "\(host) (status \(status.map(String.init) ?? "none"), \(folder)):\n"
            + lookups.map { "  \($0)" }.joined(separator: "\n")
            + "\n  host log: …\(hostLog.suffix(1500))\n  client log: …\(clientLog.suffix(600))"
    }
}
