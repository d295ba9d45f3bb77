import Foundation
import Synchronization
import SystemLayer
import WaylandServer

/// A server's display dispatched on a thread of its own, so the test's thread can be the app's
/// and block in libwayland as an app does. `sync` runs a closure on the server's thread with
/// its host (only ever touched there) and waits for it; clients are flushed after each batch.
final class DisplayThread<Host>: @unchecked Sendable {
    private let host: Host
    private let display: Display
    private let jobs = Mutex<[@Sendable () -> Void]>([])
    private let stopping = Atomic<Bool>(false)
    private let wake: WakePipe
    private var wakeSource: EventSource?
    private let finished = DispatchSemaphore(value: 0)

    init(_ host: Host, display: Display) throws {
        self.host = host
        self.display = display
        // Close-on-exec from birth: other tests' children must not hold it.
        wake = try WakePipe()
        wakeSource = display.eventLoop.addFD(wake.fileDescriptor, events: .readable) { [unowned self] _ in
            wake.drain()
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
        wake.wake()
        done.wait()
        return result!
    }

    func stop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wake.wake()
        finished.wait()
        wakeSource = nil
    }

    deinit { stop() }
}
