import PreviewEngine

/// Window management: every toplevel gets a column of the output, in the order the toplevels
/// appeared, centred in it when smaller, unless a host placed it itself (conformance suites
/// do); the keyboard focus is the activated toplevel.
final class Tiling {
    private let scene: Scene
    /// Where moved windows are damaged and shown.
    private let output: CompositorOutput
    /// What is under the cursor changes when a window moves.
    private let seat: Seat
    /// Toplevels in the order they appeared: the tiling order.
    private var toplevels: [Weak<XdgToplevel>] = []
    /// Windows a host placed itself (`Compositor.placeWindow`): out of the columns, their
    /// window's top-left kept where it was put.
    private var placed: [(toplevel: Weak<XdgToplevel>, position: (x: Int32, y: Int32))] = []

    private func placement(of toplevel: XdgToplevel) -> (x: Int32, y: Int32)? {
        placed.first { $0.toplevel.value === toplevel }?.position
    }

    init(scene: Scene, output: CompositorOutput, seat: Seat) {
        (self.scene, self.output, self.seat) = (scene, output, seat)
    }

    /// A new toplevel: everyone's column changes; it gets its first configure.
    func appeared(_ toplevel: XdgToplevel) {
        toplevels.removeAll { $0.value == nil || $0.value === toplevel }
        toplevels.append(Weak(toplevel))
        relayout(newcomer: toplevel)
    }

    /// Unmapped: out of the columns (a placed window keeps its place for when it comes back).
    func gone(_ toplevel: XdgToplevel) {
        toplevels.removeAll { $0.value == nil || $0.value === toplevel }
        relayout(newcomer: nil)
    }

    /// Asks the toplevel of `surface` to close (a window manager's close button).
    func requestClose(_ surface: SurfaceID) {
        toplevels.compactMap(\.value).first { $0.node?.id == surface }?.requestClose()
    }

    /// The output changed size: every toplevel gets its new column.
    func outputChanged() { relayout(newcomer: nil) }

    func focusChanged(to surface: Surface?) {
        // A grabbing popup with the focus keeps its toplevel active (a menu of that window).
        var focused = surface?.xdgSurface
        for _ in 0..<64 {
            guard let parent = focused?.popup?.parent else { break }
            focused = parent
        }
        let focusedNode = focused?.node ?? surface?.node
        for weak in toplevels {
            guard let toplevel = weak.value, toplevel.xdgSurface?.shown == true else { continue }
            let active = toplevel.node === focusedNode
            if toplevel.activated != active { toplevel.configure(size: toplevel.offered, activated: active) }
        }
    }

    /// Takes a toplevel out of the columns: its window's top-left goes to `position`.
    func pin(_ toplevel: XdgToplevel, at position: (x: Int32, y: Int32)) {
        placed.removeAll { $0.toplevel.value == nil || $0.toplevel.value === toplevel }
        placed.append((Weak(toplevel), position))
        relayout(newcomer: nil)
        place(toplevel)
    }

    private func columns() -> [(XdgToplevel, Rect)] {
        let live = toplevels.compactMap(\.value).filter { placement(of: $0) == nil }
        return Array(zip(live, Scene.columns(count: live.count, in: scene.output)))
    }

    /// Offers every toplevel its column; `newcomer` gets its first configure.
    private func relayout(newcomer: XdgToplevel?) {
        for (toplevel, column) in columns() {
            let size = (column.width, column.height)
            if toplevel === newcomer || toplevel.offered != size {
                toplevel.configure(size: size, activated: toplevel === newcomer ? false : toplevel.activated)
            }
            if toplevel.xdgSurface?.shown == true { place(toplevel) }
        }
    }

    /// Puts a toplevel in its column, centred when it is smaller than the column.
    func place(_ toplevel: XdgToplevel) {
        if let position = placement(of: toplevel), let node = toplevel.node, let xdg = toplevel.xdgSurface {
            let geometry = xdg.windowGeometry
            move(node, to: (position.x &- geometry.x, position.y &- geometry.y))
            return
        }
        guard let node = toplevel.node, let xdg = toplevel.xdgSurface,
            let column = columns().first(where: { $0.0 === toplevel })?.1
        else { return }
        let geometry = xdg.windowGeometry
        let x = column.x + max(0, (column.width - geometry.width) / 2) - geometry.x
        let y = column.y + max(0, (column.height - geometry.height) / 2) - geometry.y
        move(node, to: (x, y))
    }

    /// Moves a window's node, damaging where it was and where it goes.
    private func move(_ node: SceneSurface, to position: (x: Int32, y: Int32)) {
        guard node.position != position else { return }
        let before = scene.extents(of: node)
        node.position = position
        output.damage(before)
        output.damage(scene.extents(of: node))
        output.scheduleFrame()
        seat.repick()
    }
}
