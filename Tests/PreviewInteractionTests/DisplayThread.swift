import Foundation
import Glibc
import Synchronization
import WaylandServer

/// A server's display dispatched on a thread of its own, so the test's thread can be the app's
/// and block in libwayland as an app does. `sync` runs a closure on the server's thread with
/// its host (only ever touched there) and waits for it; clients are flushed after each batch.
final class DisplayThread<Host>: @unchecked Sendable {
    private let host: Host
    private let display: Display
    private let jobs = Mutex<[@Sendable () -> Void]>([])
    private let stopping = Atomic<Bool>(false)
    private var wake: (read: Int32, write: Int32) = (-1, -1)
    private var wakeSource: EventSource?
    private let finished = DispatchSemaphore(value: 0)

    init(_ host: Host, display: Display) throws {
        self.host = host
        self.display = display
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw WaylandServerError("pipe failed") }
        wake = (fds[0], fds[1])
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }  // other tests' children must not hold it
        _ = fcntl(wake.read, F_SETFL, O_NONBLOCK)
        wakeSource = display.eventLoop.addFD(wake.read, events: .readable) { [unowned self] _ in
            var buffer = [UInt8](repeating: 0, count: 64)
            _ = read(wake.read, &buffer, buffer.count)
            let pending = jobs.withLock { jobs -> [@Sendable () -> Void] in
                defer { jobs.removeAll() }
                return jobs
            }
            for job in pending { job() }
            display.flushClients()
        }
        let thread = Thread { [unowned self] in
            while !stopping.load(ordering: .acquiring) { self.display.dispatch(timeoutMilliseconds: 100) }
            finished.signal()
        }
        thread.start()
    }

    /// Runs `body` on the server's thread and returns its result.
    func sync<T>(_ body: @escaping (Host) -> T) -> T {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: T?
        nonisolated(unsafe) let body = body
        jobs.withLock {
            $0.append {
                result = body(self.host)
                done.signal()
            }
        }
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
        done.wait()
        return result!
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
