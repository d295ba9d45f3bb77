import ArgumentParser
import Foundation
import LibinputBackend
import Logging
import PreviewEngine
import UmockdevHarness

@main
struct Runner: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "libinput-testbed-runner",
        abstract: "Test support: runs LibinputBackend on a recorded device inside an umockdev testbed.",
        discussion: "Started by UmockdevHarness (LibinputTestbed.run); not meant to be run by hand.",
        subcommands: [Setup.self, Replay.self])
}

struct TestbedOptions: ParsableArguments {
    @Argument(help: "The testbed directory LibinputTestbed wrote.") var directory: String
    @Option var width: Double = 1920
    @Option var height: Double = 1080
    @Option(help: "Remove the device at this recording time (µs).") var removeAt: Int64?
}

/// Inside `unshare -m`: a private /run/udev with the device's udev database entry, the event
/// script stamped for "now + lead", then umockdev-run with our shim preloaded before its own.
struct Setup: ParsableCommand {
    @OptionGroup var options: TestbedOptions
    @Option var leadMs: Int = 1500

    func run() throws {
        let dir = URL(fileURLWithPath: options.directory)
        let device = try JSONDecoder().decode(TestbedDevice.self, from: Data(contentsOf: dir.appendingPathComponent("device.json")))
        try FileManager.default.createDirectory(atPath: "/run/udev", withIntermediateDirectories: true)
        guard mount("tmpfs", "/run/udev", "tmpfs", 0, "mode=0755") == 0 else {
            throw RunnerError("mount tmpfs on /run/udev: \(String(cString: strerror(errno))) (not in a mount namespace?)")
        }
        try FileManager.default.createDirectory(atPath: "/run/udev/data", withIntermediateDirectories: true)
        try TestbedFiles.udevDatabase(device, initializedAt: monotonicMicroseconds())
            .write(toFile: "/run/udev/data/c\(TestbedFiles.major):\(TestbedFiles.minor)", atomically: false, encoding: .utf8)
        let base = monotonicMicroseconds() + Int64(leadMs) * 1000
        let script = dir.appendingPathComponent("device.script")
        try Data(TestbedScript.script(device, base: base)).write(to: script)

        let shim = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("libumockdev-fstat-shim.so").path
        let preload = [shim, ProcessInfo.processInfo.environment["LD_PRELOAD"]].compactMap { $0 }
            .filter { !$0.isEmpty }.joined(separator: ":")
        setenv("LD_PRELOAD", preload, 1)
        let node = TestbedFiles.node
        var arguments = [
            "umockdev-run", "-d", dir.appendingPathComponent("device.umockdev").path,
            "-i", "\(node)=\(dir.appendingPathComponent("device.ioctl").path)",
            "-s", "\(node)=\(script.path)", "--",
            CommandLine.arguments[0], "replay", options.directory, "--base", "\(base)",
            "--width", "\(options.width)", "--height", "\(options.height)",
        ]
        if let removeAt = options.removeAt { arguments += ["--remove-at", "\(removeAt)"] }
        let argv = arguments.map { strdup($0) } + [nil]
        execvp("umockdev-run", argv)
        throw RunnerError("exec umockdev-run: \(String(cString: strerror(errno)))")
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
        let device = try JSONDecoder().decode(TestbedDevice.self, from: Data(contentsOf: dir.appendingPathComponent("device.json")))
        let first = device.events.first?.time ?? 0
        let output = OutputSize(width: options.width, height: options.height)
        guard
            let backend = LibinputBackend(
                source: .path, output: output, quirks: { _ in PressureQuirks(lines: device.quirks) }, logger: logger)
        else { throw RunnerError("libinput context failed") }

        // Recording clock = libinput clock - base + first event's recording time.
        let shift = first - base
        var worstLag: Int64 = 0
        func report(_ event: BackendEvent) {
            if let time = event.time { worstLag = max(worstLag, monotonicMicroseconds() - time.microseconds) }
            print(TestbedLine.format(event.shifted(by: shift)))
        }

        guard backend.addDevice(path: TestbedFiles.node) else { throw RunnerError("libinput refused the testbed device") }
        backend.dispatch(now: now(), report)

        // Start the stream at `base`; umockdev matches the handshake against its script's `w` line.
        let slack = base - monotonicMicroseconds()
        if slack < 0 { logger.warning("runner ready \(-slack / 1000) ms after the stream was due: raise --lead-ms") }
        while monotonicMicroseconds() < base { usleep(UInt32(max(100, min(base - monotonicMicroseconds(), 50_000)))) }
        let fd = open(TestbedFiles.node, O_WRONLY | O_CLOEXEC)
        guard fd >= 0, write(fd, TestbedScript.handshake, TestbedScript.handshake.count) == TestbedScript.handshake.count
        else { throw RunnerError("cannot start the event stream: \(String(cString: strerror(errno)))") }
        close(fd)

        // Run until the stream has ended and libinput's timers (proximity, hold) had time to fire.
        let removeAt = options.removeAt.map { base + $0 - first }
        let end = removeAt ?? (base + device.duration - first + 600_000)
        var pollfd = Glibc.pollfd(fd: backend.fileDescriptor, events: Int16(POLLIN), revents: 0)
        while monotonicMicroseconds() < end {
            let timeout = Int32(max(1, min((end - monotonicMicroseconds()) / 1000, 100)))
            _ = poll(&pollfd, 1, timeout)
            backend.dispatch(now: now(), report)
        }
        if removeAt != nil, let id = firstDeviceID {
            backend.removeDevice(id)
            backend.dispatch(now: now(), report)
        }
        logger.info("largest delay from an event's timestamp to its report: \(worstLag / 1000) ms")
        fflush(nil)
    }

    private func now() -> Timestamp { Timestamp(microseconds: monotonicMicroseconds()) }
}

/// The testbed has one device, and the backend numbers devices from 1.
private let firstDeviceID: DeviceID? = DeviceID(1)

func monotonicMicroseconds() -> Int64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1000
}

extension BackendEvent {
    var time: Timestamp? {
        switch self {
        case .deviceAdded: nil
        case .deviceRemoved(_, let time), .contactEnded(_, let time, _), .pointerMotion(_, _, _, let time): time
        case .contactBegan(let sample, _), .forceChanged(let sample): sample.time
        }
    }

    func shifted(by shift: Int64) -> BackendEvent {
        func move(_ time: Timestamp) -> Timestamp { Timestamp(microseconds: time.microseconds + shift) }
        switch self {
        case .deviceAdded: return self
        case .deviceRemoved(let id, let time): return .deviceRemoved(id, at: move(time))
        case .contactBegan(var sample, let hasForce):
            sample.time = move(sample.time)
            return .contactBegan(sample, hasForce: hasForce)
        case .forceChanged(var sample):
            sample.time = move(sample.time)
            return .forceChanged(sample)
        case .contactEnded(let key, let time, let reason): return .contactEnded(key, at: move(time), reason: reason)
        case .pointerMotion(let id, let dx, let dy, let time): return .pointerMotion(id, dx: dx, dy: dy, at: move(time))
        }
    }
}

struct RunnerError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
