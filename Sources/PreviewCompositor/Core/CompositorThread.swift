import Foundation
import Glibc
import Logging
import Synchronization
import WaylandServer

/// A compositor running in-process on its own thread, for tests (and a later conformance
/// suite): started with a configuration, reached through `sync`, stopped with `stop()`.
/// Signals are left alone (the test process owns them; --run children are the executable's).
public final class CompositorThread: @unchecked Sendable {
    /// The socket clients connect to (in $XDG_RUNTIME_DIR).
    public let socketName: String
    /// A self-pipe: the compositor's loop watches `wake`, other threads write to `poke`.
    private let wake: Int32
    private let poke: Int32
    private let jobs = JobQueue()
    private let finished = Mutex<Int32?>(nil)
    private let exited = Startup.Box<Int32>()

    /// Starts the compositor and returns once it listens, or throws its startup error.
    public init(configuration: CompositorConfiguration, logger: Logger = Logger(label: "preview-compositor")) throws {
        var configuration = configuration
        configuration.handleSignals = false
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw WaylandServerError("pipe failed") }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, O_NONBLOCK)
        }
        wake = fds[0]
        poke = fds[1]
        let startup = Startup()
        let context = ThreadContext(configuration: configuration, logger: logger, startup: startup, wake: wake)
        let exited = exited
        let jobs = jobs
        // The descriptor, not the context: the context keeps this closure (a cycle leaked every
        // stopped thread's context, logger and configuration).
        let wakeFD = fds[0]
        context.runJobs = { compositor in
            var drain = [UInt8](repeating: 0, count: 64)
            while read(wakeFD, &drain, drain.count) > 0 {}
            let pending = jobs.takeAll()
            for job in pending { job(compositor) }
        }
        // The thread lets go of the context (and with it the compositor's logger and
        // configuration) before it reports its exit, so nothing of it outlives `stop()`.
        let handOff = HandOff(context)
        let thread = Thread {
            exited.put(handOff.run())
        }
        thread.name = "preview-compositor"
        thread.start()
        switch startup.wait() {
        case .success(let name): socketName = name
        case .failure(let error):
            _ = exited.take()
            close(wake)
            close(poke)
            throw error
        }
    }

    deinit { _ = stop() }

    /// Runs `body` on the compositor's thread and waits for its result.
    public func sync<T: Sendable>(_ body: @escaping @Sendable (Compositor) -> T) -> T {
        let done = Startup.Box<T>()
        jobs.append { compositor in done.put(body(compositor)) }
        var one: UInt8 = 1
        _ = write(poke, &one, 1)
        return done.take()
    }

    /// Waits until `condition` holds on the compositor's thread (checked now and after every turn
    /// of its loop, so no polling), at most `timeout` seconds. Returns whether it held.
    public func wait(timeout: Double, until condition: @escaping @Sendable (Compositor) -> Bool) -> Bool {
        let met = DispatchSemaphore(value: 0)
        let abandoned = Mutex(false)
        sync { compositor in
            compositor.watch {
                guard !abandoned.withLock({ $0 }) else { return true }
                guard condition(compositor) else { return false }
                met.signal()
                return true
            }
        }
        let held = met.wait(timeout: .now() + timeout) == .success
        if !held { abandoned.withLock { $0 = true } }
        return held
    }

    /// Stops the compositor (idempotent) and returns its exit status.
    @discardableResult
    public func stop() -> Int32 {
        if let status = finished.withLock({ $0 }) { return status }
        sync { compositor in compositor.stop(status: 0) }
        let status = exited.take()
        close(wake)
        close(poke)
        finished.withLock { $0 = status }
        return status
    }

}

private final class ThreadContext: @unchecked Sendable {
    let configuration: CompositorConfiguration
    let logger: Logger
    let startup: Startup
    let wake: Int32
    var runJobs: (Compositor) -> Void = { _ in }

    init(configuration: CompositorConfiguration, logger: Logger, startup: Startup, wake: Int32) {
        self.configuration = configuration
        self.logger = logger
        self.startup = startup
        self.wake = wake
    }

    func main() -> Int32 {
        let compositor: Compositor
        do {
            compositor = try Compositor(configuration: configuration, logger: logger)
        } catch {
            startup.finish(.failure(error))
            return 1
        }
        let runJobs = runJobs
        let source = compositor.display.eventLoop.addFD(wake, events: .readable) { _ in runJobs(compositor) }
        startup.finish(.success(compositor.socketName ?? ""))
        let status = compositor.run()
        source?.remove()
        return status
    }
}

/// Gives the thread its context once: `run()` returns after the context is released.
private final class HandOff: @unchecked Sendable {
    private var context: ThreadContext?
    init(_ context: ThreadContext) { self.context = context }
    func run() -> Int32 {
        guard let context = context.take() else { return 1 }
        return context.main()
    }
}

/// One-shot hand-over between threads (startup result, `sync` results).
private final class Startup: @unchecked Sendable {
    private let box = Box<Result<String, Error>>()
    func finish(_ result: Result<String, Error>) { box.put(result) }
    func wait() -> Result<String, Error> { box.take() }

    final class Box<T>: @unchecked Sendable {
        private var mutex = pthread_mutex_t()
        private var condition = pthread_cond_t()
        private var value: T?

        init() {
            pthread_mutex_init(&mutex, nil)
            pthread_cond_init(&condition, nil)
        }

        deinit {
            pthread_mutex_destroy(&mutex)
            pthread_cond_destroy(&condition)
        }

        func put(_ new: T) {
            pthread_mutex_lock(&mutex)
            value = new
            pthread_cond_signal(&condition)
            pthread_mutex_unlock(&mutex)
        }

        func take() -> T {
            pthread_mutex_lock(&mutex)
            while value == nil { pthread_cond_wait(&condition, &mutex) }
            let result = value!
            pthread_mutex_unlock(&mutex)
            return result
        }
    }
}

private final class JobQueue: Sendable {
    private let jobs = Mutex<[@Sendable (Compositor) -> Void]>([])
    func append(_ job: @escaping @Sendable (Compositor) -> Void) { jobs.withLock { $0.append(job) } }
    func takeAll() -> [@Sendable (Compositor) -> Void] {
        jobs.withLock { jobs in
            defer { jobs.removeAll() }
            return jobs
        }
    }
}
