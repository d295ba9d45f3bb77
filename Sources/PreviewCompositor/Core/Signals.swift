import Glibc
import Logging
import WaylandServer

/// The process's signals through the event loop, for the process's one compositor:
/// SIGINT/SIGTERM shut down, SIGUSR1 takes a screenshot, SIGHUP reads the settings file
/// again (--run children are reaped through their pidfds, `ChildProcesses`).
final class Signals {
    private var sources: [EventSource] = []

    init(compositor: Compositor, logger: Logger, loop: EventLoop) {
        for signal in [SIGINT, SIGTERM] {
            add(signal, on: loop) { [unowned compositor] in
                logger.notice("signal \(signal == SIGINT ? "SIGINT" : "SIGTERM"): shutting down")
                compositor.stop(status: 0)
            }
        }
        // On-demand screenshots, like `kill -USR1`: the name says when it was asked for.
        add(SIGUSR1, on: loop) { [unowned compositor] in
            do { try compositor.screenshot(label: "on-demand") } catch { logger.error("\(error)") }
        }
        add(SIGHUP, on: loop) { [unowned compositor] in compositor.reloadSettings() }
    }

    private func add(_ signal: Int32, on loop: EventLoop, _ handler: @escaping () -> Void) {
        if let source = loop.addSignal(signal, handler) { sources.append(source) }
    }

    func remove() {
        sources.forEach { $0.remove() }
        sources.removeAll()
    }
}
