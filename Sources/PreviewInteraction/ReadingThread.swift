import CWaylandClient
import Glibc
import Synchronization

/// The library's thread: reads the connection whenever data arrives and dispatches the
/// library's own event queue, so frames are acknowledged (and answers flushed) while the app
/// draws. It follows libwayland's multi-threaded reading protocol (prepare_read_queue, poll,
/// read_events / cancel_read), so the app's own reading, on any thread, is unaffected: events
/// for the app's queues wait there for the app. After each batch it flushes, and if it filed
/// something for the app it wakes the app's thread with a wl_display.sync on the app's queue.
/// A wake that read only the app's events (a pen's tablet events, say) dispatches and flushes
/// nothing: the next prepare_read_queue says whether the library's queue got anything.
package final class ReadingThread: @unchecked Sendable {  // shared fields are behind `lock`
    private let display: OpaquePointer
    package let queue: OpaquePointer
    /// Set by listeners; touched only while `dispatching` is held.
    private var somethingFiled = false
    /// Held while the library's queue is dispatched, by this thread or the app's
    /// (`dispatchQueue`): never both at once, so each object's events are handled in order.
    private let dispatching = Mutex(())

    private struct Shared: @unchecked Sendable {  // pthread_t and pointers, used under the lock
        var stopping = false
        var handle: pthread_t?
        /// Proxies destroyed by the app whose listener data is released after the next batch.
        var retired: [Retained] = []
        var failed = false
    }
    private let lock = Mutex(Shared())
    /// Written to wake the poll (stop, or work to flush).
    private var wakePipe: (read: Int32, write: Int32) = (-1, -1)
    /// Sends the wakeup on the app's queue; called on this thread after a batch that filed
    /// something, unless the app polls `appWake` itself.
    package var wakeApp: @Sendable () -> Void = {}
    /// Readable while something is filed for the app (for apps that poll it in their loop).
    private var appWake: (read: Int32, write: Int32) = (-1, -1)
    private let appSignalled = Atomic<Bool>(false)
    /// The app polls `appWakeFileDescriptor`: no wl_display.sync wakeups.
    let appPolls = Atomic<Bool>(false)

    package init?(display: OpaquePointer, queue: OpaquePointer) {
        self.display = display
        self.queue = queue
        var fds: [Int32] = [-1, -1]
        var app: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        guard pipe(&app) == 0 else {
            close(fds[0])
            close(fds[1])
            return nil
        }
        for fd in fds + app {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, O_NONBLOCK)
        }
        wakePipe = (fds[0], fds[1])
        appWake = (app[0], app[1])
    }

    deinit {
        for fd in [wakePipe.read, wakePipe.write, appWake.read, appWake.write] { close(fd) }
    }

    /// Readable while delegate calls wait for the app's thread.
    package var appWakeFileDescriptor: Int32 {
        appPolls.store(true, ordering: .releasing)
        return appWake.read
    }

    /// The app's thread is about to take what is filed: the next filing signals again. The
    /// pipe is drained before the flag is cleared, so a filing in between either finds the
    /// flag still set (and its group is taken now) or writes a byte that stays for the next
    /// poll: no wakeup is lost.
    package func appWillDeliver() {
        guard appSignalled.load(ordering: .acquiring) else { return }
        var buffer = (UInt64(0), UInt64(0))
        _ = withUnsafeMutableBytes(of: &buffer) { read(appWake.read, $0.baseAddress, $0.count) }
        appSignalled.store(false, ordering: .releasing)
    }

    /// Called by a listener during dispatch.
    package func filed() { somethingFiled = true }

    /// Dispatches the library's queue on the app's thread (acks go out as usual): what this
    /// thread has not dispatched yet of the events read so far is filed now.
    package func dispatchQueue() -> Bool {
        dispatching.withLock { _ in wl_display_dispatch_queue_pending(display, queue) >= 0 }
    }

    package func start() -> Bool {
        guard let handle = startThread(self) else { return false }
        lock.withLock { $0.handle = handle }
        return true
    }

    /// True once reading failed (the connection is gone); the app's own dispatch reports why.
    package var failed: Bool { lock.withLock { $0.failed } }

    /// Hands over the listener data of a proxy just destroyed (any thread).
    package func retire(_ retained: Retained) {
        let running = lock.withLock { state -> Bool in
            guard state.handle != nil, !state.stopping else { return false }
            state.retired.append(retained)
            return true
        }
        // Released at the thread's next quiet point, which a wake with nothing to read brings.
        if running { nudge() } else { retained.release() }
    }

    /// Makes the thread flush soon (a request sent from another thread needs no flush from
    /// here, but this keeps the socket drained if that flush hit EAGAIN).
    package func nudge() {
        var byte: UInt8 = 1
        _ = write(wakePipe.write, &byte, 1)
    }

    /// Stops and joins the thread (the app's thread, before destroying the queue).
    package func stop() {
        let handle = lock.withLock { state -> pthread_t? in
            state.stopping = true
            return state.handle
        }
        nudge()
        if let handle { pthread_join(handle, nil) }
        let retired = lock.withLock { state -> [Retained] in
            state.handle = nil
            defer { state.retired.removeAll() }
            return state.retired
        }
        for retained in retired { retained.release() }
    }

    // MARK: the loop

    func run() {
        let fd = wl_display_get_fd(display)
        // Made once: the loop allocates nothing per batch.
        var fds = [pollfd(fd: fd, events: 0, revents: 0), pollfd(fd: wakePipe.read, events: Int16(POLLIN), revents: 0)]
        while !lock.withLock({ $0.stopping }) {
            while wl_display_prepare_read_queue(display, queue) != 0 {
                guard dispatchBatch() else { return fail() }
            }
            var events = Int16(POLLIN)
            if wl_display_flush(display) < 0 {
                if errno == EAGAIN {
                    events |= Int16(POLLOUT)
                } else {
                    wl_display_cancel_read(display)
                    return fail()
                }
            }
            fds[0].events = events
            fds[0].revents = 0
            fds[1].revents = 0
            let ready = poll(&fds, 2, -1)
            if ready > 0 && fds[0].revents & Int16(POLLIN | POLLERR | POLLHUP) != 0 {
                guard wl_display_read_events(display) >= 0 else { return fail() }
            } else {
                wl_display_cancel_read(display)
            }
            if fds[1].revents != 0 {
                var buffer = (UInt64(0), UInt64(0))
                _ = withUnsafeMutableBytes(of: &buffer) { read(wakePipe.read, $0.baseAddress, $0.count) }
                // A nudge (retired listener data, a flush that hit EAGAIN): a quiet point now.
                guard dispatchBatch() else { return fail() }
            }
            // Events read for the library's queue make the next prepare_read_queue fail, and
            // the loop dispatches them then; a read of the app's events alone costs nothing more.
        }
    }

    /// Dispatches what is queued for the library, flushes the acks and answers it made, wakes
    /// the app if something was filed, and releases retired listener data (no listener runs now).
    /// Never inlined: scripts/perf-compare measures the library's work by this function.
    @inline(never)
    private func dispatchBatch() -> Bool {
        let (status, filed) = dispatching.withLock { _ in
            somethingFiled = false
            return (wl_display_dispatch_queue_pending(display, queue), somethingFiled)
        }
        guard status >= 0 else { return false }
        if filed {
            signalApp()
            if !appPolls.load(ordering: .acquiring) { wakeApp() }
        }
        if wl_display_flush(display) < 0 && errno != EAGAIN { return false }
        // Taken by swapping, not copied: the batch allocates nothing.
        let retired = lock.withLock { state -> [Retained] in
            guard !state.retired.isEmpty else { return [] }
            var taken: [Retained] = []
            swap(&taken, &state.retired)
            return taken
        }
        for retained in retired { retained.release() }
        return true
    }

    /// Reading failed: the app's thread is woken to end the running presses.
    private func fail() {
        lock.withLock { $0.failed = true }
        signalApp()
    }

    private func signalApp() {
        if !appSignalled.exchange(true, ordering: .acquiringAndReleasing) {
            var byte: UInt8 = 1
            _ = write(appWake.write, &byte, 1)
        }
    }
}
