import CWaylandServer

/// The display's wl_event_loop: file descriptors, timers, idle callbacks and signals,
/// all dispatched on the thread that runs the display.
public final class EventLoop {
    public let raw: OpaquePointer

    init(_ raw: OpaquePointer) { self.raw = raw }

    /// The loop's epoll fd, to embed it in another loop.
    public var fd: Int32 { wl_event_loop_get_fd(raw) }

    /// Dispatches ready sources, waiting at most `timeoutMilliseconds` (-1: forever, 0: poll).
    @discardableResult
    public func dispatch(timeoutMilliseconds: Int32) -> Int32 {
        wl_event_loop_dispatch(raw, timeoutMilliseconds)
    }

    /// Watches `fd`; the handler gets the ready mask (WL_EVENT_READABLE, ...). Keep the source alive.
    public func addFD(_ fd: Int32, events: FDEvents, _ handler: @escaping (FDEvents) -> Void) -> EventSource? {
        let source = EventSource(kind: .fd(handler), loop: self)
        guard let raw = wl_event_loop_add_fd(raw, fd, events.rawValue, fdSourceTrampoline, source.unretainedContext)
        else { return nil }
        source.raw = raw
        return source
    }

    /// A timer, disarmed until `EventSource.arm(milliseconds:)`. Keep the source alive.
    public func addTimer(_ handler: @escaping () -> Void) -> EventSource? {
        let source = EventSource(kind: .timer(handler), loop: self)
        guard let raw = wl_event_loop_add_timer(raw, timerSourceTrampoline, source.unretainedContext) else {
            return nil
        }
        source.raw = raw
        return source
    }

    /// A signal delivered through the loop (signalfd), e.g. SIGINT for a clean shutdown.
    public func addSignal(_ signal: Int32, _ handler: @escaping () -> Void) -> EventSource? {
        let source = EventSource(kind: .timer(handler), loop: self)
        guard let raw = wl_event_loop_add_signal(raw, signal, signalSourceTrampoline, source.unretainedContext)
        else { return nil }
        source.raw = raw
        return source
    }

    /// Runs `handler` once, the next time the loop is idle (before it would wait). The loop
    /// keeps the source alive until then; `remove()` cancels it.
    @discardableResult
    public func addIdle(_ handler: @escaping () -> Void) -> EventSource? {
        let source = EventSource(kind: .idle(handler), loop: self)
        let context = source.retainedContext()
        guard let raw = wl_event_loop_add_idle(raw, idleSourceTrampoline, context) else {
            source.releaseRetainedContext()
            return nil
        }
        source.raw = raw
        return source
    }
}

public struct FDEvents: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let readable = FDEvents(rawValue: UInt32(WL_EVENT_READABLE))
    public static let writable = FDEvents(rawValue: UInt32(WL_EVENT_WRITABLE))
    public static let hangup = FDEvents(rawValue: UInt32(WL_EVENT_HANGUP))
    public static let error = FDEvents(rawValue: UInt32(WL_EVENT_ERROR))
}

/// One wl_event_source. Removed from the loop by `remove()`, when this object dies, or when the
/// loop dies first (display destroyed); never touched after that.
public final class EventSource {
    enum Kind {
        case fd((FDEvents) -> Void)
        case timer(() -> Void)
        case idle(() -> Void)
    }

    var raw: OpaquePointer?
    private let kind: Kind
    private var loopGone: Listener?

    init(kind: Kind, loop: EventLoop) {
        self.kind = kind
        // Unretained: `remove()`, which `deinit` calls, removes the listener first.
        let listener = Listener { [unowned(unsafe) self] _ in self.loopDestroyed() }
        listener.listen(toDestroyOf: loop)
        loopGone = listener
    }

    deinit { remove() }

    private func loopDestroyed() {
        // wl_event_loop's destroy signal is a plain wl_signal: unlink now, before the loop
        // (which holds the list head) is freed. The loop frees only the sources removed from
        // it (it emits this signal first, then empties its destroy list), so remove ours.
        remove()
    }

    public var isActive: Bool { raw != nil }

    /// Arms a timer to fire once in `milliseconds` (0 disarms). Timers only.
    public func arm(milliseconds: Int32) {
        guard let raw else { return }
        wl_event_source_timer_update(raw, milliseconds)
    }

    /// Removes the source; safe to call any number of times.
    public func remove() {
        loopGone?.remove()
        guard let source = raw else { return }
        raw = nil
        wl_event_source_remove(source)
        if case .idle = kind { releaseRetainedContext() }
    }

    func fireFD(mask: UInt32) {
        if case .fd(let handler) = kind { handler(FDEvents(rawValue: mask)) }
    }

    func fireTimer() {
        if case .timer(let handler) = kind { handler() }
    }

    func fireIdle() {
        raw = nil  // libwayland destroyed the idle source before calling us
        loopGone?.remove()
        if case .idle(let handler) = kind { handler() }
    }
}
