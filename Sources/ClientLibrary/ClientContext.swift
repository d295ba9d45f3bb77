import CClientLibrary
import CWaylandClient
import PreviewClientCore
import PreviewClientWire
import SystemLayer

/// The library's state on one wl_display: a registry of its own, the surfaces (with items, or
/// an interaction's), and the delivery of their calls on the app's thread when it dispatches.
///
/// Its objects live on the queue the app dispatches (`create_on_queue`: the app's dispatch runs
/// the listeners, which file calls and make the descriptor readable), or on a private queue an
/// `EventPump` reads (`create`: the app's dispatch of the library dispatches it). Either way
/// every listener, the client core and every request run on the app's thread.
final class ClientContext {
    let display: OpaquePointer
    let queue: LibraryQueue
    @exclusivity(unchecked) private(set) var handle: OpaquePointer?
    let owner = ThreadIdentity.current
    private let callbacks: preview_interaction_client_callbacks
    let userData: UnsafeMutableRawPointer?
    let logger: Logger
    private let watch = RegistryWatch()
    /// The user's settings (version 2), and the last change the app was told of.
    let settings: SettingsWatch
    @exclusivity(unchecked) private var settingsDelivered: UInt64 = 0
    @exclusivity(unchecked) private var registry: OpaquePointer?
    @exclusivity(unchecked) private(set) var compositor: OpaquePointer?
    @exclusivity(unchecked) private(set) var manager: OpaquePointer?
    /// The descriptor the app polls: readable while something waits for `dispatch`.
    let wake: WakePipe
    // The fields touched on every event and dispatch are the context's thread's alone: no
    // runtime exclusivity check.
    /// `wake` was made readable since the last dispatch (the pump's own wakes aside).
    @exclusivity(unchecked) private var signalled = false
    /// The registry or the settings changed since the last dispatch.
    @exclusivity(unchecked) private var registryChanged = false
    @exclusivity(unchecked) private var settingsChanged = false
    /// Every surface: the items API's and the interactions'.
    @exclusivity(unchecked) private(set) var surfaces: [ClientSurface] = []
    /// The interactions (the API of 1.0), each a wrapper of one of the surfaces.
    private(set) var interactions: [ClientInteraction] = []
    /// A callback of this context is running (destroy is refused then).
    @exclusivity(unchecked) var delivering = false
    @exclusivity(unchecked) private(set) var disconnected = false

    static let maximumInteractions = 256

    init(
        display: OpaquePointer, placement: LibraryQueue.Placement, callbacks: preview_interaction_client_callbacks,
        userData: UnsafeMutableRawPointer?
    ) throws(Status) {
        self.display = display
        self.callbacks = callbacks
        self.userData = userData
        let logger = Logger(callback: callbacks.log, userData: userData)
        self.logger = logger
        settings = SettingsWatch { logger.log(.warning, $0) }
        guard let wake = try? WakePipe(), let queue = LibraryQueue(display: display, placement: placement) else {
            throw .wayland
        }
        self.wake = wake
        self.queue = queue
        guard let wrapper = queue.wrapper(of: display) else {
            queue.close()
            throw .wayland
        }
        registry = wl_display_get_registry(wrapper)
        wl_proxy_wrapper_destroy(UnsafeMutableRawPointer(wrapper))
        guard let registry else {
            queue.close()
            throw .wayland
        }
        wl_registry_add_listener(registry, &clientRegistryListener, Unmanaged.passUnretained(watch).toOpaque())
        // One roundtrip on the library's queue: the app's queues are not dispatched.
        guard queue.roundtrip() else {
            logger.log(.error, "the Wayland connection failed while looking for the global")
            closeObjects()
            throw .wayland
        }
        applyGlobals(announce: false)
        // The first settings (version 2) before create returns, so get_settings has them.
        if protocolVersion >= 2 && !queue.roundtrip() {
            logger.log(.error, "the Wayland connection failed while reading the settings")
            closeObjects()
            throw .wayland
        }
        settingsDelivered = settings.current.generation
        var objects = [registry]
        if let manager { objects.append(manager) }
        guard queue.settle(objects, appWake: wake) else {
            closeObjects()
            throw .wayland
        }
        // From now on a global or a settings group that comes waits for the app's dispatch
        // (both closures are cleared by destroy: no reference cycle outlives the context).
        watch.changed = {
            self.registryChanged = true
            self.signal()
        }
        settings.applied = {
            self.settingsChanged = true
            self.signal()
        }
        handle = Handles.shared.register(self)
    }

    var onOwnerThread: Bool { ThreadIdentity.current == owner }

    var isAvailable: Bool { manager != nil }

    /// The bound global's version (0 without one).
    var protocolVersion: UInt32 { manager.map { spi_preview_interaction_manager_v1_get_version($0) } ?? 0 }

    /// The settings the compositor told, while a global of version 2 is bound.
    var currentSettings: PreviewUserSettings? {
        guard protocolVersion >= 2, !disconnected else { return nil }
        return settings.current.settings
    }

    // MARK: surfaces

    /// A surface on `surface`, its protocol object made now (or when the global appears).
    private func attach(
        _ surface: OpaquePointer, layout: ClientSurface.Layout, callbacks: preview_interaction_client_surface_callbacks,
        userData: UnsafeMutableRawPointer?
    ) throws(Status) -> ClientSurface {
        // Two objects for one surface are a protocol error that would end the app's connection,
        // also when another context on the same display made the first.
        let contexts = Handles.shared.contexts(on: display)
        guard !contexts.contains(where: { $0.surfaces.contains { $0.surface == surface } }) else {
            throw .surfaceTaken
        }
        guard surfaces.count < Self.maximumInteractions else { throw .limit }
        let object = ClientSurface(
            context: self, surface: surface, layout: layout, callbacks: callbacks, userData: userData)
        surfaces.append(object)
        if let manager, !disconnected { object.createObject(manager: manager) }
        return object
    }

    /// A surface with items (none yet).
    func attachSurface(
        _ surface: OpaquePointer, callbacks: preview_interaction_client_surface_callbacks,
        userData: UnsafeMutableRawPointer?
    ) throws(Status) -> ClientSurface {
        let object = try attach(surface, layout: .items, callbacks: callbacks, userData: userData)
        object.register()
        return object
    }

    /// An interaction: a surface the app declares itself, with one item that takes every press.
    func attach(
        surface: OpaquePointer, callbacks: preview_interaction_client_interaction_callbacks,
        userData: UnsafeMutableRawPointer?
    ) throws(Status) -> ClientInteraction {
        let object = try attach(
            surface, layout: .whole, callbacks: preview_interaction_client_surface_callbacks(), userData: nil)
        let item = try object.add(callbacks: ClientInteraction.itemCallbacks(callbacks), userData: userData)
        let interaction = ClientInteraction(surface: object, item: item, userData: userData)
        interactions.append(interaction)
        return interaction
    }

    func forget(_ surface: ClientSurface) {
        surfaces.removeAll { $0 === surface }
    }

    func forget(_ interaction: ClientInteraction) {
        interactions.removeAll { $0 === interaction }
    }

    // MARK: dispatch (the app's thread)

    /// Something waits for the app's dispatch: the descriptor turns readable (once until then).
    func signal() {
        guard !delivering, !signalled else { return }
        signalled = true
        wake.wake()
    }

    func dispatch() -> Status {
        guard !delivering else { return .busy }
        // The pump's wakes are not counted in `signalled`: always drained when it runs.
        let listenersRan = signalled
        if signalled || queue.isPumped { wake.drain() }
        signalled = false
        if disconnected { return .disconnected }
        delivering = true
        guard queue.dispatchPending(listenersRan: listenersRan) else {
            disconnected = true
            logger.log(.error, "the connection to the compositor is gone")
            for surface in surfaces { surface.connectionLost() }
            delivering = false
            return .disconnected
        }
        // Only what changed is looked at: a dispatch touches no more than it must.
        if registryChanged {
            registryChanged = false
            applyGlobals(announce: true)
        }
        if settingsChanged {
            settingsChanged = false
            deliverSettings()
        }
        for surface in surfaces where surface.isAttached { surface.deliver() }
        queue.flush()
        delivering = false
        // Calls filed while the callbacks ran (one of them dispatched the app's queue) wait
        // for the next dispatch.
        if surfaces.contains(where: { $0.hasWaiting }) { signal() }
        return .ok
    }

    /// settings_changed, once per group applied since the last call.
    private func deliverSettings() {
        guard settings.generation != settingsDelivered else { return }
        let (current, generation) = settings.current
        settingsDelivered = generation
        guard let current, let changed = callbacks.settings_changed else { return }
        var out = Self.cSettings(current)
        changed(userData, handle, &out)
    }

    static func cSettings(_ settings: PreviewUserSettings) -> preview_interaction_client_settings {
        var out = preview_interaction_client_settings()
        out.size = MemoryLayout<preview_interaction_client_settings>.size
        out.sensitivity = preview_interaction_client_sensitivity(rawValue: settings.sensitivity.rawValue)
        out.begin_threshold = settings.thresholds.begin
        out.commit_threshold = settings.thresholds.commit
        out.complete_threshold = settings.thresholds.complete
        out.long_press_ms = settings.longPressMilliseconds
        out.haptics = preview_interaction_client_haptics_setting(rawValue: settings.haptics.rawValue)
        out.completion = preview_interaction_client_completion(rawValue: settings.completion.rawValue)
        return out
    }

    /// Binds what the registry announced since the last look, drops what it removed.
    private func applyGlobals(announce: Bool) {
        let globals = watch.take()
        guard let registry else { return }
        if compositor == nil, let found = globals.compositor {
            compositor = OpaquePointer(cwlc_registry_bind(registry, found.name, cwl_interface_wl_compositor(), 1))
        }
        if manager == nil, let found = globals.manager {
            manager = ProtocolVersion.bindManager(registry, name: found.name, advertised: found.version)
            guard let manager else { return }
            if protocolVersion >= 2 { settings.listen(to: manager) }
            for surface in surfaces { surface.createObject(manager: manager) }
            wl_display_flush(display)
            if announce { callbacks.availability_changed?(userData, handle, true) }
        } else if let bound = manager, globals.manager == nil {
            logger.log(.info, "the compositor removed spi_preview_interaction_manager_v1")
            for surface in surfaces { surface.connectionLost() }
            for surface in surfaces { surface.destroyObject() }
            spi_preview_interaction_manager_v1_destroy(bound)
            manager = nil
            if announce { callbacks.availability_changed?(userData, handle, false) }
        }
    }

    // MARK: teardown

    func destroy() {
        for surface in surfaces {
            surface.destroyObject()
            surface.forget()
        }
        surfaces.removeAll()
        for interaction in interactions { interaction.forget() }
        interactions.removeAll()
        closeObjects()
        if let handle { Handles.shared.forget(context: handle) }
        handle = nil
    }

    /// Destroys the library's objects, then stops the pump (if any) and its queue.
    private func closeObjects() {
        watch.changed = nil
        settings.applied = nil
        if let manager { spi_preview_interaction_manager_v1_destroy(manager) }
        if let compositor { wl_compositor_destroy(compositor) }
        if let registry { wl_registry_destroy(registry) }
        (manager, compositor, registry) = (nil, nil, nil)
        queue.close()
    }
}

/// What the context's registry announced, as the app's thread dispatches the registry's queue;
/// the context applies it at its next dispatch.
final class RegistryWatch {
    struct Globals {
        var manager: (name: UInt32, version: UInt32)?
        var compositor: (name: UInt32, version: UInt32)?
    }
    private var globals = Globals()
    /// The manager came or went.
    var changed: (() -> Void)?

    func announce(name: UInt32, interface: UnsafePointer<CChar>, version: UInt32) {
        let interface = String(cString: interface)
        if interface == "wl_compositor" {
            globals.compositor = (name, version)
        } else if interface == "spi_preview_interaction_manager_v1" {
            globals.manager = (name, version)
            changed?()
        }
    }

    func remove(name: UInt32) {
        if globals.compositor?.name == name { globals.compositor = nil }
        guard globals.manager?.name == name else { return }
        globals.manager = nil
        changed?()
    }

    func take() -> Globals { globals }
}

nonisolated(unsafe) var clientRegistryListener = wl_registry_listener(
    global: { data, _, name, interface, version in
        guard let data, let interface else { return }
        Unmanaged<RegistryWatch>.fromOpaque(data).takeUnretainedValue().announce(
            name: name, interface: interface, version: version)
    },
    global_remove: { data, _, name in
        guard let data else { return }
        Unmanaged<RegistryWatch>.fromOpaque(data).takeUnretainedValue().remove(name: name)
    })

/// The app's log callback (any thread), or stderr for warnings and errors.
struct Logger: @unchecked Sendable {  // a C function pointer and the app's pointer, called as the header says
    let callback:
        (
            @convention(c) (UnsafeMutableRawPointer?, preview_interaction_client_log_level, UnsafePointer<CChar>?) ->
                Void
        )?
    let userData: UnsafeMutableRawPointer?

    enum Level: UInt32 {
        case debug = 1
        case info = 2
        case warning = 3
        case error = 4
    }

    func log(_ level: Level, _ message: String) {
        if let callback {
            message.withCString {
                callback(userData, preview_interaction_client_log_level(rawValue: level.rawValue), $0)
            }
        } else if level.rawValue >= Level.warning.rawValue {
            StandardStreams.writeError("preview-interaction-client: \(message)\n")
        }
    }

    func log(_ message: CoreMessage) { log(message.isWarning ? .warning : .debug, message.description) }
}
