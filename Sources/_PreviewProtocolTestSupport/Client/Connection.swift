import CWaylandClient
import SystemLayer
import WaylandServer

/// A real libwayland client connected to an in-process server over a socketpair. Both
/// ends run on the test's thread: `roundtrip()` alternates server and client dispatch
/// until the server has answered a wl_display.sync, so no test ever sleeps.
public final class Connection {
    public let server: Display
    public let serverClient: Client
    public let display: OpaquePointer  // the client's wl_display
    public private(set) var disconnected = false

    public init(to server: Display) throws {
        self.server = server
        let (client, fd) = try server.connectedClientSocket()
        guard let display = wl_display_connect_to_fd(fd) else {
            _ = Descriptor(adopting: fd)  // closed: the connection failed without taking it
            throw WaylandServerError("wl_display_connect_to_fd failed")
        }
        self.serverClient = client
        self.display = display
    }

    deinit { wl_display_disconnect(display) }

    /// Sends a sync and pumps both ends until its `done` arrives (or the connection dies).
    /// Returns false if the client got a protocol error or lost the connection.
    @discardableResult
    public func roundtrip() -> Bool {
        let done = UnsafeMutablePointer<Bool>.allocate(capacity: 1)
        done.initialize(to: false)
        defer { done.deallocate() }
        guard let callback = wl_display_sync(display) else { return false }
        wl_callback_add_listener(callback, &syncListener, done)
        defer { wl_callback_destroy(callback) }
        for _ in 0..<10_000 {
            wl_display_flush(display)
            server.dispatch(timeoutMilliseconds: 0)
            if cwlc_display_dispatch_pending_nonblocking(display) < 0 || wl_display_get_error(display) != 0 {
                disconnected = true
                return false
            }
            if done.pointee { return true }
        }
        return false
    }

    /// Client side only, without blocking: read and dispatch what arrived, then send what the
    /// handlers queued (e.g. acks). For benchmarks that interleave both ends by hand.
    public func pumpClientOnce() {
        _ = cwlc_display_dispatch_pending_nonblocking(display)
        wl_display_flush(display)
    }

    /// Sends queued requests and lets the server handle them, without reading anything
    /// on the client side (a stalled client).
    public func sendWithoutReading() {
        wl_display_flush(display)
        server.dispatch(timeoutMilliseconds: 0)
    }

    /// The protocol error the client received: (interface name, code), or nil.
    public var protocolError: (interface: String, code: UInt32)? {
        guard SystemCallError(wl_display_get_error(display)).isProtocolError else { return nil }
        var interface: UnsafePointer<wl_interface>?
        let code = wl_display_get_protocol_error(display, &interface, nil)
        return (interface.map { String(cString: $0.pointee.name) } ?? "?", code)
    }

    /// Binds the first global of `interface` at `version`.
    public func bind(_ interface: UnsafePointer<wl_interface>, version: UInt32) -> OpaquePointer? {
        let found = UnsafeMutablePointer<Globals>.allocate(capacity: 1)
        found.initialize(to: Globals())
        defer { found.deinitialize(count: 1).deallocate() }
        guard let registry = wl_display_get_registry(display) else { return nil }
        defer { wl_registry_destroy(registry) }
        wl_registry_add_listener(registry, &registryListener, found)
        roundtrip()
        let wanted = String(cString: interface.pointee.name)
        guard let name = found.pointee.names[wanted] else { return nil }
        return OpaquePointer(cwlc_registry_bind(registry, name, interface, version))
    }

    /// The names of the globals the client sees.
    public func globalInterfaces() -> Set<String> {
        let found = UnsafeMutablePointer<Globals>.allocate(capacity: 1)
        found.initialize(to: Globals())
        defer { found.deinitialize(count: 1).deallocate() }
        guard let registry = wl_display_get_registry(display) else { return [] }
        defer { wl_registry_destroy(registry) }
        wl_registry_add_listener(registry, &registryListener, found)
        roundtrip()
        return Set(found.pointee.names.keys)
    }
}

private struct Globals { var names: [String: UInt32] = [:] }

nonisolated(unsafe) private var syncListener = wl_callback_listener(done: { data, _, _ in
    data?.assumingMemoryBound(to: Bool.self).pointee = true
})

nonisolated(unsafe) private var registryListener = wl_registry_listener(
    global: { data, _, name, interface, _ in
        guard let data, let interface else { return }
        data.assumingMemoryBound(to: Globals.self).pointee.names[String(cString: interface)] = name
    },
    global_remove: { _, _, _ in })
