import CWaylandServer
import Logging
import PreviewEngine
import WaylandServer

/// wl_surface: double-buffered state applied on commit into its `SceneSurface`.
final class Surface: ResourceObject {
    weak var host: SurfaceHost?
    let node: SceneSurface

    /// Roles are for life: once xdg_surface or wl_subsurface, always that.
    enum RoleKind: String { case xdgSurface = "xdg_surface", subsurface = "wl_subsurface" }
    var roleKind: RoleKind?
    weak var xdgSurface: XdgSurface?
    weak var subsurface: Subsurface?

    /// Double-buffered state: `pending` collects requests; a commit applies it, or, for an
    /// effectively synchronised subsurface, moves it into `cached`, applied with the parent.
    private struct State {
        var bufferAttached = false
        var buffer: OpaquePointer?
        var damage: [Rect] = []
        var bufferDamage: [Rect] = []
        var scale: Int32?
        var inputRegion: Region??
        var callbacks: [Callback] = []
        /// Committed (a commit with no changes is still one: it applies the children's state).
        var committed = false

        /// A later commit's state on top of this one: newer values win, damage and callbacks add up.
        mutating func merge(_ newer: State) {
            if newer.bufferAttached {
                bufferAttached = true
                buffer = newer.buffer
            }
            damage += newer.damage
            bufferDamage += newer.bufferDamage
            if let scale = newer.scale { self.scale = scale }
            if let region = newer.inputRegion { inputRegion = region }
            callbacks += newer.callbacks
            committed = committed || newer.committed
        }
    }
    private var pending = State()
    private var cached = State()
    /// A buffer is attached and not yet committed.
    var hasPendingBuffer: Bool { pending.buffer != nil }
    /// Clears the pending (or cached) buffer if the client destroys it before it is applied.
    private let pendingBufferGone: Listener
    private let cachedBufferGone: Listener

    init?(host: SurfaceHost, client: Client, version: UInt32, id: UInt32) {
        self.host = host
        node = SceneSurface(id: host.surfaces.makeID(), client: host.surfaces.clientID(for: client))
        var clearBuffer: (() -> Void)?
        var clearCachedBuffer: (() -> Void)?
        pendingBufferGone = Listener { _ in clearBuffer?() }
        cachedBufferGone = Listener { _ in clearCachedBuffer?() }
        super.init(
            client: client, interface: cwl_interface_wl_surface(), version: version, id: id,
            implementation: Surface.implementation)
        clearBuffer = { [unowned self] in
            pending.buffer = nil
            pendingBufferGone.remove()
        }
        clearCachedBuffer = { [unowned self] in
            cached.buffer = nil
            cachedBufferGone.remove()
        }
        host.surfaces.add(self)
    }

    override func resourceDestroyed() {
        pendingBufferGone.remove()
        cachedBufferGone.remove()
        pending.callbacks.forEach { $0.destroyResource() }
        cached.callbacks.forEach { $0.destroyResource() }
        pending = State()
        cached = State()
        host?.surfaceDestroyed(self)
    }

    /// Assigns a role, or posts the wl_surface role error. Returns false on error.
    func assignRole(_ role: RoleKind, errorResource: ResourceObject, errorCode: UInt32) -> Bool {
        if let roleKind, roleKind != role || (role == .xdgSurface ? xdgSurface != nil : subsurface != nil) {
            errorResource.postError(errorCode, "wl_surface@\(id) already has the role \(roleKind.rawValue)")
            return false
        }
        roleKind = role
        return true
    }

    // MARK: commit

    /// A subsurface whose state waits for its parent's commit: its own mode is sync, or an
    /// ancestor's is (wl_subsurface).
    var isEffectivelySynchronized: Bool {
        guard let subsurface, let parent = subsurface.parent else { return false }
        return subsurface.isSync || parent.isEffectivelySynchronized
    }

    private func commit() {
        // The new state goes on top of any cached one, so nothing committed earlier is lost.
        if pending.bufferAttached {
            pendingBufferGone.remove()
            cachedBufferGone.remove()
            if let buffer = pending.buffer { cachedBufferGone.listen(toDestroyOfResource: buffer) }
        }
        pending.committed = true
        cached.merge(pending)
        pending = State()
        if !isEffectivelySynchronized { applyCached() }
    }

    /// Applies the cached state (a desynchronised commit, the parent's commit, or set_desync).
    func applyCached() {
        guard cached.committed else { return }
        let state = cached
        cached = State()
        cachedBufferGone.remove()
        apply(state)
    }

    /// wl_subsurface.place_above/below of this surface's children, applied on its commit.
    private var pendingRestacks: [(child: SceneSurface, sibling: SceneSurface, above: Bool)] = []

    func restackOnCommit(_ child: SceneSurface, relativeTo sibling: SceneSurface, above: Bool) {
        pendingRestacks.append((child, sibling, above))
    }

    private func applyPendingRestacks() {
        guard !pendingRestacks.isEmpty, let host else { return }
        let restacks = pendingRestacks
        pendingRestacks = []
        // A sibling destroyed since the request simply leaves the order as it is.
        for restack in restacks { node.restack(restack.child, relativeTo: restack.sibling, above: restack.above) }
        if node.isMapped { host.damage(extentsOf: node) }
    }

    private func apply(_ pending: State) {
        guard let host else { return }
        let before = node.isMapped ? host.scene.extents(of: node) : nil
        let oldSize = node.size
        var uploaded = false
        if pending.bufferAttached {
            if let buffer = pending.buffer {
                guard upload(buffer, state: pending) else { return }
                uploaded = true
            } else {
                node.texture = nil
            }
        }
        if let scale = pending.scale { node.bufferScale = scale }
        if let region = pending.inputRegion { node.inputRegion = region }
        let requestedFrame = !pending.callbacks.isEmpty
        host.frameRequested(pending.callbacks)
        let surfaceDamage = pending.damage
        let bufferDamage = pending.bufferDamage

        // Subsurface order and positions are double-buffered on the parent; synchronised
        // children's cached state applies with it (and theirs with them).
        applyPendingRestacks()
        for child in Array(node.stack) where child !== node {
            guard let childSurface = host.surfaces[child.id] else { continue }
            childSurface.subsurface?.applyPendingPosition()
            if childSurface.isEffectivelySynchronized { childSurface.applyCached() }
        }
        xdgSurface?.surfaceCommitted()
        host.surfaceStateApplied(node.id)

        // Output damage: whole extents when size, mapping or placement may have changed.
        if node.isMapped && !(uploaded && node.size == oldSize && before != nil) {
            host.damage(extentsOf: node)
        } else if node.isMapped {
            let origin = node.outputOrigin
            let scale = max(1, node.bufferScale)
            for rect in surfaceDamage { host.damage(rect.offsetBy(x: origin.x, y: origin.y)) }
            for rect in bufferDamage {
                host.damage(
                    Rect(
                        x: origin.x + rect.x / scale, y: origin.y + rect.y / scale, width: rect.width / scale + 2,
                        height: rect.height / scale + 2))
            }
        }
        if let before, !node.isMapped || before != host.scene.extents(of: node) { host.damage(before) }
        host.scheduleFrame()
        host.surfaceCommitted(node.id, requestedFrame: requestedFrame)
    }

    /// Copies the shm buffer's damaged pixels into the texture and releases the buffer.
    private func upload(_ buffer: OpaquePointer, state pending: State) -> Bool {
        guard let shm = wl_shm_buffer_get(buffer) else {
            postError(WL_SHM_ERROR_INVALID_FORMAT.rawValue, "only wl_shm buffers are supported")
            return false
        }
        let width = wl_shm_buffer_get_width(shm)
        let height = wl_shm_buffer_get_height(shm)
        guard let format = PixelFormat(rawValue: wl_shm_buffer_get_format(shm)) else {
            postError(WL_SHM_ERROR_INVALID_FORMAT.rawValue, "unsupported wl_shm format")
            return false
        }
        let scale = max(1, pending.scale ?? node.bufferScale)
        // Any buffer its pool holds is valid; only the part the output can show is copied.
        let shown = shownPart(ofBufferScaled: scale)
        var full = true
        if let texture = node.texture, texture.width == width, texture.height == height, texture.format == format,
            texture.held == shown?.intersection(Rect(x: 0, y: 0, width: width, height: height))
        {
            full = false
        } else {
            guard let texture = SurfaceTexture(width: width, height: height, format: format, holding: shown) else {
                client.postNoMemory()
                return false
            }
            node.texture = texture
        }
        let texture = node.texture!
        var rects = pending.bufferDamage
        rects += pending.damage.map {
            Rect(x: $0.x * scale, y: $0.y * scale, width: $0.width * scale, height: $0.height * scale)
        }
        if full { rects = [node.texture?.held].compactMap { $0 } }
        wl_shm_buffer_begin_access(shm)
        if let data = wl_shm_buffer_get_data(shm) {
            let stride = wl_shm_buffer_get_stride(shm)
            for rect in rects { texture.upload(from: data, stride: stride, rect: rect) }
        }
        wl_shm_buffer_end_access(shm)
        // The pixels are ours now: the client may reuse the buffer at once.
        wl_buffer_send_release(buffer)
        return true
    }

    /// The output's area in this surface's buffer coordinates (where the surface is now, at
    /// `scale`): the part of a buffer that can be shown. A surface that moves or an output that
    /// grows shows the rest from the client's next commit.
    private func shownPart(ofBufferScaled scale: Int32) -> Rect? {
        guard let host else { return nil }
        let output = host.scene.output
        let origin = node.outputOrigin
        let left = (Int64(output.x) - Int64(origin.x)) * Int64(scale)
        let top = (Int64(output.y) - Int64(origin.y)) * Int64(scale)
        func clamp(_ value: Int64) -> Int32 { Int32(max(Int64(Int32.min) / 2, min(Int64(Int32.max) / 2, value))) }
        return Rect(
            x: clamp(left), y: clamp(top), width: clamp(Int64(output.width) * Int64(scale)),
            height: clamp(Int64(output.height) * Int64(scale)))
    }

    // MARK: requests

    nonisolated(unsafe) static let implementation: UnsafeRawPointer = {
        var impl = cwl_wl_surface_impl()
        impl.destroy = destroyResourceRequest
        impl.attach = { _, resource, buffer, x, y in
            guard let self_ = resolve(resource, as: Surface.self) else { return }
            if self_.version >= 5 && (x != 0 || y != 0) {
                self_.postError(WL_SURFACE_ERROR_INVALID_OFFSET.rawValue, "attach with a non-zero offset since v5")
                return
            }
            // xdg-shell: attaching a buffer before the first configure is an error.
            if buffer != nil, let xdg = self_.xdgSurface, !xdg.configureSent, !xdg.toleratesEarlyBuffer {
                xdg.postError(
                    XDG_SURFACE_ERROR_UNCONFIGURED_BUFFER.rawValue, "buffer attached before the first configure")
                return
            }
            self_.pendingBufferGone.remove()
            self_.pending.bufferAttached = true
            self_.pending.buffer = buffer
            if let buffer { self_.pendingBufferGone.listen(toDestroyOfResource: buffer) }
        }
        impl.damage = { _, resource, x, y, width, height in
            resolve(resource, as: Surface.self)?.pending.damage.append(
                Rect(x: x, y: y, width: width, height: height).clampedDamage)
        }
        impl.damage_buffer = { _, resource, x, y, width, height in
            resolve(resource, as: Surface.self)?.pending.bufferDamage.append(
                Rect(x: x, y: y, width: width, height: height).clampedDamage)
        }
        impl.frame = { _, resource, id in
            guard let self_ = resolve(resource, as: Surface.self), let callback = Callback(client: self_.client, id: id)
            else { return }
            self_.pending.callbacks.append(callback)
        }
        impl.set_opaque_region = { _, _, _ in }  // an optimisation hint; we always blend
        impl.set_input_region = { _, resource, region in
            guard let self_ = resolve(resource, as: Surface.self) else { return }
            self_.pending.inputRegion = .some(resolve(region, as: RegionResource.self)?.region)
        }
        impl.commit = { _, resource in resolve(resource, as: Surface.self)?.commit() }
        impl.set_buffer_transform = { _, resource, transform in
            guard let self_ = resolve(resource, as: Surface.self) else { return }
            if transform < 0 || transform > 7 {
                self_.postError(
                    WL_SURFACE_ERROR_INVALID_TRANSFORM.rawValue,
                    "buffer transform \(transform) is not a wl_output.transform")
            }
            // Valid transforms other than normal are accepted and drawn untransformed (docs/compositor.md).
        }
        impl.set_buffer_scale = { _, resource, scale in
            guard let self_ = resolve(resource, as: Surface.self) else { return }
            guard scale >= 1 else {
                self_.postError(WL_SURFACE_ERROR_INVALID_SCALE.rawValue, "buffer scale \(scale) is not positive")
                return
            }
            guard scale <= ClientLimits.bufferScale else {
                self_.postError(
                    WL_SURFACE_ERROR_INVALID_SCALE.rawValue,
                    "buffer scale \(scale) is above \(ClientLimits.bufferScale)")
                return
            }
            self_.pending.scale = scale
        }
        impl.offset = { _, _, _, _ in }  // only meaningful for cursors and drag icons, which we do not draw
        return makeImplementation(impl)
    }()
}

extension Rect {
    /// Clients damage "everything" with INT32_MAX sizes (wev does): keep the sums in range.
    public var clampedDamage: Rect {
        let limit: Int32 = 1 << 16
        return Rect(
            x: max(-limit, min(limit, x)), y: max(-limit, min(limit, y)), width: max(0, min(limit, width)),
            height: max(0, min(limit, height)))
    }
}
