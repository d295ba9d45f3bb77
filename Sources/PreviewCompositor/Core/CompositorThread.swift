import Foundation
import Logging
import Synchronization
import SystemLayer
import WaylandServer

/// A compositor running in-process on its own thread, for tests (and a later conformance
/// suite): started with a configuration, reached through `sync`, stopped with `stop()`.
/// Signals are left alone (the test process owns them; --run children are the executable's).
public final class CompositorThread: @unchecked Sendable {
    /// The socket clients connect to (in $XDG_RUNTIME_DIR).
    public let socketName: String
    /// The compositor's loop watches it; `sync` wakes it from other threads.
    private let wake: WakePipe
    private let jobs = JobQueue()
    private let finished = Mutex<Int32?>(nil)
    private let exited = Startup.Box<Int32>()

    /// Starts the compositor and returns once it listens, or throws its startup error.
    public init(configuration: CompositorConfiguration, logger: Logger = Logger(label: "preview-compositor")) throws {
        var configuration = configuration
        configuration.handleSignals = false
        let wake: WakePipe
        do { wake = try WakePipe() } catch { throw WaylandServerError("wake pipe: \(error)") }
        self.wake = wake
        let startup = Startup()
        let context = ThreadContext(
            configuration: configuration, logger: logger, startup: startup, wake: wake.fileDescriptor)
        let exited = exited
        let jobs = jobs
        // The pipe, not the context: the context keeps this closure (a cycle leaked every
        // stopped thread's context, logger and configuration).
        context.runJobs = { compositor in
            wake.drain()
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
            throw error
        }
    }

    deinit { _ = stop() }

    /// Runs `body` on the compositor's thread and waits for its result.
    public func sync<T: Sendable>(_ body: @escaping @Sendable (Compositor) -> T) -> T {
        let done = Startup.Box<T>()
        jobs.append { compositor in done.put(body(compositor)) }
        wake.wake()
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
        let source = compositor.whenReadable(wake) { runJobs(compositor) }
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
        private let condition = NSCondition()
        private var value: T?

        func put(_ new: T) {
            condition.lock()
            value = new
            condition.signal()
            condition.unlock()
        }

        func take() -> T {
            condition.lock()
            while value == nil { condition.wait() }
            let result = value!
            condition.unlock()
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
