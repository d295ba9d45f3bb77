import InputEvents
import LibinputBackend
import LibinputRecording
import Logging
import PreviewEngine
import PreviewLog
import PreviewLogging
import SystemLayer

#if canImport(Glibc)
    import Glibc
#endif

/// `preview-replay --device PATH` / `--udev`: the user's own device, live, through the real
/// libinput (`LibinputBackend`), as `libinput debug-events` does: every phase is printed as it
/// happens, until Ctrl-C (SIGINT) or SIGTERM, then the summary.
public enum Live {
    public enum Source: Hashable, Sendable {
        /// Device nodes, e.g. /dev/input/event5 (libinput's path backend).
        case devices([String])
        /// Every input device of a udev seat, with hotplug.
        case seat(String)
    }

    /// Returns the exit status: 0 after a signal ended the session, 1 with a one-line `error`
    /// when no device can be used (missing, no permission, not an input device, empty seat).
    public static func run(
        _ source: Source, options: ReplayOptions, output: @escaping (String) -> Void,
        error: @escaping @Sendable (String) -> Void
    ) -> Int32 {
        // Signals first: a Ctrl-C while libinput starts must not kill us half-way.
        guard let signals = StopSignals(SIGINT, SIGTERM) else {
            error("preview-replay: cannot watch for Ctrl-C: \(errnoText())")
            return 1
        }
        defer { signals.release() }
        if case .devices(let paths) = source {
            for path in paths {
                if let problem = openProblem(path) {
                    error("preview-replay: \(path): \(problem)")
                    return 1
                }
            }
        }
        // libinput's own lines with -v only: the one-line reasons below say what went wrong.
        var logger = Logger(label: "preview-replay") { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = options.verbose ? .info : .critical
            return handler
        }
        logger.logLevel = options.verbose ? .info : .critical
        let backendSource: LibinputBackend.Source
        switch source {
        case .devices: backendSource = .path
        case .seat(let seat): backendSource = .udev(seat: seat)
        }
        guard let backend = LibinputBackend(source: backendSource, firstDevice: 0, logger: Log(logger)) else {
            error("preview-replay: libinput could not be set up")
            return 1
        }
        if case .devices(let paths) = source {
            for path in paths where !backend.addDevice(path: path) {
                error("preview-replay: \(path): libinput did not accept it (not an input device?)")
                return 1
            }
        }
        let start = monotonicNow()
        var live: LiveSession
        do {
            live = try LiveSession(origin: start, options: options, output: output)
        } catch let failure {
            error("preview-replay: \(failure)")
            return 1
        }
        backend.dispatch(now: start) { live.handle($0) }
        guard !live.devices.isEmpty else {
            if case .seat(let seat) = source {
                error(
                    "preview-replay: no input device on udev seat \(seat) could be opened (none present, or no permission on /dev/input/event*: join the input group or run under a seat manager)"
                )
            } else {
                error("preview-replay: libinput added no device")
            }
            return 1
        }
        if options.format == .human { output("# live: press Ctrl-C to stop") }
        var fd = pollfd(fd: backend.fileDescriptor, events: Int16(POLLIN), revents: 0)
        while !signals.arrived() {
            // 10 ms: the engine's timers (long press, commit animation) fire on time without input.
            _ = poll(&fd, 1, 10)
            let now = monotonicNow()
            if fd.revents != 0 { backend.dispatch(now: now) { live.handle($0) } }
            live.advance(to: now)
        }
        let end = monotonicNow()
        backend.endAllContacts(now: end) { live.handle($0) }
        live.finish(at: end)
        return 0
    }

    /// Why `path` cannot be opened for reading, in a user's words; nil when it can.
    static func openProblem(_ path: String) -> String? {
        let code: Int32
        do {
            _ = try Descriptor(opening: path, O_RDONLY | O_NONBLOCK)
            return nil
        } catch {
            code = error.code
        }
        switch code {
        case ENOENT: return "no such device"
        case EACCES, EPERM:
            return
                "permission denied (reading input devices needs root or the input group: sudo usermod -aG input $USER, then log in again)"
        default: return errnoText(code)
        }
    }

    static func monotonicNow() -> Timestamp { Timestamp(microseconds: MonotonicTime.microseconds()) }
}

/// The engine and the trace for a live session: device events come on libinput's clock
/// (CLOCK_MONOTONIC) and are printed on one that starts with the session.
struct LiveSession {
    private let session: ReplaySession<VirtualClock>
    private let options: ReplayOptions
    private let output: (String) -> Void
    private let origin: Int64
    private(set) var devices: [DeviceID: BackendDevice] = [:]

    init(origin: Timestamp, options: ReplayOptions, output: @escaping (String) -> Void) throws(ReplaySessionError) {
        self.origin = origin.microseconds
        self.options = options
        self.output = output
        let format = options.format
        session = try ReplaySession(
            configuration: options.configuration, devices: [], outputSize: options.outputSize, clock: VirtualClock(),
            verbose: options.verbose, emit: { output(format.format($0)) },
            note: { if format == .human { output($0) } })
        session.behaviour = options.behaviour
    }

    mutating func handle(_ event: BackendEvent) {
        switch event {
        case .deviceAdded(let device):
            devices[device.id] = device
            session.add(ReplayDevice(id: device.id, name: device.name, kind: device.kind))
            if options.format == .human {
                output("# device \(device.id.rawValue): \(device.name) (\(device.kind), force: \(device.forceOrigin))")
            }
        case .deviceRemoved(let id, _):
            if options.format == .human, let device = devices[id] {
                output("# device \(id.rawValue) removed: \(device.name)")
            }
            devices[id] = nil
        case .input(let input):
            session.handle(input.shifted(by: -origin))
        }
    }

    mutating func advance(to now: Timestamp) {
        session.advance(to: Timestamp(microseconds: now.microseconds - origin))
    }

    mutating func finish(at now: Timestamp) {
        session.finish(at: Timestamp(microseconds: now.microseconds - origin))
        if options.format == .human { output(Replay.describe(session.summary)) }
    }
}

/// SIGINT and SIGTERM, blocked while the session runs and looked for on every turn of its loop
/// (it wakes at least every 10 ms), so Ctrl-C ends it with the closing line instead of killing it.
struct StopSignals {
    private var mask = sigset_t()

    init?(_ signals: Int32...) {
        sigemptyset(&mask)
        for signal in signals { sigaddset(&mask, signal) }
        guard pthread_sigmask(SIG_BLOCK, &mask, nil) == 0 else { return nil }
    }

    /// Whether one of them arrived; takes it (it was the way out, not a reason to die).
    func arrived() -> Bool {
        var pending = sigset_t()
        guard sigpending(&pending) == 0 else { return false }
        var mask = self.mask
        var any = false
        var zero = timespec()
        for signal in [SIGINT, SIGTERM] where sigismember(&pending, signal) == 1 && sigismember(&mask, signal) == 1 {
            any = true
            var one = sigset_t()
            sigemptyset(&one)
            sigaddset(&one, signal)
            _ = sigtimedwait(&one, nil, &zero)
        }
        return any
    }

    func release() {
        var mask = self.mask
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
    }
}
