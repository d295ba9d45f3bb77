import Logging
import PreviewCompositor
import PreviewEngine
import Synchronization
import SystemLayer
import WaylandServer

/// One WLCS display server: between `start` and `stop` (once per test) a compositor runs on
/// its own thread (`CompositorThread`) with injected input for WLCS's fake pointers and
/// touchscreens; WLCS's calls come from its test thread and wait for the compositor's.
final class WLCSServer: Sendable {
    private struct State {
        var thread: CompositorThread?
        /// The compositor's client behind each socket WLCS got (`position_window_absolute`
        /// names a client by its connection).
        var clients: [Int32: Client] = [:]
    }
    private let state = Mutex(State())
    private let logger: Logger = {
        var logger = Logger(label: "preview-compositor-wlcs") { StreamLogHandler.standardError(label: $0) }
        // PREVIEW_WLCS_LOG=debug shows what the compositor did in each test.
        logger.logLevel = Environment.value("PREVIEW_WLCS_LOG").flatMap { Logger.Level(rawValue: $0) } ?? .warning
        return logger
    }()

    static func configuration() -> CompositorConfiguration {
        var configuration = CompositorConfiguration()
        // Clients arrive on socketpairs (create_client_socket): no socket, no XDG_RUNTIME_DIR.
        configuration.listen = false
        configuration.input = .injected
        configuration.outputWidth = 1920
        configuration.outputHeight = 1080
        configuration.toleratesBufferBeforeFirstAck = true
        return configuration
    }

    func start() {
        let thread: CompositorThread
        do {
            thread = try CompositorThread(configuration: Self.configuration(), logger: logger)
        } catch {
            logger.error("cannot start the compositor: \(error)")
            return
        }
        let previous = state.withLock { state in
            defer { state = State(thread: thread) }
            return state.thread
        }
        previous?.stop()
    }

    func stop() {
        let thread = state.withLock { state in
            defer { state = State() }
            return state.thread
        }
        thread?.stop()
    }

    private var thread: CompositorThread? { state.withLock { $0.thread } }

    func clientSocket() -> Int32 {
        guard let thread else { return -1 }
        guard let (fd, client) = thread.sync({ compositor in try? compositor.connectClientWithHandle() }) else {
            logger.error("cannot create a client socket")
            return -1
        }
        state.withLock { $0.clients[fd] = client }
        return fd
    }

    func positionWindow(clientFD: Int32, surface: UInt32, x: Int32, y: Int32) {
        guard let thread, let client = state.withLock({ $0.clients[clientFD] }) else {
            logger.warning("position_window_absolute: no client on fd \(clientFD)")
            return
        }
        logger.debug("position_window_absolute: surface \(surface) of the client on fd \(clientFD) to \(x),\(y)")
        let placed = thread.sync { $0.placeWindow(client: client, surfaceObject: surface, at: (x, y)) }
        if !placed { logger.warning("position_window_absolute: surface \(surface) is not a toplevel of that client") }
    }

    func addDevice(touch: Bool) -> UInt32 {
        guard let thread else { return UInt32.max }
        return thread.sync { compositor in
            compositor.injectedInput?.addDevice(named: touch ? "WLCS touchscreen" : "WLCS pointer").rawValue
                ?? UInt32.max
        }
    }

    /// Runs `body` with the injected input on the compositor's thread, and waits for it.
    func input(_ body: @escaping @Sendable (InjectedInput) -> Void) {
        guard let thread else { return }
        thread.sync { compositor in
            if let input = compositor.injectedInput { body(input) }
        }
    }
}

/// The live servers by handle: the only way from C to a `WLCSServer`.
final class WLCSServers: Sendable {
    static let shared = WLCSServers()
    private let servers = Mutex<(next: UInt64, all: [UInt64: WLCSServer])>((1, [:]))

    func add(_ server: WLCSServer) -> UInt64 {
        servers.withLock { servers in
            let handle = servers.next
            servers.next += 1
            servers.all[handle] = server
            return handle
        }
    }

    func remove(_ handle: UInt64) -> WLCSServer? { servers.withLock { $0.all.removeValue(forKey: handle) } }

    subscript(handle: UInt64) -> WLCSServer? { servers.withLock { $0.all[handle] } }
}
