import Foundation
import LibinputBackend
import PreviewEngine
import SystemLayer

/// Runs a recorded device through the real libinput, headless: the device becomes an
/// umockdev testbed and `libinput-testbed-runner` drives `LibinputBackend` on it inside
/// `unshare -m umockdev-run` (docs/testing.md explains the three gaps this closes).
///
///     parent ── unshare -m runner setup DIR ── umockdev-run -d -i -s ── runner replay DIR
///                (mounts /run/udev, writes        (fakes sysfs, ioctls,    (LibinputBackend,
///                 the udev db and the script)      feeds the events)        prints TestbedLines)
public enum LibinputTestbed {
    public enum Availability: Equatable, Sendable {
        case available
        case unavailable(String)
    }

    public struct Options: Sendable {
        /// Remove the device (as if unplugged) at this time on the recording's clock, in µs.
        public var removeAt: Int64?
        /// Time the runner gets to start libinput before the first event, in ms.
        public var leadMilliseconds: Int
        /// The runner's opener refuses the device (EACCES), to see how a missing permission ends.
        public var denyOpen = false
        /// Use libinput's udev backend (seat0 enumeration) instead of the path backend.
        public var udev = false
        /// The `DeviceID` the backend gives the device (the recording decoder numbers from 0).
        public var deviceID: UInt32
        /// A command the libinput step runs under, e.g. `valgrind --tool=callgrind …` to count
        /// libinput's instructions (scripts/perf-compare); PREVIEW_TESTBED_WRAPPER sets it, words
        /// split on spaces. It gets 30 s more lead: the tool starts slowly.
        public var wrapper: [String]
        /// Also hand the device over to a `HostedDevice` (as an embedding compositor does) and
        /// log its force beside the backend's for every contact sample (`hosted force F backend B`).
        public var hosted = false
        /// Haptics at this intensity, with an engine that accepts every press: the log gets
        /// `phase EVENT at T` and `haptic MOMENT at T` lines (recording µs), and
        /// `Run.forceFeedback` every force-feedback call the device got.
        public var haptics: HapticIntensity?
        /// With `haptics`: what force means where the runner's presses begin (the client's
        /// declaration in a compositor).
        public var behaviour: PressureBehaviour = .deepClick
        /// With `haptics`: at the first click the runner starts a child that lives on, logs
        /// `crash-test child PID devices PATHS` (the device files it has open) and dies of
        /// SIGKILL; the run then has no `done` line and returns what there is.
        public var crashWithChild = false
        /// With `haptics`: the device is opened inheritable (as a seat manager may hand it over)
        /// and, from before it is opened to the end, the runner starts children one after the
        /// other (`ls -l /proc/self/fd`), each logged as `spawned child holds FD->PATH,...` with
        /// the device files it was started with.
        public var spawnsChildren = false
        /// Hand the device to libpreview-interaction instead (a compositor embedding it, with a
        /// version 2 client that accepts every press): the pad's clicks are the library's, at
        /// `haptics`; the log gets `embedded phase N` lines.
        public var embedded = false
        /// With `embedded`: the user changes the haptics setting to this after the stream, before
        /// the host's teardown (the log gets the uploads the device had had before it).
        public var embeddedHapticsAfter: HapticIntensity?
        /// With `embedded`: once the first press is handed over and answered, the host reads
        /// nothing of the library's for this long (a compositor late by that much), then hands
        /// over the release it read meanwhile before the library's own descriptor is dispatched.
        public var embeddedStallMilliseconds: Int?
        /// Log every force-feedback call the device gets (`forceFeedback` of the run), as
        /// `haptics` does, for a live command whose haptics are its own (a compositor's).
        public var logsForceFeedback = false
        /// For a live command: the stream starts once this file exists (the command's client is
        /// ready), `leadMilliseconds` after the start at the earliest; the events' times move with it.
        public var readyFile: String?
        /// For a live command: after the stream it ends only once this file exists (its client
        /// has shown that it took the input), `doneLimitSeconds` at most.
        public var doneFile: String?
        /// How long the runner waits for `readyFile` before the stream starts anyway.
        public var readyLimitSeconds = LibinputTestbed.readyLimitSeconds
        public init(removeAt: Int64? = nil, leadMilliseconds: Int = 1500, deviceID: UInt32 = 0) {
            self.deviceID = deviceID
            self.removeAt = removeAt
            wrapper = (ProcessInfo.processInfo.environment["PREVIEW_TESTBED_WRAPPER"] ?? "")
                .split(separator: " ").map(String.init)
            self.leadMilliseconds = leadMilliseconds + (wrapper.isEmpty ? 0 : 30_000)
        }
    }

    public struct Run: Sendable {
        /// What the backend reported, times on the recording's clock.
        public var events: [BackendEvent]
        /// The runner's and libinput's log lines.
        public var log: String
        /// The largest delay from an event's timestamp to libinput reading it (measured by the
        /// shim) or the backend reporting it, in ms.
        /// Recordings have gaps of 40-45 ms between frames and libinput's tablet proximity timer
        /// fires 50 ms after the last one, so a frame read more than a few ms late may find the pen
        /// forced out of proximity: such a run says more about the machine's load than about
        /// libinput (`trustworthy`).
        public var worstLag: Int64

        /// Frames that came less than 50 ms after the previous one but were read 49 ms or more
        /// after it (the shim counts them): only those can change what libinput does.
        public var framesAtRisk: Int64

        public var trustworthy: Bool { framesAtRisk == 0 }

        /// The testbed device's force-feedback log (the shim's PREVIEW_FF_LOG lines: uploads,
        /// erasures, EV_FF writes, what a close erased), when `Options.haptics` was set.
        public var forceFeedback = ""
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The runner and the shim sit next to the running executable (SwiftPM's build directory
    /// for tests and for `preview-replay`); PREVIEW_TESTBED_DIR overrides.
    public static var toolsDirectory: URL {
        if let dir = ProcessInfo.processInfo.environment["PREVIEW_TESTBED_DIR"] {
            return URL(fileURLWithPath: dir)
        }
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return exe.deletingLastPathComponent()
    }

    static var runner: URL { toolsDirectory.appendingPathComponent("libinput-testbed-runner") }
    public static var shim: URL { toolsDirectory.appendingPathComponent("libumockdev-fstat-shim.so") }

    static func executable(named name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// How long the runner waits for a live command's ready file (`Options.readyFile`) unless
    /// `Options.readyLimitSeconds` says otherwise.
    public static let readyLimitSeconds = 120.0
    /// How long after the stream the runner waits for a live command's done file (`Options.doneFile`).
    public static let doneLimitSeconds = 60.0

    /// A shell command running `command` (its output passed on, line by line) that creates
    /// `readyFile` when it prints a line beginning with `prefix` (a client's "mapped"): for a
    /// live command's `Options.readyFile`.
    public static func shell(_ command: String, readyOn prefix: String, file readyFile: String) -> String {
        func quote(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        return "{ \(command); } | while IFS= read -r line; do printf '%s\\n' \"$line\"; case \"$line\" in "
            + quote(prefix) + "*) : > " + quote(readyFile) + ";; esac; done"
    }

    /// Whether the runner has printed its last line.
    static func finished(_ output: String) -> Bool {
        ("\n" + output).contains("\n" + TestbedLine.done + "\n")
    }

    /// Whether this machine can run a testbed, and if not, why.
    public static func availability() -> Availability {
        guard executable(named: "umockdev-run") != nil else {
            return .unavailable("umockdev-run not found (Debian package umockdev)")
        }
        guard let unshare = executable(named: "unshare") else { return .unavailable("unshare not found (util-linux)") }
        guard FileManager.default.isExecutableFile(atPath: runner.path) else {
            return .unavailable("\(runner.path) not built (swift build)")
        }
        guard FileManager.default.fileExists(atPath: shim.path) else {
            return .unavailable("\(shim.path) not built (swift build --product umockdev-fstat-shim)")
        }
        let probe: ChildProcess.Run
        do {
            probe = try ChildProcess.run([unshare] + unshareArguments + ["true"], output: .discard, errors: .discard)
        } catch {
            return .unavailable("\(error)")
        }
        guard probe.status == 0 else {
            return .unavailable("no mount namespaces here (unshare \(unshareArguments.joined(separator: " ")) failed)")
        }
        return .available
    }

    /// Root gets a plain mount namespace; anyone else maps themselves to root in a user namespace.
    static var unshareArguments: [String] { getuid() == 0 ? ["-m"] : ["-r", "-m"] }

    /// Like `run`, again (up to `attempts` times) while a run was not `trustworthy`: a starved
    /// testbed measures the machine's load, not libinput. Returns the last run.
    public static func run(_ device: TestbedDevice, options: Options = Options(), attempts: Int) throws -> Run {
        var result = try run(device, options: options)
        var attempt = 1
        while !result.trustworthy, attempt < attempts {
            attempt += 1
            usleep(500_000)  // let whatever starved it pass
            result = try run(device, options: options)
        }
        return result
    }

    /// Replays `device` through the real libinput in real time; returns when the stream has ended.
    public static func run(_ recorded: TestbedDevice, options: Options = Options()) throws -> Run {
        let (output, log, forceFeedback) = try launch(recorded, options: options, command: [])
        var events: [BackendEvent] = []
        var worstLag: Int64 = 0
        var framesAtRisk: Int64 = 0
        for line in output.split(separator: "\n") where line != TestbedLine.done {
            if line.hasPrefix("lag "), let lag = Int64(line.dropFirst(4)) {
                worstLag = lag
                continue
            }
            if line.hasPrefix("risk "), let risk = Int64(line.dropFirst(5)) {
                framesAtRisk = risk
                continue
            }
            guard let event = TestbedLine.parse(line) else {
                throw Failure(description: "runner printed an unreadable line: \(line)")
            }
            events.append(event)
        }
        var run = Run(events: events, log: log, worstLag: worstLag, framesAtRisk: framesAtRisk)
        run.forceFeedback = forceFeedback
        return run
    }

    /// What a live tool printed while the testbed played a device to it.
    public struct LiveRun: Sendable {
        /// The tool's standard output.
        public var output: String
        /// The tool's standard error, the runner's and libinput's log.
        public var log: String
        /// The tool's exit status after the runner's SIGINT (Ctrl-C) at the end of the stream.
        public var status: Int32?
        /// The device's force-feedback log (as `Run.forceFeedback`), when `Options.haptics` was
        /// set: every call the tool (a compositor with haptics) made on the pad.
        public var forceFeedback = ""
    }

    /// Plays `device` on /dev/input/event0 (with its udev entry) while `command`, a live tool
    /// such as `preview-replay --device /dev/input/event0`, reads it as a person's device; at
    /// the end of the stream the tool gets SIGINT.
    public static func runLive(_ device: TestbedDevice, command: [String], options: Options = Options()) throws
        -> LiveRun
    {
        let (output, log, forceFeedback) = try launch(device, options: options, command: command)
        var lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var status: Int32?
        if let index = lines.lastIndex(where: { $0.hasPrefix("live-status ") }) {
            status = Int32(lines[index].dropFirst("live-status ".count))
            lines.remove(at: index)
        }
        return LiveRun(
            output: lines.joined(separator: "\n"), log: log, status: status, forceFeedback: forceFeedback)
    }

    /// Sets the testbed up and runs the runner in it (`replay`, or `live` with `command`);
    /// returns the runner's output up to its `done` line and the log (adaptation notes first).
    private static func launch(_ recorded: TestbedDevice, options: Options, command: [String]) throws -> (
        output: String, log: String, forceFeedback: String
    ) {
        var device = recorded
        let notes = device.adaptForLibinput()
        if case .unavailable(let why) = availability() { throw Failure(description: "testbed unavailable: \(why)") }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "libinput-testbed-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try TestbedFiles.description(device).write(
            to: dir.appendingPathComponent("device.umockdev"), atomically: true, encoding: .utf8)
        try TestbedFiles.ioctlTable(device).write(
            to: dir.appendingPathComponent("device.ioctl"), atomically: true, encoding: .utf8)
        try TestbedFiles.events(device).write(
            to: dir.appendingPathComponent("device.events"), atomically: true, encoding: .utf8)
        try JSONEncoder().encode(device).write(to: dir.appendingPathComponent("device.json"))

        var arguments = unshareArguments + [runner.path, "setup", dir.path]
        arguments += ["--device-id", "\(options.deviceID)"]
        arguments += ["--lead-ms", "\(options.leadMilliseconds)"]
        if let removeAt = options.removeAt { arguments += ["--remove-at", "\(removeAt)"] }
        if options.denyOpen { arguments.append("--deny-open") }
        if options.udev { arguments.append("--udev") }
        for word in options.wrapper { arguments += ["--wrapper", word] }
        if options.hosted { arguments.append("--hosted") }
        let forceFeedbackLog = dir.appendingPathComponent("ff.log")
        if let haptics = options.haptics {
            arguments += ["--haptics", haptics.rawValue]
            if options.crashWithChild { arguments.append("--crash-with-child") }
            if options.spawnsChildren { arguments.append("--spawn-children") }
            arguments += ["--behaviour", options.behaviour.runnerSpelling]
        }
        if options.haptics != nil || options.logsForceFeedback {
            // Written by whoever opens the device: a compositor may run as another user (sway).
            _ = FileManager.default.createFile(
                atPath: forceFeedbackLog.path, contents: nil, attributes: [.posixPermissions: 0o666])
            arguments += ["--ff-log", forceFeedbackLog.path]
        }
        if options.embedded { arguments.append("--embedded") }
        if let after = options.embeddedHapticsAfter { arguments += ["--embedded-haptics-after", after.rawValue] }
        if let stall = options.embeddedStallMilliseconds { arguments += ["--embedded-stall-ms", "\(stall)"] }
        if let ready = options.readyFile {
            arguments += ["--ready-file", ready, "--ready-limit-seconds", "\(options.readyLimitSeconds)"]
        }
        if let done = options.doneFile { arguments += ["--done-file", done] }
        if !command.isEmpty { arguments += ["--"] + command }
        let stderr = dir.appendingPathComponent("runner.err")
        let process = try ChildProcess(
            [executable(named: "unshare")!] + arguments, output: .pipe, errors: .file(stderr.path))
        // Wait for the runner's `done` line rather than for umockdev-run: 0.17.16 sometimes
        // hangs at exit joining its script thread, deaf to SIGTERM. Give it a moment (a tool
        // writes its output at exit), then kill it (the pid is umockdev-run itself: unshare and
        // our setup step exec into it).
        let limit =
            Double(options.leadMilliseconds) / 1000 + Double(device.duration) / 1_000_000 + 60
            + (options.readyFile == nil ? 0 : options.readyLimitSeconds)
            + (options.doneFile == nil ? 0 : doneLimitSeconds)
        // The line itself: a tool's own lines may end in "done" (a client's `settings_done`).
        if process.waitForOutput(containing: "\n" + TestbedLine.done + "\n", timeout: limit) {
            process.wait(timeout: options.wrapper.isEmpty ? 2 : 30, grace: 0)
        }
        let status = process.stop().status
        let log = (try? String(contentsOf: stderr, encoding: .utf8)) ?? ""
        let output = process.standardOutput
        guard Self.finished(output) || options.crashWithChild else {
            throw Failure(
                description: "libinput testbed runner did not finish (exit status \(status)):\n\(log)")
        }
        // Everything up to our `done` line (GLib may print its own lines to stdout after it).
        let ours = output.components(separatedBy: "\n" + TestbedLine.done + "\n").first ?? output
        let forceFeedback = (try? String(contentsOf: forceFeedbackLog, encoding: .utf8)) ?? ""
        return (ours, notes.map { "testbed: \($0)\n" }.joined() + log, forceFeedback)
    }
}

extension PressureBehaviour {
    /// The runner's spelling: deep-click, generic, accelerator:N (the tools' `--behaviour`).
    public var runnerSpelling: String {
        switch self {
        case .deepClick: "deep-click"
        case .generic: "generic"
        case .accelerator(let stages): "accelerator:\(stages)"
        }
    }

    /// The behaviour `spelling` names, nil for anything else.
    public init?(runnerSpelling spelling: String) {
        let known: [PressureBehaviour] =
            [.deepClick, .generic] + PressureBehaviour.stageRange.map { .accelerator(stages: $0) }
        guard let match = known.first(where: { $0.runnerSpelling == spelling }) else { return nil }
        self = match
    }
}
