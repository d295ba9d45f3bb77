import CWaylandServer
import WaylandServer

/// wl_surface.enter/leave for our one output: a toplevel's surface is on it while mapped
/// (the whole output is shown, so a mapped window is always on it).
extension Compositor {
    /// A client bound wl_output: its windows already mapped are on it.
    func outputBound(_ output: OutputResource) {
        guard let outputResource = output.resource else { return }
        for node in scene.toplevels where node.client == surfaces.clientID(for: output.client) {
            if let surface = surfaces[node.id]?.resource { wl_surface_send_enter(surface, outputResource) }
        }
    }

    func setOnOutput(_ surface: Surface, _ shown: Bool) {
        guard let surfaceResource = surface.resource else { return }
        for output in output.resources(of: surface.client) {
            guard let outputResource = output.resource else { continue }
            if shown {
                wl_surface_send_enter(surfaceResource, outputResource)
            } else {
                wl_surface_send_leave(surfaceResource, outputResource)
            }
        }
    }
}
