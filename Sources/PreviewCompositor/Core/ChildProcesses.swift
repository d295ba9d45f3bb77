import Glibc
import Logging
import SystemLayer

/// Clients the compositor starts (`--run`), like weston's and sway's launchers: a shell
/// command with the Wayland variables added to our environment, reaped on SIGCHLD.
final class ChildProcesses {
    struct Child {
        var pid: pid_t
        var label: String
        var command: String
    }

    private let logger: Logger
    private(set) var running: [Child] = []
    var onExit: ((Child, Int32) -> Void)?

    init(logger: Logger) { self.logger = logger }

    /// Starts `/bin/sh -c command`. Returns false if it could not be spawned.
    func spawn(_ command: String, environment extra: [String: String], label: String) -> Bool {
        var environment: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let pair = String(cString: pointer)
            if let equals = pair.firstIndex(of: "=") {
                environment[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
            }
            entry += 1
        }
        for (key, value) in extra { environment[key] = value }
        if extra["WAYLAND_SOCKET"] != nil { environment["WAYLAND_DISPLAY"] = nil }
        let arguments = ["/bin/sh", "-c", command]
        let envStrings = environment.map { "\($0.key)=\($0.value)" }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Our signalfd sources block SIGINT/SIGTERM/SIGCHLD; the child must not inherit that.
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGCHLD, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        // Its own process group, so that stopping it reaches everything the shell started
        // (`stdbuf -oL wev > log` leaves the shell waiting for wev; killing only the shell
        // would orphan wev, which then spins on the closed socket).
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        var pid: pid_t = 0
        let result = withCStrings(arguments) { argv in
            withCStrings(envStrings) { envp in posix_spawn(&pid, "/bin/sh", nil, &attributes, argv, envp) }
        }
        guard result == 0 else {
            logger.error("posix_spawn failed for \(command): \(errnoText(result))")
            return false
        }
        running.append(Child(pid: pid, label: label, command: command))
        logger.info("started \(label) command (pid \(pid)): \(command)")
        return true
    }

    /// Collects every exited child (SIGCHLD coalesces, so loop).
    func reap() {
        while true {
            var status: Int32 = 0
            let pid = waitpid(-1, &status, WNOHANG)
            guard pid > 0 else { return }
            guard let index = running.firstIndex(where: { $0.pid == pid }) else { continue }
            let child = running.remove(at: index)
            // Shell convention: 128 + signal for a child killed by a signal.
            let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
            onExit?(child, code)
        }
    }

    /// SIGTERM to every child's process group still running, then reap the children.
    func terminateAll() {
        for child in running { kill(-child.pid, SIGTERM) }
        for child in running { var status: Int32 = 0; waitpid(child.pid, &status, 0) }
        running.removeAll()
    }
}

private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { pointers.forEach { free($0) } }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
