import Logging
import SystemLayer
import WaylandServer

/// Clients the compositor starts (`--run`), like weston's and sway's launchers: a shell
/// command with the Wayland variables added to our environment, noticed on the event loop
/// when it exits (its pidfd), so no other child of the process is reaped by mistake.
final class ChildProcesses {
    struct Child {
        var pid: Int32
        var label: String
        var command: String
    }

    private struct Running {
        var child: Child
        var process: ChildProcess
        var exit: EventSource?
    }

    private let logger: Logger
    private let loop: EventLoop
    private var running: [Running] = []
    var onExit: ((Child, Int32) -> Void)?

    init(logger: Logger, loop: EventLoop) {
        self.logger = logger
        self.loop = loop
    }

    /// Starts `/bin/sh -c command` with standard input and output the compositor's.
    /// `socket`: a client's end of a socketpair, the child's WAYLAND_SOCKET (instead of
    /// WAYLAND_DISPLAY); the caller still owns it. Returns false if it could not be spawned.
    func spawn(_ command: String, environment: [String: String], socket: Int32? = nil, label: String) -> Bool {
        var environment = environment
        if socket != nil { environment["WAYLAND_SOCKET"] = "3" }  // the first `passing` descriptor
        let process: ChildProcess
        do {
            // Its own process group, so that stopping it reaches everything the shell started
            // (`stdbuf -oL wev > log` leaves the shell waiting for wev; killing only the shell
            // would orphan wev, which then spins on the closed socket).
            process = try ChildProcess(
                ["/bin/sh", "-c", command], environment: environment,
                unsetting: socket != nil ? ["WAYLAND_DISPLAY"] : [], passing: socket.map { [$0] } ?? [],
                input: .inherit, output: .inherit, ownProcessGroup: true)
        } catch {
            logger.error("\(error) for \(command)")
            return false
        }
        let child = Child(pid: process.pid, label: label, command: command)
        let exit = loop.addFD(process.exitDescriptor, events: .readable) { [unowned self] _ in exited(child.pid) }
        running.append(Running(child: child, process: process, exit: exit))
        logger.info("started \(label) command (pid \(child.pid)): \(command)")
        return true
    }

    private func exited(_ pid: Int32) {
        guard let index = running.firstIndex(where: { $0.child.pid == pid }) else { return }
        let entry = running.remove(at: index)
        entry.exit?.remove()
        // Readable: it has exited, so this reaps at once. The shell's 128 + signal for a signal.
        onExit?(entry.child, entry.process.wait().status)
    }

    /// SIGTERM to every child's process group still running (SIGKILL when it is still there
    /// after 5 s), and the children reaped.
    func terminateAll() {
        for entry in running {
            entry.exit?.remove()
            entry.process.wait(timeout: 0, grace: 5)
        }
        running.removeAll()
    }
}
