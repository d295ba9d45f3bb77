import CWaylandClient
import PreviewClientWire
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
    /// A thread could not be started (kept for source compatibility: the library starts none).
    case threadUnavailable

    public var description: String {
        switch self {
        case .unsupportedByCompositor: "the compositor does not advertise \(PreviewInteractionClient.interfaceName)"
        case .unsupportedVersion: "the compositor speaks version 1 of \(PreviewInteractionClient.interfaceName)"
        case .connectionFailed(let code): "the Wayland connection failed (\(errnoText(code)))"
        case .threadUnavailable: "cannot start a thread"
        }
    }
}

/// The library's side of one Wayland connection: the preview-interaction global, bound on the
/// app's queue.
///
/// Dispatch: the library's objects live on the queue the app dispatches (the default queue
/// unless `deliveryQueue` is given), so the app's own event loop runs the library's listeners
/// on the app's thread. The library starts no thread and reads nothing itself: frames are
/// acknowledged as they are dispatched, and from protocol version 3 only once per several
/// frames, while the compositor keeps sending progress (the acknowledgement window), so a
/// picture drawn between two dispatches holds nothing back. The delegate calls of the frames
/// one dispatch handles are made once, with the latest values, after the last of them: at
/// that frame when nothing else waits in the queue, else when a wl_display.sync sent then
/// comes back (its done is dispatched after what the queue held), or when the app calls
/// `deliverPendingCalls()` after its dispatch, whichever is first. A slow app gets fewer,
/// never stale, calls.
///
/// Create it once per connection, on the thread that dispatches that queue; keep it while
/// interactions exist. The first one created is `PreviewInteraction(surface:)`'s default.
public final class PreviewInteractionClient {
    public static let interfaceName = "spi_preview_interaction_manager_v1"

    /// The client `PreviewInteraction(surface:)` uses: the most recently created one alive.
    public static var current: PreviewInteractionClient? { latest.withLock { $0.client } }
    private static let latest = Mutex(WeakClient())

    public let display: OpaquePointer
    let manager: OpaquePointer
    /// For wl_region (set on the app's thread); may be nil when the app gave none.
    let compositor: OpaquePointer?
    private let ownsCompositor: Bool
    private let queue: LibraryQueue
    /// The interactions made with this client (app's thread).
    private var interactions: [WeakInteraction] = []
    private var closed = false
    /// The queue the app dispatches (nil: the default queue).
    private let deliveryQueue: OpaquePointer?
    /// The display on the app's queue: wakeups are made through it.
    private var wakeupFactory: OpaquePointer?
    /// The wl_display.sync whose done delivers the calls of a dispatch that did not end at a frame.
    private var wakeup: OpaquePointer?
    private let settingsWatch = SettingsWatch { PreviewInteraction.warn($0) }
    private var settingsDelivered: UInt64 = 0

    /// The protocol version the global is bound at, as far as the API goes: 1 or 2 (version 3
    /// changes only how frames are acknowledged, and reads 2). Version 2 brings the keyboard,
    /// settings, pressure behaviours and haptics; on version 1 those calls throw
    /// `PreviewInteractionError.unsupportedVersion` (or are empty).
    public var protocolVersion: UInt32 {
        ProtocolVersion.reported(spi_preview_interaction_manager_v1_get_version(manager))
    }

    /// The user's settings as the compositor told them (version 2; nil on version 1). An app's
    /// own recogniser uses them; `onSettingsChanged` says when they change.
    public var settings: PreviewUserSettings? { settingsWatch.current.settings }

    /// Called on the app's thread, as the app dispatches its queue, when the user changed a setting.
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
        guard let queue = LibraryQueue(display: display, placement: .app(deliveryQueue)) else {
            throw .connectionFailed(errno: ErrnoCode.outOfMemory)
        }
        guard let wrapper = queue.wrapper(of: registry) else {
            queue.close()
            throw .connectionFailed(errno: ErrnoCode.outOfMemory)
        }
        let bound = ProtocolVersion.bindManager(wrapper, name: name, advertised: version)
        wl_proxy_wrapper_destroy(UnsafeMutableRawPointer(wrapper))
        guard let bound else {
            queue.close()
            throw .connectionFailed(errno: ErrnoCode.outOfMemory)
        }
        self.queue = queue
        manager = bound
        self.compositor = compositor
        ownsCompositor = false
        self.deliveryQueue = deliveryQueue
        finishSetup()
    }

    /// Looks for the global itself (a registry of its own, one roundtrip on a private queue):
    /// for apps that do not want to touch their registry code. Throws
    /// `.unsupportedByCompositor` when the compositor has no preview interactions.
    public init(display: OpaquePointer, deliveryQueue: OpaquePointer? = nil) throws(PreviewInteractionError) {
        self.display = display
        // libwayland returns NULL here only when it cannot allocate: an error for the app, not a trap.
        guard let queue = LibraryQueue(display: display, placement: .app(deliveryQueue)) else {
            throw .connectionFailed(errno: ErrnoCode.outOfMemory)
        }
        guard let wrapper = queue.wrapper(of: display) else {
            queue.close()
            throw .connectionFailed(errno: ErrnoCode.outOfMemory)
        }
        let registry = wl_display_get_registry(wrapper)
        wl_proxy_wrapper_destroy(UnsafeMutableRawPointer(wrapper))
        guard let registry else {
            queue.close()
            throw .connectionFailed(errno: ErrnoCode.outOfMemory)
        }
        let scan = ConnectionGlobals()
        let found = withUnretained(scan) { data in
            wl_registry_add_listener(registry, &connectionRegistryListener, data)
            return queue.roundtrip()
        }
        guard found, let global = scan.manager else {
            wl_registry_destroy(registry)
            queue.close()
            throw found ? .unsupportedByCompositor : .connectionFailed(errno: wl_display_get_error(display))
        }
        guard let bound = ProtocolVersion.bindManager(registry, name: global.name, advertised: global.version) else {
            wl_registry_destroy(registry)
            queue.close()
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
        self.deliveryQueue = deliveryQueue
        finishSetup()
    }

    private func finishSetup() {
        if spi_preview_interaction_manager_v1_get_version(manager) >= 2 {
            settingsWatch.listen(to: manager)
            // The first settings before init returns (the manager sends them at bind).
            _ = queue.roundtrip()
            settingsDelivered = settingsWatch.current.generation
        }
        settingsWatch.applied = { [unowned self] in deliverSettings() }
        // The app's own dispatch runs the manager's listener from now on (and the interactions').
        _ = queue.settle([manager], appWake: nil)
        wakeupFactory = OpaquePointer(wl_proxy_create_wrapper(UnsafeMutableRawPointer(display)))
        if let wakeupFactory { wl_proxy_set_queue(wakeupFactory, deliveryQueue) }
        Self.latest.withLock { $0.client = self }
    }

    deinit { close() }

    /// Destroys the library's objects (interactions first). Called by deinit; call it yourself
    /// before wl_display_disconnect.
    public func close() {
        guard !closed else { return }
        closed = true
        for entry in interactions { entry.interaction?.invalidate() }
        interactions.removeAll()
        settingsWatch.applied = nil
        if let wakeup { wl_callback_destroy(wakeup) }
        if let wakeupFactory { wl_proxy_wrapper_destroy(UnsafeMutableRawPointer(wakeupFactory)) }
        (wakeup, wakeupFactory) = (nil, nil)
        spi_preview_interaction_manager_v1_destroy(manager)
        if ownsCompositor, let compositor { wl_compositor_destroy(compositor) }
        queue.close()
        Self.latest.withLock { if $0.client === self { $0.client = nil } }
    }

    /// True once the connection failed.
    public var hasFailed: Bool { wl_display_get_error(display) != 0 }

    /// Delegate calls are made as the app dispatches its queue: there is no descriptor to poll.
    @available(*, deprecated, message: "delegate calls are made as the app dispatches its queue; -1")
    public var wakeupFileDescriptor: Int32 { -1 }

    /// Makes every delegate call still waiting, now, on the calling thread (the app's): right
    /// after the app's dispatch of its queue, the calls of what it dispatched, without waiting
    /// for the library's wakeup. After the app's own dispatch failed, ends the running presses
    /// (cancelled, system). Harmless when nothing waits.
    public func deliverPendingCalls() {
        guard !closed else { return }
        let alive = !hasFailed
        if alive { deliverSettings() }
        interactions.removeAll { $0.interaction == nil }
        for entry in interactions {
            if alive { entry.interaction?.deliver() } else { entry.interaction?.connectionLost() }
        }
    }

    private func deliverSettings() {
        let (current, generation) = settingsWatch.current
        guard generation != settingsDelivered else { return }
        settingsDelivered = generation
        if let current { onSettingsChanged?(current) }
    }

    // MARK: internal

    /// A frame of `interaction` made calls, in the app's dispatch: made now if the dispatch
    /// ends with it, else once it has handled what the queue holds (the wakeup).
    func callsReady(for interaction: PreviewInteraction) {
        if dispatchEndsHere { return interaction.deliver() }
        guard wakeup == nil, let wakeupFactory, let callback = wl_display_sync(wakeupFactory) else { return }
        // This thread alone dispatches the queue the done comes on: the listener is in time.
        wl_callback_add_listener(callback, &wakeupListener, Unmanaged.passUnretained(self).toOpaque())
        wakeup = callback
    }

    /// Whether the app's queue holds nothing more to dispatch now.
    private var dispatchEndsHere: Bool {
        let status =
            deliveryQueue.map { wl_display_prepare_read_queue(display, $0) } ?? wl_display_prepare_read(display)
        guard status == 0 else { return false }
        wl_display_cancel_read(display)
        return true
    }

    /// The wakeup's done, on the app's thread.
    func wakeupArrived() {
        if let wakeup { wl_callback_destroy(wakeup) }
        wakeup = nil
        deliverPendingCalls()
    }

    func register(_ interaction: PreviewInteraction) {
        interactions.removeAll { $0.interaction == nil }
        interactions.append(WeakInteraction(interaction: interaction))
    }

    func createObject(for surface: OpaquePointer) -> OpaquePointer? {
        guard !closed else { return nil }
        return spi_preview_interaction_manager_v1_get_interaction(manager, surface)
    }
}

/// The latest client, read and written under a lock from any thread.
struct WeakClient: @unchecked Sendable {  // only touched under `PreviewInteractionClient.latest`
    weak var client: PreviewInteractionClient?
}

struct WeakInteraction {
    weak var interaction: PreviewInteraction?
}
