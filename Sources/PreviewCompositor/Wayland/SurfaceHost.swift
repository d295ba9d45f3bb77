import PreviewEngine

/// What the Wayland resources (wl_compositor, wl_surface, wl_subsurface, xdg_wm_base and its
/// surfaces, wl_output) ask of the compositor: the scene they are shown in and the registry
/// they are found in, the output's damage and frames, serials, and the lifecycle of surfaces
/// and windows, which the compositor hands to the concerns that follow it (the seat, window
/// placement, popup grabs, the host core, the phase screenshots). Resources hold it weakly:
/// a client's objects can be destroyed while the compositor itself goes.
protocol SurfaceHost: AnyObject {
    var scene: Scene { get }
    var surfaces: SurfaceRegistry { get }
    var serials: Serials { get }
    /// A toplevel's or popup's buffer may come before its first configure (WLCS 1.5.0).
    var toleratesBufferBeforeFirstAck: Bool { get }
    func damage(_ rect: Rect)
    func scheduleFrame()
    /// A commit's frame callbacks, answered at the next frame.
    func frameRequested(_ callbacks: [Callback])
    /// A commit's state was applied (its preview region and behaviours take effect), before
    /// its damage.
    func surfaceStateApplied(_ surface: SurfaceID)
    /// A commit was applied and damaged.
    func surfaceCommitted(_ surface: SurfaceID, requestedFrame: Bool)
    func surfaceDestroyed(_ surface: Surface)
    func toplevelAppeared(_ toplevel: XdgToplevel)
    func toplevelMapped(_ toplevel: XdgToplevel)
    func toplevelUnmapped(_ toplevel: XdgToplevel)
    func toplevelCommitted(_ toplevel: XdgToplevel)
    /// xdg_toplevel.move (`moves`) or resize.
    func interactiveGrabRequested(_ toplevel: XdgToplevel, moves: Bool)
    /// A popup's node, placed, is shown (`grab`: it asked for xdg_popup.grab).
    func popupMapped(_ popup: XdgPopup, node: SceneSurface, grab: Bool)
    func popupUnmapped(_ popup: XdgPopup, node: SceneSurface)
    func outputBound(_ output: OutputResource)
}

extension SurfaceHost {
    /// Damages where `node` and its subsurfaces are on the output.
    func damage(extentsOf node: SceneSurface) { damage(scene.extents(of: node)) }
}

/// How the globals reach the compositor: they are advertised before it is whole (the host
/// core's global comes after them), and bound only once it is.
final class SurfaceHostReference {
    weak var host: SurfaceHost?
}
