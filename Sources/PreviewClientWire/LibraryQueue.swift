import CWaylandClient
import SystemLayer

/// Where the library's objects live on one connection, and who dispatches their events.
///
/// The library looks for the global on a queue of its own (its roundtrips dispatch nothing of
/// the app's). Then, when the app dispatches a queue on the library's thread in its own loop,
/// the objects move there and the app's dispatch runs the library's listeners: no thread, no
/// reading and no hand-off of the library's own. An app that dispatches no such queue (it
/// only polls the library's descriptor) keeps them on the private queue, which an `EventPump`
/// reads and `dispatchPending()` dispatches on the app's thread.
package final class LibraryQueue {
    package enum Placement {
        /// The queue the app dispatches on the library's thread (nil: the display's default queue).
        case app(OpaquePointer?)
        /// The private queue, read by a pump.
        case pumped
    }

    package let display: OpaquePointer
    /// The library's private queue: where objects are made while it looks for the global, and
    /// where they stay when pumped.
    package let privateQueue: OpaquePointer
    private let placement: Placement
    private var pump: EventPump?
    private var privateQueueDestroyed = false

    /// Nil when libwayland cannot make a queue (it cannot allocate).
    package init?(display: OpaquePointer, placement: Placement) {
        guard let queue = wl_display_create_queue(display) else { return nil }
        self.display = display
        privateQueue = queue
        self.placement = placement
    }

    package var isPumped: Bool {
        if case .pumped = placement { return true }
        return false
    }

    /// A wrapper of `proxy` whose new objects are made on the private queue; destroy it with
    /// `wl_proxy_wrapper_destroy`.
    package func wrapper(of proxy: OpaquePointer) -> OpaquePointer? {
        guard let wrapper = OpaquePointer(wl_proxy_create_wrapper(UnsafeMutableRawPointer(proxy))) else { return nil }
        wl_proxy_set_queue(wrapper, privateQueue)
        return wrapper
    }

    /// A roundtrip on the private queue (the app's queues are not dispatched); false once the
    /// connection failed.
    package func roundtrip() -> Bool { wl_display_roundtrip_queue(display, privateQueue) >= 0 }

    /// The setup is done: `proxies` (the library's objects so far; those made from them later
    /// follow them) move to the app's queue, after the events read for them meanwhile are
    /// dispatched here, in order; or the pump starts, waking `appWake` when there is something
    /// to dispatch. False when the pump could not start (no descriptor or thread).
    package func settle(_ proxies: [OpaquePointer], appWake: WakePipe?) -> Bool {
        switch placement {
        case .app(let queue):
            for proxy in proxies { wl_proxy_set_queue(proxy, queue) }
            wl_display_dispatch_queue_pending(display, privateQueue)
            wl_event_queue_destroy(privateQueue)
            privateQueueDestroyed = true
            return true
        case .pumped:
            guard let appWake, let pump = EventPump(display: display, queue: privateQueue, appWake: appWake),
                pump.start()
            else {
                return false
            }
            self.pump = pump
            return true
        }
    }

    /// On the app's thread: dispatches what the pump read for the library (nothing to do when
    /// the app's own dispatch runs the listeners). False once the connection failed; with
    /// `listenersRan` (the app's dispatch just ran the library's listeners) the connection is
    /// not looked at again: it worked a moment ago, and a failure shows at the next call.
    package func dispatchPending(listenersRan: Bool = false) -> Bool {
        guard let pump else { return listenersRan || wl_display_get_error(display) == 0 }
        let status = wl_display_dispatch_queue_pending(display, privateQueue)
        pump.dispatched()
        return status >= 0 && !pump.failed
    }

    /// Sends what the library's thread queued; a full socket is retried by the pump (the app
    /// flushes its own connection in its loop).
    package func flush() {
        if wl_display_flush(display) < 0 && SystemCallError.last.wouldBlock { pump?.nudge() }
    }

    /// Stops the pump and destroys the private queue (the library's objects are destroyed).
    package func close() {
        pump?.stop()
        pump = nil
        wl_display_flush(display)
        if !privateQueueDestroyed { wl_event_queue_destroy(privateQueue) }
        privateQueueDestroyed = true
    }
}
