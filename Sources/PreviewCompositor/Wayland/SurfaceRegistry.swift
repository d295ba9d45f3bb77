import Logging
import PreviewEngine
import WaylandServer

/// The wl_compositor concern's state: every live wl_surface by the id the scene and the host
/// core know it by, and each client's number (`client1`, `client2`… in connection order, for
/// traces and logs). Everything else reaches surfaces through it.
final class SurfaceRegistry {
    private var surfaces: [SurfaceID: Surface] = [:]
    private var nextSurface: UInt64 = 1
    private var clients: [Client: (id: ClientID, gone: Listener)] = [:]
    private var nextClient: UInt32 = 1
    private let logger: Logger

    init(logger: Logger) { self.logger = logger }

    subscript(id: SurfaceID) -> Surface? { surfaces[id] }

    /// Every live surface, in no particular order.
    var all: Dictionary<SurfaceID, Surface>.Values { surfaces.values }
    var count: Int { surfaces.count }
    var isEmpty: Bool { surfaces.isEmpty }

    /// A new surface's id (never reused).
    func makeID() -> SurfaceID {
        defer { nextSurface += 1 }
        return SurfaceID(nextSurface)
    }

    /// A wl_surface was created.
    func add(_ surface: Surface) { surfaces[surface.node.id] = surface }

    /// A wl_surface was destroyed.
    func remove(_ id: SurfaceID) { surfaces[id] = nil }

    /// The client's number, given at first sight and forgotten when it disconnects.
    func clientID(for client: Client) -> ClientID {
        if let known = clients[client] { return known.id }
        let id = ClientID(nextClient)
        nextClient += 1
        let gone = Listener { [unowned self] _ in
            clients[client]?.gone.remove()
            clients[client] = nil
        }
        gone.listen(toDestroyOf: client)
        clients[client] = (id, gone)
        logger.debug("client \(id) connected (pid \(client.pid))")
        return id
    }

    /// The name of the client of a surface (`client1`…), nil when the surface is gone.
    func clientName(of surface: SurfaceID) -> String? {
        surfaces[surface].map { "\($0.node.client)" }
    }
}
