import CWaylandClient
import Synchronization
internal import SystemLayer

/// Why the library cannot serve preview interactions on a connection.
public enum PreviewInteractionError: Error, CustomStringConvertible, Equatable {
    /// The compositor does not advertise spi_preview_interaction_manager_v1: no peek and pop
    /// here (keep the app's other ways to reach the same actions).
    case unsupportedByCompositor
    /// The compositor speaks protocol version 1: the call needs version 2 (nothing was sent).
    case unsupportedVersion
    /// The connection failed while the library looked for the global.
    case connectionFailed(errno: Int32)
    /// The library's reading thread could not be started.
    case threadUnavailable

    public var description: String {
        switch self {
        case .unsupportedByCompositor: "the compositor does not advertise \(PreviewInteractionClient.interfaceName)"
        case .unsupportedVersion: "the compositor speaks version 1 of \(PreviewInteractionClient.interfaceName)"
        case .connectionFailed(let code): "the Wayland connection failed (\(errnoText(code)))"
        case .threadUnavailable: "cannot start the preview-interaction reading thread"
        }
    }
}

/// The library's side of one Wayland connection: the preview-interaction global, an event
/// queue of its own and the thread that reads it (frames are acknowledged there, at once,
/// while the app draws), and the delivery of delegate calls on the app's thread.
///
/// Delivery: when the reading thread has something for the app it sends a wl_display.sync on
/// the app's queue (the default queue unless `deliveryQueue` is given); its `done`, dispatched
/// by the app's own event loop like any event, makes the delegate calls. So the delegate runs
/// on the thread that dispatches that queue, and no loop integration is needed. An app may
/// also call `deliverPendingCalls()` itself (before drawing, for example).
///
/// Create it once per connection, on the thread that dispatches the app's queue; keep it
/// while interactions exist. The first one created is `PreviewInteraction(surface:)`'s default.
public final class PreviewInteractionClient {
    public static let interfaceName = "spi_preview_interaction_manager_v1"

    /// The client `PreviewInteraction(surface:)` uses: the most recently created one alive.
    public static var current: PreviewInteractionClient? { latest.withLock { $0.client } }
    private static let latest = Mutex(WeakClient())

    public let display: OpaquePointer
    let queue: OpaquePointer
    let manager: OpaquePointer
    /// For wl_region (set on the app's thread); may be nil when the app gave none.
    let compositor: OpaquePointer?
    private let ownsCompositor: Bool
    let reader: ReadingThread
    /// The display, on the app's queue: wakeups are created through it (from the reading thread).
    private let wakeupFactory: OpaquePointer
    private var wakeup: Wakeup?
    /// The interactions made with this client (app's thread).
    private var interactions: [WeakInteraction] = []
    private var closed = false
    private let settingsWatch = SettingsWatch { PreviewInteraction.warn($0) }
    private var settingsDelivered: UInt64 = 0

    /// The protocol version the global is bound at: 1 or 2 (the highest both speak). Version 2
    /// brings the keyboard, settings, pressure behaviours and haptics; on version 1 those
    /// calls throw `PreviewInteractionError.unsupportedVersion` (or are empty).
    public var protocolVersion: UInt32 { spi_preview_interaction_manager_v1_get_version(manager) }

    /// The user's settings as the compositor told them (version 2; nil on version 1). An app's
    /// own recogniser uses them; `onSettingsChanged` says when they change.
    public var settings: PreviewUserSettings? { settingsWatch.current.settings }

    /// Called on the app's thread (with the delegate calls) when the user changed a setting.
    public var onSettingsChanged: ((PreviewUserSettings) -> Void)?

    /// Binds the global from the app's own registry: call it from the registry's `global`
    /// event when `interface == PreviewInteractionClient.interfaceName`. `compositor` (the
    /// app's wl_compositor) is used to make wl_regions for `PreviewInteraction.region`.
    /// `deliveryQueue`: the queue the app dispatches on the thread that should run the
    /// delegate (nil: the default queue).
    public init(
        display: OpaquePointer, registry: OpaquePointer, name: UInt32, version: UInt32, compositor: OpaquePointer?,
        deliveryQueue: OpaquePointer? = nil
    ) throws(PreviewInteractionError) {
        self.display = display
        // libwayland returns NULL here only when it cannot allocate: an error for the app, not a trap.
        guard let queue = wl_display_create_queue(display) else {
            throw .connectionFailed(errno: ErrnoCode.outOfMemory)
        }
        guard let wrapper = OpaquePointer(wl_proxy_create_wrapper(UnsafeMutableRawPointer(registry))) else {
            wl_event_queue_destroy(queue)
            throw .connectionFailed(errno: ErrnoCode.outOfMemory)
        }
        wl_proxy_set_queue(wrapper, queue)
        let bound = ProtocolVersion.bindManager(wrapper, name: name, advertised: version)
        wl_proxy_wrapper_destroy(UnsafeMutableRawPointer(wrapper))
        guard let bound else {
            wl_event_queue_destroy(queue)
            throw .connectionFailed(errno: ErrnoCode.outOfMemory)
        }
        self.queue = queue
        manager = bound
        self.compositor = compositor
        ownsCompositor = false
        (reader, wakeupFactory) = try Self.startReading(display: display, queue: queue, deliveryQueue: deliveryQueue)
        finishSetup()
    }

    /// Looks for the global itself (a registry of its own, one roundtrip on a private queue):
    /// for apps that do not want to touch their registry code. Throws
    /// `.unsupportedByCompositor` when the compositor has no preview interactions.
    public init(display: OpaquePointer, deliveryQueue: OpaquePointer? = nil) throws(PreviewInteractionError) {
        self.display = display
        // libwayland returns NULL here only when it cannot allocate: an error for the app, not a trap.
        guard let queue = wl_display_create_queue(display) else {
            throw .connectionFailed(errno: ErrnoCode.outOfMemory)
        }
        guard let wrapper = OpaquePointer(wl_proxy_create_wrapper(UnsafeMutableRawPointer(display))) else {
            wl_event_queue_destroy(queue)
            throw .connectionFailed(errno: ErrnoCode.outOfMemory)
        }
        wl_proxy_set_queue(wrapper, queue)
        let registry = wl_display_get_registry(wrapper)
        wl_proxy_wrapper_destroy(UnsafeMutableRawPointer(wrapper))
        guard let registry else {
            wl_event_queue_destroy(queue)
            throw .connectionFailed(errno: ErrnoCode.outOfMemory)
        }
        let scan = ConnectionGlobals()
        let status = withUnretained(scan) { data in
            wl_registry_add_listener(registry, &connectionRegistryListener, data)
            return wl_display_roundtrip_queue(display, queue)
        }
        guard status >= 0, let found = scan.manager else {
            wl_registry_destroy(registry)
            wl_event_queue_destroy(queue)
            throw status < 0 ? .connectionFailed(errno: wl_display_get_error(display)) : .unsupportedByCompositor
        }
        guard let bound = ProtocolVersion.bindManager(registry, name: found.name, advertised: found.version) else {
            wl_registry_destroy(registry)
            wl_event_queue_destroy(queue)
            throw .connectionFailed(errno: ErrnoCode.outOfMemory)
        }
        self.queue = queue
        manager = bound
        // Without a wl_compositor (it cannot be bound) regions are whole surfaces, as for an app that gave none.
        compositor = scan.compositor.flatMap {
            OpaquePointer(cwlc_registry_bind(registry, $0.name, cwl_interface_wl_compositor(), min($0.version, 4)))
        }
        ownsCompositor = compositor != nil
        wl_registry_destroy(registry)
        (reader, wakeupFactory) = try Self.startReading(display: display, queue: queue, deliveryQueue: deliveryQueue)
        finishSetup()
    }

    private static func startReading(display: OpaquePointer, queue: OpaquePointer, deliveryQueue: OpaquePointer?)
        throws(PreviewInteractionError) -> (ReadingThread, OpaquePointer)
    {
        guard let reader = ReadingThread(display: display, queue: queue) else { throw .threadUnavailable }
        guard let factory = OpaquePointer(wl_proxy_create_wrapper(UnsafeMutableRawPointer(display))) else {
            throw .connectionFailed(errno: ErrnoCode.outOfMemory)
        }
        if let deliveryQueue { wl_proxy_set_queue(factory, deliveryQueue) } else { wl_proxy_set_queue(factory, nil) }
        return (reader, factory)
    }

    private func finishSetup() {
        if protocolVersion >= 2 {
            settingsWatch.listen(to: manager)
            // The first settings before init returns (the manager sends them at bind).
            wl_display_roundtrip_queue(display, queue)
            settingsDelivered = settingsWatch.current.generation
        }
        settingsWatch.watch(with: reader)
        let wakeup = Wakeup(factory: wakeupFactory, target: unretainedSelf)
        self.wakeup = wakeup
        reader.wakeApp = { wakeup.send() }
        // Requests made before the thread runs (the bind) leave with its first flush.
        Self.latest.withLock { $0.client = self }
        if !reader.start() { closed = true }
    }

    deinit { close() }

    /// Stops the reading thread and destroys the library's objects (interactions first).
    /// Called by deinit; call it yourself before wl_display_disconnect.
    public func close() {
        guard !closed else { return }
        closed = true
        for entry in interactions { entry.interaction?.invalidate() }
        interactions.removeAll()
        reader.stop()
        wakeup?.cancel()
        spi_preview_interaction_manager_v1_destroy(manager)
        if ownsCompositor, let compositor { wl_compositor_destroy(compositor) }
        wl_proxy_wrapper_destroy(UnsafeMutableRawPointer(wakeupFactory))
        wl_display_flush(display)
        wl_event_queue_destroy(queue)
        Self.latest.withLock { if $0.client === self { $0.client = nil } }
    }

    /// True once the library's reading failed (the connection is gone).
    public var hasFailed: Bool { reader.failed }

    /// A file descriptor that is readable while delegate calls wait, for an app that polls
    /// more than the Wayland socket: when it is readable, call `deliverPendingCalls()`. Asking
    /// for it turns the wl_display.sync wakeups off (one hop less: no compositor roundtrip
    /// between reading an event and the delegate call).
    public var wakeupFileDescriptor: Int32 { reader.appWakeFileDescriptor }

    /// Makes every delegate call whose events have been read, now, on the calling thread
    /// (which must be the app's thread). Wakeups do this by themselves.
    ///
    /// Call it right before dispatching your own queue (`wl_display_dispatch_pending`): the
    /// calls then come in the order the compositor sent them relative to core input (a
    /// `cancelled` before the release of the same press, as the protocol orders them). The
    /// wl_display.sync wakeup alone delivers after the core events read with them.
    public func deliverPendingCalls() {
        reader.appWillDeliver()
        guard !closed else { return }
        let alive = reader.dispatchQueue() && !reader.failed
        let (current, generation) = settingsWatch.current
        if alive, generation != settingsDelivered {
            settingsDelivered = generation
            if let current { onSettingsChanged?(current) }
        }
        interactions.removeAll { $0.interaction == nil }
        for entry in interactions {
            if alive { entry.interaction?.deliver() } else { entry.interaction?.connectionLost() }
        }
    }

    // MARK: internal

    func register(_ interaction: PreviewInteraction) {
        interactions.removeAll { $0.interaction == nil }
        interactions.append(WeakInteraction(interaction: interaction))
    }

    func createObject(for surface: OpaquePointer) -> OpaquePointer? {
        guard !closed else { return nil }
        return spi_preview_interaction_manager_v1_get_interaction(manager, surface)
    }

    /// The wakeup's done, on the app's thread.
    func wakeupArrived(_ callback: OpaquePointer?) {
        wakeup?.arrived(callback)
        deliverPendingCalls()
    }
}

/// The latest client, read and written under a lock from any thread.
struct WeakClient: @unchecked Sendable {  // only touched under `PreviewInteractionClient.latest`
    weak var client: PreviewInteractionClient?
}

struct WeakInteraction {
    weak var interaction: PreviewInteraction?
}

/// The wl_display.sync that wakes the app's thread; its done delivers everything filed
/// until then, so one outstanding is enough. Its listener is attached just after the request
/// is queued: should the app's thread read and dispatch the done in between (possible only if
/// this thread is preempted right there), that done is lost, so a wakeup older than
/// `resendAfter` no longer counts as outstanding.
final class Wakeup: @unchecked Sendable {  // the pointers are fixed; the callbacks are behind a Mutex
    static let resendAfter: Int64 = 100_000
    private let factory: OpaquePointer
    private let target: UnsafeMutableRawPointer
    /// Callbacks sent and not yet done, with when they were sent (µs); the last is the newest.
    private struct Sent: @unchecked Sendable {  // a wl_callback proxy, used under the lock
        var callback: OpaquePointer
        var time: Int64
    }
    private let outstanding = Mutex<[Sent]>([])

    init(factory: OpaquePointer, target: UnsafeMutableRawPointer) {
        self.factory = factory
        self.target = target
        outstanding.withLock { $0.reserveCapacity(4) }
    }

    /// On the reading thread.
    func send() {
        let now = MonotonicTime.microseconds()
        outstanding.withLock { outstanding in
            if let newest = outstanding.last, now - newest.time < Self.resendAfter { return }
            guard let callback = wl_display_sync(factory) else { return }
            wl_callback_add_listener(callback, &wakeupListener, target)
            outstanding.append(Sent(callback: callback, time: now))
        }
    }

    /// Its done, on the app's thread.
    func arrived(_ callback: OpaquePointer?) {
        outstanding.withLock { outstanding in
            guard let index = outstanding.firstIndex(where: { $0.callback == callback }) else { return }
            wl_callback_destroy(outstanding.remove(at: index).callback)
        }
    }

    /// After the reading thread stopped.
    func cancel() {
        outstanding.withLock { outstanding in
            for entry in outstanding { wl_callback_destroy(entry.callback) }
            outstanding.removeAll()
        }
    }
}
