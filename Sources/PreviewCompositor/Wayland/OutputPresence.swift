import CWaylandServer
import WaylandServer

/// wl_surface.enter for our one output: a toplevel's surface is on it while mapped (the whole
/// output is shown, so a mapped window is always on it).
extension Compositor {
    /// A client bound wl_output: it is told the mode (now and at every change), and its windows
    /// already mapped are on it.
    func outputBound(_ resource: OutputResource) {
        output.bound(resource)
        guard let outputResource = resource.resource else { return }
        for node in scene.toplevels where node.client == surfaces.clientID(for: resource.client) {
            if let surface = surfaces[node.id]?.resource { wl_surface_send_enter(surface, outputResource) }
        }
    }
}
