import ArgumentParser
import EvdevDecoder
import Foundation
import InputEvents
import LibinputBackend
import Logging
import PreviewEngine
import PreviewLog
import PreviewLogging
import SystemLayer
import UmockdevHarness

@main
struct Runner: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "libinput-testbed-runner",
        abstract: "Test support: runs LibinputBackend on a recorded device inside an umockdev testbed.",
        discussion: "Started by UmockdevHarness (LibinputTestbed.run); not meant to be run by hand.",
        subcommands: [Setup.self, Replay.self, Live.self, Play.self])
}

struct TestbedOptions: ParsableArguments {
    @Argument(help: "The testbed directory LibinputTestbed wrote.") var directory: String
    @Option(help: "The DeviceID the backend gives the device.") var deviceID: UInt32 = 0
    @Option(help: "Remove the device at this recording time (µs).") var removeAt: Int64?
    @Flag(help: "Refuse to open the device (EACCES), as logind would for a user without a session.")
    var denyOpen = false
    @Flag(help: "Use libinput's udev backend on seat0 instead of the path backend.")
    var udev = false
    @Flag(help: "Also read the device as a host's hand-over (HostedDevice) and log both forces.")
    var hosted = false
    @Option(help: "Haptics at this intensity, with an engine that accepts every press (logs phases and clicks).")
    var haptics: HapticIntensity?
    @Option(help: "With --haptics: deep-click, generic or accelerator:N where the engine's presses begin.")
    var behaviour = "deep-click"
    @Option(help: "Where the shim logs every force-feedback call (PREVIEW_FF_LOG).")
    var ffLog: String?
    @Flag(help: "With --haptics: at the first click, start a child that lives on, log its pid, then die of SIGKILL.")
    var crashWithChild = false
    @Flag(help: "With --haptics: open the device inheritable and start children all along, logging what they hold.")
    var spawnChildren = false
    @Flag(help: "Hand the device to libpreview-interaction (haptics at --haptics), as an embedding compositor does.")
    var embedded = false
    @Option(help: "With --embedded: the user changes the haptics setting to this after the stream.")
    var embeddedHapticsAfter: HapticIntensity?
    @Option(help: "With --embedded: once the first press is answered, the host stalls this long (ms).")
    var embeddedStallMs: Int?
    @Option(help: "Live: start the stream only once this file exists (the command's client is ready).")
    var readyFile: String?
    @Option(help: "Live: after the stream, end the command only once this file exists (its client took the input).")
    var doneFile: String?
    @Option(help: "Live: how long to wait for the ready file before the stream starts anyway, in seconds.")
    var readyLimitSeconds = LibinputTestbed.readyLimitSeconds
}

extension HapticIntensity: ExpressibleByArgument {}

/// Inside `unshare -m`: a private /run/udev with the device's udev database entry, the event
/// script stamped for "now + lead", then umockdev-run with our shim preloaded before its own.
struct Setup: ParsableCommand {
    @OptionGroup var options: TestbedOptions
    @Option var leadMs: Int = 1500
    @Option(
        parsing: .unconditionalSingleValue,
        help: "One word of a command the replay step runs under (repeat for each word).")
    var wrapper: [String] = []
    @Argument(
        parsing: .postTerminator,
        help: "Instead of the backend, run this command (a live tool) while the device plays.")
    var command: [String] = []

    func run() throws {
        let dir = URL(fileURLWithPath: options.directory)
        let device = try JSONDecoder().decode(
            TestbedDevice.self, from: Data(contentsOf: dir.appendingPathComponent("device.json")))
        try FileManager.default.createDirectory(atPath: "/run/udev", withIntermediateDirectories: true)
        guard mount("tmpfs", "/run/udev", "tmpfs", 0, "mode=0755") == 0 else {
            throw RunnerError(
                "mount tmpfs on /run/udev: \(errnoText()) (not in a mount namespace?)")
        }
        try FileManager.default.createDirectory(atPath: "/run/udev/data", withIntermediateDirectories: true)
        try TestbedFiles.udevDatabase(device, initializedAt: monotonicMicroseconds())
            .write(
                toFile: "/run/udev/data/c\(TestbedFiles.major):\(TestbedFiles.minor)", atomically: false,
                encoding: .utf8)
        raisePriority()  // inherited by umockdev-run (its script thread paces delivery) and the replay step
        let base = monotonicMicroseconds() + Int64(leadMs) * 1000
        let script = dir.appendingPathComponent("device.script")
        try Data(TestbedScript.script(device, base: base)).write(to: script)

        // Where the harness found it (PREVIEW_TESTBED_DIR: scripts/sanitize's uninstrumented copy).
        let shim = LibinputTestbed.shim.path
        let preload = [shim, ProcessInfo.processInfo.environment["LD_PRELOAD"]].compactMap { $0 }
            .filter { !$0.isEmpty }.joined(separator: ":")
        setenv("LD_PRELOAD", preload, 1)
        if let ffLog = options.ffLog { setenv("PREVIEW_FF_LOG", ffLog, 1) }
        // Each open of the device, with its close-on-exec flag, in the same log.
        if options.spawnChildren { setenv("PREVIEW_FF_LOG_OPENS", "1", 1) }
        // The library's own read-only descriptor of the node reads its copy of each event, as
        // under a compositor's noop seat session (sway-headless): the shim's second reader.
        if options.embedded { setenv("LIBSEAT_BACKEND", "noop", 1) }
        if options.readyFile != nil {
            setenv(Live.shiftVariable, dir.appendingPathComponent("shift").path, 1)
        }
        let node = TestbedFiles.node
        var arguments =
            [
                "umockdev-run", "-d", dir.appendingPathComponent("device.umockdev").path,
                "-i", "\(node)=\(dir.appendingPathComponent("device.ioctl").path)",
                "-s", "\(node)=\(script.path)", "--",
            ] + wrapper + [
                CommandLine.arguments[0], command.isEmpty ? "replay" : "live", options.directory, "--base", "\(base)",
                "--device-id", "\(options.deviceID)",
            ]
        if let removeAt = options.removeAt { arguments += ["--remove-at", "\(removeAt)"] }
        if options.denyOpen { arguments.append("--deny-open") }
        if options.udev { arguments.append("--udev") }
        if options.hosted { arguments.append("--hosted") }
        if let haptics = options.haptics { arguments += ["--haptics", haptics.rawValue] }
        arguments += ["--behaviour", options.behaviour]
        if options.crashWithChild { arguments.append("--crash-with-child") }
        if options.spawnChildren { arguments.append("--spawn-children") }
        if options.embedded { arguments.append("--embedded") }
        if let after = options.embeddedHapticsAfter { arguments += ["--embedded-haptics-after", after.rawValue] }
        if let stall = options.embeddedStallMs { arguments += ["--embedded-stall-ms", "\(stall)"] }
        if let ready = options.readyFile {
            arguments += ["--ready-file", ready, "--ready-limit-seconds", "\(options.readyLimitSeconds)"]
        }
        if let done = options.doneFile { arguments += ["--done-file", done] }
        if !command.isEmpty { arguments += ["--"] + command }
        let argv = arguments.map { strdup($0) } + [nil]
        execvp("umockdev-run", argv)
        throw RunnerError("exec umockdev-run: \(errnoText())")
    }
}

/// Inside umockdev-run: the real libinput on /dev/input/event0, reported as TestbedLines.
struct Replay: ParsableCommand {
    @OptionGroup var options: TestbedOptions
    @Option(help: "CLOCK_MONOTONIC µs at which the first event is due.") var base: Int64

    func run() throws {
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        var logger = Logger(label: "testbed")
        logger.logLevel = .info
        let dir = URL(fileURLWithPath: options.directory)
        let device = try JSONDecoder().decode(
            TestbedDevice.self, from: Data(contentsOf: dir.appendingPathComponent("device.json")))
        let first = device.events.first?.time ?? 0
        // --embedded: the library plays the clicks, the backend only reports.
        let embedded =
            try options.embedded
            ? EmbeddedHost(haptics: options.haptics ?? .off, stall: Int64(options.embeddedStallMs ?? 0) * 1000) : nil
        // Children started from before the device is opened to the end of the run.
        let spawner = options.spawnChildren ? ChildSpawner(logger: logger) : nil
        spawner?.start()
        guard
            let backend = LibinputBackend(
                source: options.udev ? .udev(seat: "seat0") : .path,
                opener: options.denyOpen
                    ? .denied : options.crashWithChild || options.spawnChildren ? .inheritable : .direct,
                firstDevice: options.deviceID, quirks: { _ in PressureQuirks(lines: device.quirks) },
                haptics: embedded == nil ? options.haptics ?? .off : .off, logger: Log(logger))
        else { throw RunnerError("libinput context failed") }
        // --haptics: the host core as a compositor runs it (every press on its one surface
        // accepted at once); the clicks it decides are played on the backend's pad; phases and
        // clicks logged with their recording times.
        guard let behaviour = PressureBehaviour(runnerSpelling: options.behaviour) else {
            throw RunnerError("unknown behaviour \(options.behaviour)")
        }
        let core =
            embedded == nil && options.haptics != nil
            ? try CoreHost(backend: backend, behaviour: behaviour, logger: logger) : nil
        // When the dispatch that delivered the current frame began (poll's wakeup): latencies
        // of the EV_FF writes and of the phase actions are counted from it.
        var wake: Int64 = 0

        // Recording clock = libinput clock - base + first event's recording time.
        let shift = first - base
        var worstLag: Int64 = 0
        var hosted: HostedDevice?
        core?.onPhase = { event, update in
            // Where a compositor sends the phase to its client (InteractionHost.willPerform).
            if event == .previewEnded { logger.info("latency phase \(event) \(monotonicMicroseconds() - wake) us") }
            logger.info("phase \(event) at \(update.time.microseconds + shift)")
        }
        backend.onHaptic = { _, moment, time in
            logger.info("latency haptic \(moment.rawValue) \(monotonicMicroseconds() - wake) us")
            logger.info("haptic \(moment.rawValue) at \(time.microseconds + shift)")
            if options.crashWithChild { crashWithChild(logger) }
        }
        func report(_ event: BackendEvent) {
            if let time = event.time { worstLag = max(worstLag, monotonicMicroseconds() - time.microseconds) }
            core?.handle(event)
            if let embedded, case .input(.button(let key)) = event,
                let bit: UInt8 = [KeyCode.btnLeft: 1, KeyCode.btnRight: 2, KeyCode.btnMiddle: 4][key.code]
            {
                // On the host's clock, as its frames' motions (`frame(at:)`): a starved testbed
                // reads frames late, and the library's timers (the should-begin answer's) must
                // count from when the host handed the press over, not from the frame's stamp.
                embedded.button(bit, pressed: key.pressed, at: monotonicMicroseconds())
            }
            print(TestbedLine.format(event.shifted(by: shift)))
            if let hosted, case .input(.contactBegan(let contact)) = event, contact.hasForce {
                logger.info("hosted force \(hosted.force(contact: contact.key.contact) ?? -1) backend \(contact.force)")
            }
            if let hosted, case .input(.contactChanged(let contact)) = event, contact.hasForce {
                logger.info("hosted force \(hosted.force(contact: contact.key.contact) ?? -1) backend \(contact.force)")
            }
        }

        // The parent's sign that everything was reported (umockdev-run 0.17.16 sometimes hangs
        // at exit, joining its threads; the parent then kills it).
        // Printed only when everything went through: a throw leaves it out and the parent
        // reports the failure with the log.
        func finish() {
            print(TestbedLine.done)
            fflush(nil)
        }
        // A refused device is the backend's log line, not a runner failure: the parent sees no
        // `added` line and reports the log.
        if !options.udev {
            guard backend.addDevice(path: TestbedFiles.node) else { return finish() }
        }
        backend.dispatch(now: now(), report)
        if let embedded, let raw = backend.libinputDevice(DeviceID(options.deviceID)) { embedded.add(raw) }
        if options.hosted, let raw = backend.libinputDevice(DeviceID(options.deviceID)) {
            let handedOver = HostedDevice(libinputDevice: raw, quirks: PressureQuirks(lines: device.quirks))
            logger.info("hosted device: \(handedOver.name) kind \(handedOver.kind) force \(handedOver.origin)")
            hosted = handedOver
        }

        // Release each frame when it is due (TestbedScript): we are the clock, so nothing drifts.
        let slack = base - monotonicMicroseconds()
        if slack < 0 { logger.warning("runner ready \(-slack / 1000) ms after the stream was due: raise --lead-ms") }
        let ticker: Descriptor
        do {
            ticker = try Descriptor(opening: TestbedFiles.node, O_WRONLY)
        } catch {
            throw RunnerError("cannot open the device to pace it: \(error)")
        }
        let removeAt = options.removeAt.map { base + $0 - first }
        let due = TestbedScript.frameTimes(device, base: base).filter { removeAt == nil || $0 <= removeAt! }
        // After the last frame, time for libinput's timers (proximity-out, ...) to fire.
        let end = removeAt ?? ((due.last ?? base) + 600_000)
        let early: Int64 = 1_500
        var next = 0
        var pollfds = [Glibc.pollfd(fd: backend.fileDescriptor, events: Int16(POLLIN), revents: 0)]
        if let embedded { pollfds.append(Glibc.pollfd(fd: embedded.fd, events: Int16(POLLIN), revents: 0)) }
        // One frame at a time: the next is released only once libinput has read the last one and
        // this loop has handled it (the engine's or the embedded client's answers, the clicks
        // they play). On time that changes nothing; on a loaded machine frames come late rather
        // than in one batch that a client answers after, so what the host does between two frames
        // is the recording's doing, not the load's. A stalled umockdev (it has been seen to stop
        // delivering) is waited for once, up to `stallLimit`; then the rest is released on time
        // (the run counts as untrustworthy: frames went missing).
        let framesRead = shimCounter("umockdev_shim_frames_read")
        let stallLimit: Int64 = 2_000_000
        var releasedAt: Int64 = 0
        var stalled = false
        func handled(_ now: Int64) -> Bool {
            guard let framesRead, next > 0, !stalled else { return true }
            if framesRead() >= Int64(next) { return true }
            stalled = now - releasedAt >= stallLimit
            return stalled
        }
        var handledLast = true
        while true {
            var now = monotonicMicroseconds()
            // A frame is released `early` before its stamp: the tick, umockdev's write and
            // libinput's read take about that long, so libinput reads it when a kernel would
            // have delivered it. That matters at gaps near 50 ms: libinput's tablet
            // proximity-out timer must see the next frame in time exactly when real hardware's
            // would have arrived in time.
            if next < due.count, due[next] - early <= now, handledLast {
                guard write(ticker.rawValue, TestbedScript.tick, TestbedScript.tick.count) == TestbedScript.tick.count
                else {
                    throw RunnerError("pacing write failed: \(errnoText())")
                }
                next += 1
                releasedAt = now
                handledLast = false
            }
            now = monotonicMicroseconds()
            if next == due.count, now >= end { break }
            // Until the frame released is read, wake for libinput's descriptor (or the stall limit).
            let nextEvent = !handled(now) ? releasedAt + stallLimit : next < due.count ? due[next] - early : end
            var wait = max(0, min(nextEvent - now, 100_000))
            if let timer = core?.nextDeadline { wait = max(0, min(wait, timer.microseconds - now)) }
            // Milliseconds, rounded up: a tick is at most 1 ms late, and lateness never accumulates.
            _ = poll(
                &pollfds, nfds_t(pollfds.count), wait == 0 ? 0 : TimerRounding.milliseconds(afterMicroseconds: wait))
            wake = monotonicMicroseconds()
            backend.dispatch(now: Timestamp(microseconds: monotonicMicroseconds()), report)
            embedded?.frame(at: monotonicMicroseconds())
            embedded?.dispatch()
            core?.runDueTimers()
            handledLast = handled(monotonicMicroseconds())
        }
        if removeAt != nil {
            embedded?.remove(at: monotonicMicroseconds())
            backend.removeDevice(DeviceID(options.deviceID))
            backend.dispatch(now: now(), report)
        }
        if let after = options.embeddedHapticsAfter { embedded?.setHaptics(after) }
        embedded?.destroy()
        // The shim saw every read: how late libinput got its input, reported or not.
        var atRisk: Int64 = 0
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "umockdev_shim_worst_lateness_us") {
            worstLag = max(worstLag, unsafeBitCast(symbol, to: (@convention(c) () -> Int64).self)())
        }
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "umockdev_shim_frames_at_risk") {
            atRisk = unsafeBitCast(symbol, to: (@convention(c) () -> Int64).self)()
        }
        // Every frame released must have reached libinput: umockdev's script runner has been
        // seen to stop delivering mid-stream on a loaded machine. The missing ones count too.
        if let framesRead {
            let read = framesRead()
            if read < Int64(next) {
                logger.warning("libinput read \(read) of the \(next) frames released: umockdev stalled")
                atRisk += Int64(next) - read
            }
        }
        logger.info(
            "largest delay from an event's timestamp to libinput reading or reporting it: \(worstLag / 1000) ms; frames read too late for libinput's 50 ms tablet timer: \(atRisk)"
        )
        print(TestbedLine.lag(milliseconds: worstLag / 1000))
        print(TestbedLine.atRisk(frames: atRisk))
        spawner?.stop()
        // The pads' clicks go back to their firmware before we say we are done.
        core?.close()
        backend.stopHaptics()
        finish()
        try? ticker.close()  // the pacing descriptor stays open until the run is over
    }

    private func now() -> Timestamp { Timestamp(microseconds: monotonicMicroseconds()) }
}

/// One of the fstat shim's counters (preloaded inside the testbed), or nil outside it.
private func shimCounter(_ name: String) -> (@convention(c) () -> Int64)? {
    dlsym(UnsafeMutableRawPointer(bitPattern: 0), name).map { unsafeBitCast($0, to: (@convention(c) () -> Int64).self) }
}

/// Inside umockdev-run: a live tool (`preview-replay --device /dev/input/event0`) reads the
/// device as if a person were using it. We only pace the frames (as `Replay` does), then stop
/// the tool with SIGINT, as a person would with Ctrl-C, and report its exit status.
///
/// With `--ready-file` the stream waits for the tool: a compositor and its client take longer to
/// start on a loaded machine than any fixed lead, and a press before the client's window is
/// mapped lands on nothing. The frames were stamped for `base` before the tool started, so when
/// the stream starts later the shim moves every event's time by the delay as the tool reads it
/// (`shiftVariable`): libinput's timers see the frames when a kernel would have stamped them.
struct Live: ParsableCommand {
    @OptionGroup var options: TestbedOptions
    @Option(help: "CLOCK_MONOTONIC µs at which the first event is due.") var base: Int64
    @Argument(parsing: .postTerminator) var command: [String]

    /// Names the file the shim reads the stream's delay from (µs, written before the first frame).
    static let shiftVariable = "PREVIEW_TESTBED_SHIFT_FILE"
    /// From the ready file to the first frame at the earliest: the client's first frame and
    /// focus settle, and the tool reads its CPU clock here.
    static let settle: Int64 = 500_000
    /// How long after the stream the tool may take to create its done file before it ends anyway.
    static let doneLimit = Int64(LibinputTestbed.doneLimitSeconds * 1_000_000)

    func run() throws {
        let dir = URL(fileURLWithPath: options.directory)
        let device = try JSONDecoder().decode(
            TestbedDevice.self, from: Data(contentsOf: dir.appendingPathComponent("device.json")))
        guard !command.isEmpty else { throw RunnerError("live: no command") }
        let tool = try ChildProcess(command, input: .inherit)
        let ticker: Descriptor
        do {
            ticker = try Descriptor(opening: TestbedFiles.node, O_WRONLY)
        } catch {
            tool.stop()
            throw RunnerError("cannot open the device to pace it: \(error)")
        }
        let shift = try options.readyFile.map { try waitForReady($0, tool: tool) } ?? 0
        let due = TestbedScript.frameTimes(device, base: base + shift)
        for frame in due {
            sleep(until: frame - 1_500)
            guard write(ticker.rawValue, TestbedScript.tick, TestbedScript.tick.count) == TestbedScript.tick.count
            else {
                throw RunnerError("pacing write failed: \(errnoText())")
            }
        }
        // Time for libinput's timers and the tool's last lines, then Ctrl-C.
        sleep(until: (due.last ?? base) + 600_000)
        if let done = options.doneFile { waitForDone(done, tool: tool) }
        tool.signal(SIGINT)
        let status = tool.wait(timeout: 5, grace: 0) ?? tool.wait().status
        print(TestbedLine.liveStatus(status))
        print(TestbedLine.done)
        fflush(nil)
        try? ticker.close()  // the pacing descriptor stays open until the tool is done
    }

    /// Waits for `path` (bounded by `doneLimit`, or the tool's end): what the tool's client does
    /// with the stream's input may come seconds after it on a loaded machine.
    private func waitForDone(_ path: String, tool: ChildProcess) {
        let limit = monotonicMicroseconds() + Self.doneLimit
        while !FileManager.default.fileExists(atPath: path), monotonicMicroseconds() < limit, tool.isRunning {
            usleep(10_000)
        }
        if !FileManager.default.fileExists(atPath: path) {
            FileHandle.standardError.write(Data("testbed: \(path) never appeared: the tool ends anyway\n".utf8))
        }
    }

    /// Waits for `path` (bounded by `--ready-limit-seconds`, or the tool's end), then writes the stream's
    /// delay for the shim `settle` before its first frame and returns it.
    private func waitForReady(_ path: String, tool: ChildProcess) throws -> Int64 {
        let limit = monotonicMicroseconds() + Int64(options.readyLimitSeconds * 1_000_000)
        while !FileManager.default.fileExists(atPath: path), monotonicMicroseconds() < limit, tool.isRunning {
            usleep(10_000)
        }
        if !FileManager.default.fileExists(atPath: path) {
            FileHandle.standardError.write(Data("testbed: \(path) never appeared: the stream starts anyway\n".utf8))
        }
        let start = max(base, monotonicMicroseconds() + Self.settle)
        sleep(until: start - Self.settle)
        let shift = start - base
        guard let file = ProcessInfo.processInfo.environment[Self.shiftVariable] else { return shift }
        // Whole or not at all: the shim reads it as the first frame arrives.
        let partial = file + ".partial"
        try Data("\(shift)\n".utf8).write(to: URL(fileURLWithPath: partial))
        guard rename(partial, file) == 0 else { throw RunnerError("cannot write \(file): \(errnoText())") }
        return shift
    }

    private func sleep(until time: Int64) {
        let wait = time - monotonicMicroseconds()
        if wait > 0 { usleep(useconds_t(min(wait, 1_000_000_000))) }
    }
}

/// The pad is in host mode: start a child as a compositor starts its `--run` client (fork and
/// exec, every descriptor without close-on-exec inherited), say which device file ours is and
/// the child's pid, and die as a crash does. The test then looks whether the child holds the
/// device (which would keep the pad in host mode).
func crashWithChild(_ logger: Logger) {
    var descriptors: [String] = []
    for fd in 0..<256 {
        var target = [CChar](repeating: 0, count: 256)
        let n = readlink("/proc/self/fd/\(fd)", &target, target.count - 1)
        guard n > 0 else { continue }
        let path = String(decoding: target.prefix(Int(n)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if path.hasPrefix("/dev/pts/") { descriptors.append(path) }
    }
    var pid: pid_t = 0
    let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sleep"), strdup("60"), nil]
    guard posix_spawn(&pid, "/bin/sleep", nil, nil, argv, environ) == 0 else {
        logger.error("crash-test: cannot start the child")
        return
    }
    logger.info("crash-test child \(pid) devices \(Set(descriptors).sorted().joined(separator: ","))")
    fflush(nil)
    kill(getpid(), SIGKILL)
}

/// libinput judges time: a testbed starved for 50 ms (a busy CI machine) lets libinput's tablet
/// proximity timer fire before the frames waiting to be read, and a hovering pen is forced out
/// of proximity. A higher CFS weight (nice -10) keeps the testbed on time without the risks of
/// real-time scheduling; the harness also reports the worst lag so callers can tell.
func raisePriority() {
    _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, -10)
}

func monotonicMicroseconds() -> Int64 { MonotonicTime.microseconds() }

extension BackendEvent {
    var time: Timestamp? {
        switch self {
        case .deviceAdded: nil
        case .deviceRemoved(_, let time): time
        case .input(let event): event.time
        }
    }
}

extension DeviceOpener {
    /// Descriptors a child inherits (a seat manager need not set close-on-exec): then only
    /// the haptic pad's own care keeps a child from holding the pad in host mode.
    static let inheritable = DeviceOpener(
        open: { path, flags in
            let fd = Glibc.open(path, flags & ~O_CLOEXEC)
            return fd >= 0 ? .success(fd) : .failure(OpenError(code: errno))
        },
        close: { fd in _ = Glibc.close(fd) })
    static let denied = DeviceOpener(open: { _, _ in .failure(OpenError(code: EACCES)) }, close: { _ in })
}

struct RunnerError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
