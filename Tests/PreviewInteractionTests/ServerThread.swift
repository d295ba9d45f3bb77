import Foundation
import Glibc
import PreviewEngine
import Synchronization
import WaylandServer
import _PreviewProtocolTestSupport

/// The scripted protocol server (ProtocolHarness: a mini wl_compositor and the real
/// PreviewInteractionServer) on a thread of its own, so the test's thread can be the app's
/// thread and block in libwayland like an app does. `sync` runs a closure on the server's
/// thread and waits for it (the test plays the engine there).
final class ServerThread: @unchecked Sendable {  // the harness is only touched on its thread
    private let harness: ProtocolHarness
    private let jobs = Mutex<[@Sendable () -> Void]>([])
    private let stopping = Atomic<Bool>(false)
    private var wake: (read: Int32, write: Int32) = (-1, -1)
    private var wakeSource: EventSource?
    private var thread: Thread?
    private let finished = DispatchSemaphore(value: 0)

    /// The client end of a socket connected to the server.
    let clientFD: Int32
    private let client: Client

    /// Closes the app's connection from the server's side, as a compositor that goes away.
    func disconnectClient() {
        let client = self.client
        sync { harness in
            client.destroy()
            harness.display.flushClients()
        }
    }

    init() throws {
        harness = try ProtocolHarness()
        let connected = try harness.display.connectedClientSocket()
        (client, clientFD) = (connected.client, connected.clientFD)
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw WaylandServerError("pipe failed") }
        wake = (fds[0], fds[1])
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }  // other tests' children must not hold it
        _ = fcntl(wake.read, F_SETFL, O_NONBLOCK)
        wakeSource = harness.display.eventLoop.addFD(wake.read, events: .readable) { [unowned self] _ in
            var buffer = [UInt8](repeating: 0, count: 64)
            _ = read(wake.read, &buffer, buffer.count)
            runJobs()
        }
        let thread = Thread { [unowned self] in
            while !stopping.load(ordering: .acquiring) { harness.display.dispatch(timeoutMilliseconds: 100) }
            finished.signal()
        }
        self.thread = thread
        thread.start()
    }

    /// Performs `actions(i)` for i in 0..<count on the server's thread, one every `interval`
    /// milliseconds (a device reporting at its own rate, whatever the app does); `finished`
    /// is signalled after the last.
    func emit(count: Int, everyMilliseconds interval: Int32, _ action: @escaping @Sendable (Int) -> Action)
        -> DispatchSemaphore
    {
        let finished = DispatchSemaphore(value: 0)
        sync { harness in
            var index = 0
            nonisolated(unsafe) var timer: EventSource?
            timer = harness.display.eventLoop.addTimer {
                harness.server.perform(action(index))
                harness.display.flushClients()
                index += 1
                if index < count {
                    timer?.arm(milliseconds: interval)
                } else {
                    timer = nil
                    finished.signal()
                }
            }
            timer?.arm(milliseconds: interval)
        }
        return finished
    }

    /// Runs `body` on the server's thread and returns its result.
    func sync<T>(_ body: @escaping (ProtocolHarness) -> T) -> T {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<T>()
        nonisolated(unsafe) let body = body
        jobs.withLock {
            $0.append {
                box.value = body(self.harness); done.signal()
            }
        }
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
        done.wait()
        return box.value!
    }

    private func runJobs() {
        let pending = jobs.withLock { jobs -> [@Sendable () -> Void] in
            defer { jobs.removeAll() }
            return jobs
        }
        for job in pending { job() }
        harness.display.flushClients()
    }

    func stop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
        finished.wait()
        wakeSource = nil
        close(wake.read)
        close(wake.write)
    }

    deinit { stop() }
}

/// Hands a result from the server's thread to the waiting test (the semaphore orders them).
private final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}
