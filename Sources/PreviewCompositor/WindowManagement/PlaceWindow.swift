import CWaylandServer
import WaylandServer

extension Compositor {
    /// Puts a client's toplevel, named by its wl_surface's object id, with its window's
    /// top-left at `position` (output coordinates), out of the tiling: for hosts that lay
    /// windows out themselves, such as WLCS. False when the object is not a toplevel's surface.
    public func placeWindow(client: Client, surfaceObject id: UInt32, at position: (x: Int32, y: Int32)) -> Bool {
        guard let resource = wl_client_get_object(client.raw, id), let surface = resolve(resource, as: Surface.self),
            let toplevel = surface.xdgSurface?.toplevel
        else { return false }
        tiling.pin(toplevel, at: position)
        return true
    }
}
