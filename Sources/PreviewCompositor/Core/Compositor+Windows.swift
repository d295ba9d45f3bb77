import PreviewEngine
import WaylandServer

/// What the Wayland resources and the seat tell the compositor, handed to the concerns that
/// follow them: a surface's commits and end, a window's life (placed by `Tiling`), popups and
/// their grabs, the keyboard focus, presses and drags.
extension Compositor: SurfaceHost, SeatObserver {
    /// The display's serials (the resources' configures, the seat's events).
    var serials: Serials { Serials(display) }

    var toleratesBufferBeforeFirstAck: Bool { configuration.toleratesBufferBeforeFirstAck }

    func frameRequested(_ callbacks: [Callback]) { output.frameRequested(callbacks) }

    func surfaceStateApplied(_ surface: SurfaceID) { interaction.surfaceCommitted(surface) }

    /// From wl_surface.commit, once its state is applied: a phase screenshot may be due, and
    /// what is under the pointer may have changed (a new size, a subsurface moved).
    func surfaceCommitted(_ surface: SurfaceID, requestedFrame: Bool) {
        phaseScreenshots?.committed(surface: surface, requestedFrame: requestedFrame)
        seat.repick()
    }

    func surfaceDestroyed(_ surface: Surface) {
        interaction.surfaceDestroyed(surface.node.id)
        surfaces.remove(surface.node.id)
        // A window whose wl_surface goes before its toplevel leaves its column now.
        surface.xdgSurface?.toplevel?.withdraw()
        if surface.node.isMapped && scene.windows.contains(where: { $0 === surface.node.root }) {
            damage(scene.extents(of: surface.node))
            scheduleFrame()
        }
        surface.node.texture = nil
        scene.hide(surface.node)
        seat.surfaceUnmapped(surface.node)
        surface.node.discard()
    }

    // MARK: toplevels (placed by `Tiling`)

    func toplevelAppeared(_ toplevel: XdgToplevel) { tiling.appeared(toplevel) }

    func toplevelMapped(_ toplevel: XdgToplevel) {
        guard let node = toplevel.node else { return }
        scene.show(node)
        tiling.place(toplevel)
        damage(scene.extents(of: node))
        scheduleFrame()
        logger.debug(
            "toplevel \(node.id) of \(node.client) mapped at \(scene.extents(of: node)) title=\(toplevel.title)")
        if let surface = surfaces[node.id] {
            output.setShown(surface, true)
            popupGrabs.dismissAll()  // a new window ends any menu
            seat.setKeyboardFocus(surface)
        }
        seat.repick()
        hooks.onToplevelMapped?(node.id)
        input.windowMapped()
    }

    func toplevelUnmapped(_ toplevel: XdgToplevel) {
        if let node = toplevel.node {
            if let surface = surfaces[node.id] { output.setShown(surface, false) }
            damage(scene.extents(of: node))
            scene.hide(node)
            seat.surfaceUnmapped(node)
        }
        scheduleFrame()
        tiling.gone(toplevel)
        if seat.keyboardFocus == nil, let last = scene.toplevels.last, let surface = surfaces[last.id] {
            seat.setKeyboardFocus(surface)
        }
    }

    func toplevelCommitted(_ toplevel: XdgToplevel) { tiling.place(toplevel) }

    func interactiveGrabRequested(_ toplevel: XdgToplevel, moves: Bool) {
        seat.beginInteractiveGrab(toplevel, moves: moves)
    }

    func popupMapped(_ popup: XdgPopup, node: SceneSurface, grab: Bool) {
        scene.show(node)
        damage(scene.extents(of: node))
        scheduleFrame()
        if grab { popupGrabs.popupMapped(popup) }
    }

    func popupUnmapped(_ popup: XdgPopup, node: SceneSurface) {
        damage(scene.extents(of: node))
        scene.hide(node)
        scheduleFrame()
        seat.surfaceUnmapped(node)
        popupGrabs.popupGone(popup)
    }

    /// Asks a window's client to close it (xdg_toplevel.close), as a window manager's close
    /// button does; the client decides (tests close a nested compositor's window with it).
    public func requestClose(_ surface: SurfaceID) { tiling.requestClose(surface) }

    func keyboardFocusChanged(to surface: Surface?) {
        interaction.keyboardFocusChanged()
        tiling.focusChanged(to: surface)
        clipboard.focusChanged(to: surface?.client)
    }

    func pressed(on surface: Surface?) { popupGrabs.pointerPressed(on: surface) }

    func windowDragged(_ toplevel: XdgToplevel, to position: (x: Int32, y: Int32)) {
        tiling.pin(toplevel, at: position)
    }
}
