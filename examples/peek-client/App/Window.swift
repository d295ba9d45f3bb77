import CWaylandClient
import PeekUI
import SystemLayer

// The xdg toplevel: configure/ack, drawing into wl_shm buffers paced by frame callbacks, and the
// buffer scale of the outputs the surface is on.
extension PeekApp {
    func createWindow() {
        surface = wl_compositor_create_surface(compositor)
        wl_surface_add_listener(surface, &surfaceListener, context(self))
        attachInteraction()
        guard !headless else {
            configured = true
            needsRedraw = true
            drawIfNeeded()
            return
        }
        if let compositor, let shm { cursor = Cursor(compositor: compositor, shm: shm) }
        xdgSurface = xdg_wm_base_get_xdg_surface(wmBase, surface)
        xdg_surface_add_listener(xdgSurface, &xdgSurfaceListener, context(self))
        toplevel = xdg_surface_get_toplevel(xdgSurface)
        xdg_toplevel_add_listener(toplevel, &toplevelListener, context(self))
        xdg_toplevel_set_title(toplevel, "Photos")
        xdg_toplevel_set_app_id(toplevel, "peek-client")
        xdg_toplevel_set_min_size(toplevel, 360, 320)
        // The first commit has no buffer: it asks for the first configure.
        wl_surface_commit(surface)
    }

    func toplevelConfigured(width: Int32, height: Int32) { pendingSize = (width, height) }

    /// The largest window side taken from a configure, and the largest output scale: a buffer
    /// stays within 4096 × 4 pixels a side whatever the compositor says.
    static let largestSide: Int32 = 4096
    static let largestScale: Int32 = 4

    func xdgSurfaceConfigured(serial: UInt32) {
        xdg_surface_ack_configure(xdgSurface, serial)
        // 0 means "your choice": keep the current size.
        // The compositor's numbers are not trusted: a side beyond `largestSide` is clamped.
        let width = pendingSize.width > 0 ? Double(min(pendingSize.width, Self.largestSide)) : model.size.width
        let height = pendingSize.height > 0 ? Double(min(pendingSize.height, Self.largestSide)) : model.size.height
        _ = model.resize(to: Size(width: width, height: height))
        configured = true
        // Every configure is answered by a commit with a buffer, even if nothing changed.
        needsRedraw = true
        if frameCallback == nil { drawIfNeeded() }
    }

    func closeRequested() { stop(status: 0) }

    // MARK: Drawing

    /// Draws now if no frame is pending, else at the next frame callback.
    func scheduleRedraw() {
        needsRedraw = true
        if frameCallback == nil { drawIfNeeded() }
    }

    func drawIfNeeded() {
        guard needsRedraw, configured, !dispatching, let surface else { return }
        let now = monotonicSeconds()
        // An animation that began since the last frame starts with this one.
        if model.isAnimating && !drewAnimation { model.startAnimation(at: now) }
        _ = model.advance(to: now)
        guard !headless else {
            // No buffers: the commit still tells the compositor a new frame of the app exists.
            needsRedraw = false
            commit(surface)
            return
        }
        let width = Int32(clamping: Int((model.size.width * Double(scale)).rounded(.up)))
        let height = Int32(clamping: Int((model.size.height * Double(scale)).rounded(.up)))
        // Both buffers held by the compositor: draw when one is released.
        guard let shm, let buffer = buffers.acquire(shm: shm, width: width, height: height, listenerData: context(self))
        else { return }
        needsRedraw = false
        // Acks and answers leave before drawing, so the compositor is not kept waiting by it.
        wl_display_flush(display)
        if drawDelay > 0 && (model.isInteracting || model.isAnimating) {
            MonotonicTime.sleep(microseconds: Int64(drawDelay))
        }
        renderer.render(model, at: now, into: buffer.cairoSurface, scale: Int(scale))
        wl_surface_set_buffer_scale(surface, scale)
        wl_surface_attach(surface, buffer.buffer, 0, 0)
        wl_surface_damage_buffer(surface, 0, 0, width, height)
        buffer.busy = true
        drewAnimation = model.isAnimating
        // Frame callbacks only while something moves or an interaction paces the drawing: a
        // commit without one tells the compositor the picture is settled.
        let moving = model.isAnimating || model.isInteracting
        if moving {
            frameCallback = wl_surface_frame(surface)
            wl_callback_add_listener(frameCallback, &frameListener, context(self))
        }
        commit(surface)
        if exitWhenSettled && !moving { stop(status: 0) }
        // Once nothing has happened for a moment, blur the grid ahead of the next press (run()).
        idleWorkPending = !moving
    }

    /// wl_surface.commit through the interaction, which tells the compositor which interaction
    /// frames this picture shows (the compositor photographs phases on the commit that shows them).
    private func commit(_ surface: OpaquePointer) {
        updateInteractionState()
        if let interaction { interaction.commitSurface() } else { wl_surface_commit(surface) }
    }

    func frameDone() {
        if let frameCallback { wl_callback_destroy(frameCallback) }
        frameCallback = nil
        if model.isAnimating { needsRedraw = true }
        drawIfNeeded()
    }

    func bufferReleased(_ proxy: OpaquePointer?) {
        buffers.buffer(for: proxy)?.busy = false
        if frameCallback == nil { drawIfNeeded() }
    }

    // MARK: Scale

    func surfaceEntered(_ output: OpaquePointer?) {
        guard let output else { return }
        enteredOutputs.insert(output)
        updateScale()
    }

    func surfaceLeft(_ output: OpaquePointer?) {
        guard let output else { return }
        enteredOutputs.remove(output)
        updateScale()
    }

    /// The largest scale of the outputs the surface is on, so it is sharp on the best of them.
    func updateScale() {
        let scales = outputs.values.filter { enteredOutputs.contains($0.proxy) }.map(\.scale)
        let new = max(1, scales.max() ?? 1)
        guard new != scale else { return }
        scale = new
        scheduleRedraw()
    }
}
