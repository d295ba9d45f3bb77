import CWaylandServer
import SystemLayer

public struct WaylandServerError: Error, CustomStringConvertible, Equatable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// The wl_display and its event loop. Single-threaded: every call, and every callback
/// (requests, listeners, event sources), happens on the thread that dispatches it.
public final class Display {
    public private(set) var raw: OpaquePointer
    public let eventLoop: EventLoop
    /// The time of everything that runs on this display (see `MonotonicClock`).
    public let clock: MonotonicClock
    /// False when the display is the host's (`init(attachingTo:)`): never destroyed here.
    private let owned: Bool
    private var destroyed = false

    public init(clock: MonotonicClock = .system) throws(WaylandServerError) {
        guard let display = wl_display_create() else { throw WaylandServerError("wl_display_create failed") }
        raw = display
        eventLoop = EventLoop(wl_display_get_event_loop(display))
        self.clock = clock
        owned = true
    }

    /// A host's wl_display (a compositor embedding us): its loop runs our sources, and the
    /// display stays the host's (`destroy()` leaves it alone).
    public init(attachingTo display: OpaquePointer, clock: MonotonicClock = .system) {
        raw = display
        eventLoop = EventLoop(wl_display_get_event_loop(display))
        self.clock = clock
        owned = false
    }

    deinit { destroy() }

    /// Listens on `name` in $XDG_RUNTIME_DIR (nil: the first free wayland-N). Returns the name.
    @discardableResult
    public func addSocket(_ name: String? = nil) throws(WaylandServerError) -> String {
        guard let runtime = Environment.value("XDG_RUNTIME_DIR") else {
            throw WaylandServerError("XDG_RUNTIME_DIR is not set; cannot create a Wayland socket")
        }
        if let name {
            guard wl_display_add_socket(raw, name) == 0 else {
                throw WaylandServerError("cannot listen on Wayland socket \(name) (in use or not writable)")
            }
            return name
        }
        // wl_display_add_socket_auto would log an error for every name another compositor
        // holds (a nested start always meets its parent's): skip those quietly first.
        for number in 0..<32 {
            let candidate = "wayland-\(number)"
            if Self.isLocked(runtime + "/" + candidate + ".lock") { continue }
            if wl_display_add_socket(raw, candidate) == 0 { return candidate }
        }
        throw WaylandServerError("no free Wayland socket name in XDG_RUNTIME_DIR")
    }

    /// Whether a compositor holds the lock file of a socket name (libwayland's flock).
    private static func isLocked(_ path: String) -> Bool {
        guard let file = try? Descriptor(readingFrom: path) else { return false }
        return file.isLockedElsewhere
    }

    /// Connects a client on an already connected socket (e.g. one end of a socketpair);
    /// the display takes ownership of `fd`.
    public func createClient(fd: Int32) throws(WaylandServerError) -> Client {
        guard let client = wl_client_create(raw, fd) else {
            throw WaylandServerError("wl_client_create failed on fd \(fd)")
        }
        return Client(client)
    }

    /// Returns a client end connected to this display over a fresh socketpair: the
    /// caller owns the returned fd (give it to wl_display_connect_to_fd).
    public func connectedClientSocket() throws(WaylandServerError) -> (client: Client, clientFD: Int32) {
        let connected: (client: OpaquePointer, clientFD: Int32)?
        do { connected = try connectSocketPair() } catch { throw WaylandServerError("socketpair failed: \(error)") }
        guard let connected else { throw WaylandServerError("wl_client_create failed on a fresh socket") }
        return (Client(connected.client), connected.clientFD)
    }

    /// Every end stays owned until its hand-over, so every failure closes it.
    private func connectSocketPair() throws(SystemCallError) -> (client: OpaquePointer, clientFD: Int32)? {
        let pair = try SocketPair()
        let server = try Descriptor(duplicating: pair.ours.rawValue)
        let clientEnd = try Descriptor(duplicating: pair.theirs.rawValue)
        guard let client = wl_client_create(raw, server.rawValue) else { return nil }
        _ = server.release()  // libwayland owns it now
        return (client, clientEnd.release())
    }

    /// One turn of the loop: dispatch what is ready (waiting at most `timeoutMilliseconds`),
    /// then write every client's queued events.
    public func dispatch(timeoutMilliseconds: Int32 = 0) {
        eventLoop.dispatch(timeoutMilliseconds: timeoutMilliseconds)
        flushClients()
    }

    /// Writes every client's queued events without blocking (a stalled client keeps its
    /// events queued; libwayland 1.21 disconnects it if its 4 KiB buffer overflows).
    public func flushClients() { wl_display_flush_clients(raw) }

    /// Runs until `terminate()`.
    public func run() { wl_display_run(raw) }

    public func terminate() { wl_display_terminate(raw) }

    /// The connected clients, in connection order.
    public var clients: [Client] {
        var result: [Client] = []
        let list = wl_display_get_client_list(raw)
        var link = list?.pointee.next
        while let current = link, current != list {
            guard let client = wl_client_from_link(current) else { break }
            result.append(Client(client))
            link = current.pointee.next
        }
        return result
    }

    /// The clients whose sockets are (nearly) full: at least three quarters of the socket's send
    /// buffer holds events they have not read. (poll's POLLOUT clears at a quarter, which a busy
    /// but healthy client reaches with a few dozen small flushes.)
    public func cloggedClients() -> [Client] {
        clients.filter { client in
            var queued: Int32 = 0
            var capacity: Int32 = 0
            guard cwl_client_send_queue(client.raw, &queued, &capacity) == 0, capacity > 0 else { return false }
            return Int64(queued) * 4 >= Int64(capacity) * 3
        }
    }

    public func nextSerial() -> UInt32 { wl_display_next_serial(raw) }

    /// Disconnects every client, then destroys the display (and its globals). Idempotent; does
    /// nothing to a host's display.
    public func destroy() {
        guard !destroyed else { return }
        destroyed = true
        guard owned else { return }
        wl_display_destroy_clients(raw)
        wl_display_destroy(raw)
    }
}
