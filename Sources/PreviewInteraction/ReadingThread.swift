import CWaylandClient
import Synchronization
internal import SystemLayer

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

    private struct Shared: @unchecked Sendable {  // pointers, used under the lock
        var stopping = false
        var handle: JoinableThread?
        /// Proxies destroyed by the app whose listener data is released after the next batch.
        var retired: [Retained] = []
        var failed = false
    }
    private let lock = Mutex(Shared())
    /// Woken to end the poll (stop, or work to flush).
    private let wakePipe: WakePipe
    /// Sends the wakeup on the app's queue; called on this thread after a batch that filed
    /// something, unless the app polls `appWake` itself.
    package var wakeApp: @Sendable () -> Void = {}
    /// Readable while something is filed for the app (for apps that poll it in their loop).
    private let appWake: WakePipe
    private let appSignalled = Atomic<Bool>(false)
    /// The app polls `appWakeFileDescriptor`: no wl_display.sync wakeups.
    let appPolls = Atomic<Bool>(false)

    package init?(display: OpaquePointer, queue: OpaquePointer) {
        self.display = display
        self.queue = queue
        guard let wakePipe = try? WakePipe(), let appWake = try? WakePipe() else { return nil }
        self.wakePipe = wakePipe
        self.appWake = appWake
    }

    /// Readable while delegate calls wait for the app's thread.
    package var appWakeFileDescriptor: Int32 {
        appPolls.store(true, ordering: .releasing)
        return appWake.fileDescriptor
    }

    /// The app's thread is about to take what is filed: the next filing signals again. The
    /// pipe is drained before the flag is cleared, so a filing in between either finds the
    /// flag still set (and its group is taken now) or writes a byte that stays for the next
    /// poll: no wakeup is lost.
    package func appWillDeliver() {
        guard appSignalled.load(ordering: .acquiring) else { return }
        appWake.drain()
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
        guard let handle = JoinableThread.start({ self.run() }) else { return false }
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
        wakePipe.wake()
    }

    /// Stops and joins the thread (the app's thread, before destroying the queue).
    package func stop() {
        let handle = lock.withLock { state -> JoinableThread? in
            state.stopping = true
            return state.handle
        }
        nudge()
        handle?.join()
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
        var fds = PollSet([fd, wakePipe.fileDescriptor])
        while !lock.withLock({ $0.stopping }) {
            while wl_display_prepare_read_queue(display, queue) != 0 {
                guard dispatchBatch() else { return fail() }
            }
            var writable = false
            if wl_display_flush(display) < 0 {
                if SystemCallError.last.wouldBlock {
                    writable = true
                } else {
                    wl_display_cancel_read(display)
                    return fail()
                }
            }
            fds.watch(0, readable: true, writable: writable)
            let ready = fds.wait(timeoutMilliseconds: -1)
            if ready > 0 && fds.isReadable(0) {
                guard wl_display_read_events(display) >= 0 else { return fail() }
            } else {
                wl_display_cancel_read(display)
            }
            if fds.isReady(1) {
                wakePipe.drain()
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
        if wl_display_flush(display) < 0 && !SystemCallError.last.wouldBlock { return false }
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
        if !appSignalled.exchange(true, ordering: .acquiringAndReleasing) { appWake.wake() }
    }
}
