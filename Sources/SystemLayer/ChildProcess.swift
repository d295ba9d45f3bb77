import CSystemLayer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A child process: started with posix_spawn, waited on through its pidfd (poll), never by
/// sleeping. The child gets only its standard descriptors (every other one is closed in it), an
/// empty signal mask and default signal handlers, whatever the spawning thread had.
///
/// Pipes are read while the parent waits: call `wait` (or `run`) to collect them.
public final class ChildProcess: Sendable {
    /// Where the child's standard output or error goes.
    public enum Output: Sendable, Equatable {
        /// The parent's.
        case inherit
        /// /dev/null.
        case discard
        /// A file, created or truncated.
        case file(String)
        /// A pipe, collected while waiting (`standardOutput`, `standardError`).
        case pipe
    }

    /// What the child reads on its standard input.
    public enum Input: Sendable, Equatable {
        case inherit
        case discard
        /// These bytes, written while waiting, then end of file.
        case bytes([UInt8])
    }

    public enum Termination: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)

        /// The exit code, or 128 + the signal (the shell's number).
        public var status: Int32 {
            switch self {
            case .exited(let code): code
            case .signalled(let signal): 128 + signal
            }
        }
    }

    public struct SpawnError: Error, CustomStringConvertible {
        public let executable: String
        public let code: Int32
        public var description: String { "cannot start \(executable): \(errnoText(code))" }
    }

    public let pid: Int32
    /// Where signals go: the pid, or the process group (negative) the child leads.
    private let signalTarget: pid_t
    /// Readable once the child has exited (its pidfd, or the exit pipe's hang-up), for waits on
    /// other things to wake on.
    public let exitDescriptor: Int32

    private struct Stream {
        var fd: Int32
        var bytes: [UInt8] = []
    }

    private struct State {
        var termination: Termination?
        var output: Stream?
        var errors: Stream?
        var input: Stream?
        var written = 0
    }

    private let state: Locked<State>

    /// Starts `arguments[0]` (a path, or a name looked up in PATH) with the rest. The
    /// environment is the parent's with `environment` set and the `unsetting` names removed
    /// (`inheritingEnvironment: false`: only `environment`); `errors: nil` sends standard error
    /// where standard output goes (both inherited when the output is). The `passing`
    /// descriptors become the child's 3, 4, … (in that order; each a number above the ones
    /// before it, or one of 0…2's copies, is fine). `ownProcessGroup`: the child leads a new
    /// process group, and every signal sent through this object reaches the whole group (what
    /// the child started too, a shell's background commands).
    public convenience init(
        _ arguments: [String], environment: [String: String] = [:], unsetting: [String] = [],
        inheritingEnvironment: Bool = true, directory: String? = nil, passing: [Int32] = [], input: Input = .discard,
        output: Output = .inherit, errors: Output? = nil, ownProcessGroup: Bool = false
    ) throws(SpawnError) {
        try self.init(
            arguments, environment: environment, unsetting: unsetting, inheritingEnvironment: inheritingEnvironment,
            directory: directory, passing: passing, input: input, output: output, errors: errors,
            ownProcessGroup: ownProcessGroup, exitPipe: !Self.kernelHasPidfd)
    }

    /// Whether pidfd_open(2) works here: not before Linux 5.3, nor under valgrind 3.19 (which
    /// the instruction counts in BENCHMARKS.md run the compositor under).
    private static let kernelHasPidfd: Bool = {
        let fd = system_layer_pidfd_open(getpid())
        if fd >= 0 { close(fd) }
        return fd >= 0 || errno != ENOSYS
    }()

    /// `exitPipe`: the exit is seen as the hang-up of a pipe whose only writer is the child's
    /// descriptor 3 + `passing.count` (where there is no pidfd). It hangs up once the child and
    /// whatever inherited that descriptor have exited; a child that closes it early is then
    /// waited for with a blocking waitpid.
    init(
        _ arguments: [String], environment: [String: String], unsetting: [String], inheritingEnvironment: Bool,
        directory: String?, passing: [Int32], input: Input, output: Output, errors: Output?, ownProcessGroup: Bool,
        exitPipe: Bool
    ) throws(SpawnError) {
        guard let executable = arguments.first else { throw SpawnError(executable: "", code: ENOENT) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var ownEnds: [Int32] = []  // the parent's copies of the child's ends, closed after the spawn
        var streams = State()
        func fail(_ code: Int32) -> SpawnError {
            for fd in ownEnds { close(fd) }
            for stream in [streams.output, streams.errors, streams.input] { if let stream { close(stream.fd) } }
            return SpawnError(executable: executable, code: code)
        }
        func makePipe() throws(SpawnError) -> (read: Int32, write: Int32) {
            var fds: [Int32] = [-1, -1]
            guard system_layer_pipe_cloexec(&fds) == 0 else { throw fail(errno) }
            return (fds[0], fds[1])
        }

        switch input {
        case .inherit: break
        case .discard: posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        case .bytes(let bytes):
            // A socket rather than a pipe: a child that stops reading is EPIPE, never SIGPIPE.
            var ends: [Int32] = [-1, -1]
            guard system_layer_socketpair_cloexec(&ends) == 0 else { throw fail(errno) }
            ownEnds.append(ends[1])
            posix_spawn_file_actions_adddup2(&actions, ends[1], 0)
            _ = system_layer_fcntl(ends[0], F_SETFL, O_NONBLOCK)
            streams.input = Stream(fd: ends[0], bytes: bytes)
        }
        func route(_ destination: Output, to target: Int32) throws(SpawnError) -> Stream? {
            switch destination {
            case .inherit: return nil
            case .discard: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            case .pipe:
                let ends = try makePipe()
                ownEnds.append(ends.write)
                posix_spawn_file_actions_adddup2(&actions, ends.write, target)
                _ = system_layer_fcntl(ends.read, F_SETFL, O_NONBLOCK)
                return Stream(fd: ends.read)
            }
            return nil
        }
        streams.output = try route(output, to: 1)
        if let errors {
            streams.errors = try route(errors, to: 2)
        } else if output != .inherit {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
        for (index, fd) in passing.enumerated() { posix_spawn_file_actions_adddup2(&actions, fd, 3 + Int32(index)) }
        var exitEnd: Int32 = -1
        if exitPipe {
            let ends = try makePipe()
            exitEnd = ends.read
            ownEnds.append(ends.write)
            posix_spawn_file_actions_adddup2(&actions, ends.write, 3 + Int32(passing.count))
        }
        if let directory { system_layer_spawn_add_chdir(&actions, directory) }
        system_layer_spawn_add_closefrom(&actions, 3 + Int32(passing.count) + (exitPipe ? 1 : 0))

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if ownProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let variables = Self.environment(environment, unsetting: unsetting, inheriting: inheritingEnvironment)
        var child: pid_t = 0
        let result = withCStringArray(arguments) { argv in
            withCStringArray(variables) { envp in
                executable.contains("/")
                    ? posix_spawn(&child, executable, &actions, &attributes, argv, envp)
                    : posix_spawnp(&child, executable, &actions, &attributes, argv, envp)
            }
        }
        guard result == 0 else {
            if exitEnd >= 0 { close(exitEnd) }
            throw fail(result)
        }
        for fd in ownEnds { close(fd) }
        ownEnds = []
        let pidfd = exitPipe ? exitEnd : system_layer_pidfd_open(child)
        guard pidfd >= 0 else {
            let code = errno
            sendSignal(SIGKILL, to: ownProcessGroup ? -child : child)
            var status: Int32 = 0
            waitpid(child, &status, 0)
            throw fail(code)
        }
        pid = child
        signalTarget = ownProcessGroup ? -child : child
        exitDescriptor = pidfd
        state = Locked(streams)
    }

    deinit {
        // A child nobody waited for is stopped, so it neither outlives the parent's interest
        // nor stays a zombie.
        state.withLock { state in
            if state.termination == nil {
                sendSignal(SIGKILL, to: signalTarget)
                var status: Int32 = 0
                waitpid(pid, &status, 0)
            }
            for stream in [state.output, state.errors, state.input] { if let stream { close(stream.fd) } }
        }
        close(exitDescriptor)
    }

    /// How the child ended; nil while it runs (or before anyone waited for it).
    public var termination: Termination? { state.withLock { $0.termination } }

    /// Whether the child has not exited yet (it is not reaped by this question).
    public var isRunning: Bool {
        if termination != nil { return false }
        var entry = pollfd(fd: exitDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) == 0
    }

    /// What the child wrote to a `.pipe` standard output (and standard error, when it goes there).
    public var standardOutput: String { state.withLock { String(decoding: $0.output?.bytes ?? [], as: UTF8.self) } }
    public var standardError: String { state.withLock { String(decoding: $0.errors?.bytes ?? [], as: UTF8.self) } }

    /// Sends `signal` (to its process group when it leads one) unless the child has been reaped
    /// (so never to a reused pid).
    public func signal(_ signal: Int32) {
        state.withLock { state in
            if state.termination == nil { sendSignal(signal, to: signalTarget) }
        }
    }

    /// Waits for the exit, at most `timeout` seconds (then SIGTERM, and SIGKILL when that is
    /// not enough within `grace` seconds); returns the status (`Termination.status`), or nil
    /// when the child had to be stopped.
    @discardableResult
    public func wait(timeout: Double, grace: Double = 5) -> Int32? {
        if let ended = waitUntil(deadline: Self.deadline(after: timeout)) { return ended.status }
        signal(SIGTERM)
        if waitUntil(deadline: Self.deadline(after: grace)) == nil {
            signal(SIGKILL)
            _ = waitUntil(deadline: nil)
        }
        return nil
    }

    /// Waits for the exit, however long it takes.
    @discardableResult
    public func wait() -> Termination {
        // Without a deadline or a `done`, `waitUntil` returns only with the termination.
        while true {
            if let termination = waitUntil(deadline: nil) { return termination }
        }
    }

    /// SIGKILL (unless it has exited), then waits for it.
    @discardableResult
    public func stop() -> Termination {
        signal(SIGKILL)
        return wait()
    }

    /// Runs to completion: the status and both streams (stdout and stderr in pipes unless
    /// told otherwise). A child still running after `timeout` seconds is stopped (`timedOut`).
    public static func run(
        _ arguments: [String], environment: [String: String] = [:], unsetting: [String] = [],
        inheritingEnvironment: Bool = true, directory: String? = nil, passing: [Int32] = [], input: Input = .discard,
        output: Output = .pipe, errors: Output? = .pipe, timeout: Double = 600
    ) throws(SpawnError) -> Run {
        let child = try ChildProcess(
            arguments, environment: environment, unsetting: unsetting, inheritingEnvironment: inheritingEnvironment,
            directory: directory, passing: passing, input: input, output: output, errors: errors)
        let status = child.wait(timeout: timeout)
        return Run(
            status: status ?? child.termination?.status ?? -1, termination: child.termination,
            output: child.standardOutput, errors: child.standardError, timedOut: status == nil)
    }

    public struct Run: Sendable {
        /// `termination`'s status.
        public var status: Int32
        public var termination: Termination?
        public var output: String
        public var errors: String
        public var timedOut: Bool
    }

    // MARK: The wait: one poll over the exit and the pipes.

    private static func deadline(after seconds: Double) -> Int64 {
        MonotonicTime.microseconds() + Int64(max(0, seconds) * 1_000_000)
    }

    /// Waits until the child's `.pipe` standard output contains `text`, at most `timeout`
    /// seconds; false when it does not (the child exited, or time ran out).
    public func waitForOutput(containing text: String, timeout: Double) -> Bool {
        let needle = Array(text.utf8)
        var searched = 0  // where the next search starts: only new bytes (and an overlap) are looked at
        var found = false
        _ = waitUntil(deadline: Self.deadline(after: timeout)) { state in
            let bytes = state.output?.bytes ?? []
            var start = max(0, searched - needle.count + 1)
            while !found && start + needle.count <= bytes.count {
                found = bytes[start..<(start + needle.count)].elementsEqual(needle)
                start += 1
            }
            searched = bytes.count
            return found
        }
        return found
    }

    /// Moves the pipes' bytes until the child exits (then reaps it), `done` holds or the
    /// deadline passes.
    private func waitUntil(deadline: Int64?, done: (State) -> Bool = { _ in false }) -> Termination? {
        while true {
            var finished = false
            if let ended = state.withLock({ state in
                finished = done(state)
                return state.termination
            }) {
                return ended
            }
            if finished { return nil }
            var entries = [pollfd(fd: exitDescriptor, events: Int16(POLLIN), revents: 0)]
            state.withLock { state in
                for stream in [state.output, state.errors] {
                    guard let fd = stream?.fd, fd >= 0 else { continue }
                    entries.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
                }
                if let fd = state.input?.fd, fd >= 0 {
                    entries.append(pollfd(fd: fd, events: Int16(POLLOUT), revents: 0))
                }
            }
            var wait: Int32 = -1
            if let deadline {
                let left = deadline - MonotonicTime.microseconds()
                if left <= 0 { return nil }
                wait = TimerRounding.milliseconds(afterMicroseconds: left)
            }
            let ready = poll(&entries, nfds_t(entries.count), wait)
            if ready < 0 && errno != EINTR { return nil }
            let exited = entries[0].revents != 0
            state.withLock { state in
                Self.pump(&state, finalDrain: exited)
                if exited && state.termination == nil { state.termination = Self.reap(pid) }
            }
        }
    }

    private static func pump(_ state: inout State, finalDrain: Bool) {
        collect(&state.output, finalDrain: finalDrain)
        collect(&state.errors, finalDrain: finalDrain)
        guard var input = state.input, input.fd >= 0 else { return }
        while state.written < input.bytes.count {
            let count = input.bytes[state.written...].withUnsafeBytes {
                system_layer_send(input.fd, $0.baseAddress, $0.count)
            }
            if count > 0 { state.written += count } else { break }
        }
        if state.written == input.bytes.count || finalDrain || (errno != EAGAIN && errno != EINTR) {
            close(input.fd)
            input.fd = -1
        }
        state.input = input
    }

    /// Reads what a `.pipe` stream holds now; closes it at its end (or the child's).
    private static func collect(_ slot: inout Stream?, finalDrain: Bool) {
        guard var stream = slot, stream.fd >= 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(stream.fd, &buffer, buffer.count)
            if count > 0 {
                stream.bytes += buffer[0..<count]
                continue
            }
            // End of file, or the child is gone (what a grandchild still holds is not waited for).
            if count == 0 || finalDrain || (errno != EAGAIN && errno != EINTR) {
                close(stream.fd)
                stream.fd = -1
            }
            break
        }
        slot = stream
    }

    private static func reap(_ pid: pid_t) -> Termination {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    }

    private static func environment(_ set: [String: String], unsetting: [String], inheriting: Bool) -> [String] {
        var variables: [(String, String)] = []
        if inheriting, var entry = system_layer_environment() {
            while let pointer = entry.pointee {
                let text = String(cString: pointer)
                if let equals = text.firstIndex(of: "=") {
                    variables.append((String(text[..<equals]), String(text[text.index(after: equals)...])))
                }
                entry += 1
            }
        }
        let removed = Set(unsetting).union(set.keys)
        return variables.filter { !removed.contains($0.0) }.map { "\($0.0)=\($0.1)" }
            + set.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    }
}

private func sendSignal(_ signal: Int32, to pid: pid_t) {
    _ = kill(pid, signal)
}

/// `body` gets a NULL-terminated array of C strings that live as long as the call.
private func withCStringArray<Result>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> Result)
    -> Result
{
    let copies = strings.map { strdup($0) }
    defer { for copy in copies { free(copy) } }
    return body(copies + [nil])
}
