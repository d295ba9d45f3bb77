import CWaylandClient
import Synchronization
import SystemLayer

/// For an app that does not dispatch a queue the library's objects could live on (the C API's
/// `preview_interaction_client_create`, whose apps may only poll the library's descriptor): a
/// thread that reads the connection, following libwayland's multi-threaded reading protocol
/// (prepare_read_queue, poll, read_events / cancel_read) so the app's own reading on any thread
/// is unaffected, and wakes the app when the library's private queue has events. The app's
/// thread dispatches that queue (`dispatched()` follows), so every listener, the client core
/// and every request run there. The pump only reads: no listener, core or request of the
/// library runs on it, and it shares nothing but libwayland's objects and three atomics.
///
/// Its cost: it wakes whenever the connection has something to read, the app's own events
/// included (BENCHMARKS.md). Apps that dispatch a queue of their own avoid it
/// (`preview_interaction_client_create_on_queue`, the Swift library).
package final class EventPump: @unchecked Sendable {  // libwayland's pointers and atomics; `thread` is the owner's
    private let display: OpaquePointer
    private let queue: OpaquePointer
    /// Made readable when the library's queue has events for the app to dispatch.
    private let appWake: WakePipe
    /// Ends the pump's waits (stop, the app dispatched, a flush to retry).
    private let wake: WakePipe
    private let stopping = Atomic<Bool>(false)
    private let waitsForApp = Atomic<Bool>(false)
    private let failure = Atomic<Bool>(false)
    private var thread: JoinableThread?

    package init?(display: OpaquePointer, queue: OpaquePointer, appWake: WakePipe) {
        guard let wake = try? WakePipe() else { return nil }
        self.display = display
        self.queue = queue
        self.appWake = appWake
        self.wake = wake
    }

    package func start() -> Bool {
        thread = JoinableThread.start { [self] in run() }
        return thread != nil
    }

    /// Stops and joins the thread (the app's thread, before destroying the queue).
    package func stop() {
        stopping.store(true, ordering: .releasing)
        wake.wake()
        thread?.join()
        thread = nil
    }

    /// True once reading failed (the connection is gone).
    package var failed: Bool { failure.load(ordering: .acquiring) }

    /// The app's thread dispatched the library's queue: the pump reads again.
    package func dispatched() {
        if waitsForApp.exchange(false, ordering: .acquiringAndReleasing) { wake.wake() }
    }

    /// The app's flush hit a full socket: the pump retries when it is writable.
    package func nudge() { wake.wake() }

    private func run() {
        var connection = PollSet([wl_display_get_fd(display), wake.fileDescriptor])
        var pause = PollSet([wake.fileDescriptor])
        while !stopping.load(ordering: .acquiring) {
            if wl_display_prepare_read_queue(display, queue) != 0 {
                // Events wait in the library's queue: the app dispatches them, then wakes us.
                waitsForApp.store(true, ordering: .releasing)
                appWake.wake()
                pause.wait(timeoutMilliseconds: -1)
                wake.drain()
                continue
            }
            var writable = false
            if wl_display_flush(display) < 0 {
                guard SystemCallError.last.wouldBlock else {
                    wl_display_cancel_read(display)
                    return fail()
                }
                writable = true
            }
            connection.watch(0, readable: true, writable: writable)
            if connection.wait(timeoutMilliseconds: -1) > 0 && connection.isReadable(0) {
                guard wl_display_read_events(display) >= 0 else { return fail() }
            } else {
                wl_display_cancel_read(display)
            }
            if connection.isReady(1) { wake.drain() }
        }
    }

    /// Reading failed: the app's thread is woken to end the running presses.
    private func fail() {
        failure.store(true, ordering: .releasing)
        appWake.wake()
    }
}
