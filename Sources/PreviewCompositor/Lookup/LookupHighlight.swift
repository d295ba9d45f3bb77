/// The word under a Look Up press, highlighted from its character extents: a translucent
/// marker over the app's window that deepens and grows with the preview's progress. It takes
/// no input (the app under it gets every event).
final class LookupHighlight {
    private let scene: Scene
    /// Where the highlight's node gets its id.
    private let surfaces: SurfaceRegistry
    private let output: CompositorOutput
    private var node: SceneSurface?
    private var shownProgress = -1.0

    init(scene: Scene, surfaces: SurfaceRegistry, output: CompositorOutput) {
        (self.scene, self.surfaces, self.output) = (scene, surfaces, output)
    }

    /// `extents`: surface-local to `root`; `progress` 0…1.
    func show(_ extents: Rect, in root: SceneSurface, progress: Double) {
        let progress = max(0, min(1, progress))
        // Redrawn in steps of 1/16: the per-event path makes no texture for a tiny change.
        guard node == nil || abs(progress - shownProgress) >= 1.0 / 16 else { return }
        let grow = Int32((2 * progress).rounded())
        let width = extents.width + 2 * (2 + grow)
        let height = extents.height + 2 * (1 + grow)
        guard width > 0, height > 0, width <= 4096, height <= 1024,
            let texture = SurfaceTexture(width: width, height: height, format: .argb8888)
        else { return }
        // Premultiplied yellow, from faint to a marker's strength.
        let alpha = 0.18 + 0.27 * progress
        let a = UInt32(alpha * 255)
        texture.fill(argb: a << 24 | UInt32(alpha * 255) << 16 | UInt32(alpha * 0.84 * 255) << 8)
        let origin = root.outputOrigin
        let target = node ?? makeNode(client: root.client)
        if node != nil { output.damage(scene.extents(of: target)) }
        target.texture = texture
        target.position = (origin.x &+ extents.x &- (2 + grow), origin.y &+ extents.y &- (1 + grow))
        if node == nil { scene.showOverlay(target) }
        node = target
        shownProgress = progress
        output.damage(scene.extents(of: target))
        output.scheduleFrame()
    }

    private func makeNode(client: ClientID) -> SceneSurface {
        let node = SceneSurface(id: surfaces.makeID(), client: client)
        node.inputRegion = Region()  // empty: never hit
        return node
    }

    func hide() {
        guard let node else { return }
        output.damage(scene.extents(of: node))
        scene.hideOverlay(node)
        output.scheduleFrame()
        self.node = nil
        shownProgress = -1
    }
}
