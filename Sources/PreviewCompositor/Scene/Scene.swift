import PreviewEngine

/// What is under a position: the surface and the position in its local coordinates.
public struct Hit {
    public var surface: SceneSurface
    public var local: Point
}

/// The windows on the output, bottom to top: toplevels and their popups (popups are
/// always raised above their parent). Answers hit-tests and lists what to draw.
public final class Scene {
    public private(set) var windows: [SceneSurface] = []
    /// Above every window, whatever is raised: what the compositor itself shows over apps
    /// (Look Up's highlight and panel), bottom to top.
    public private(set) var overlays: [SceneSurface] = []
    /// The output in logical coordinates (changes when a window output is resized).
    public internal(set) var output: Rect

    public init(output: Rect) { self.output = output }

    /// Adds (or raises) a toplevel or popup root. New windows go on top.
    public func show(_ window: SceneSurface) {
        windows.removeAll { $0 === window }
        windows.append(window)
    }

    public func hide(_ window: SceneSurface) {
        windows.removeAll { $0 === window }
    }

    public func raise(_ window: SceneSurface) {
        guard windows.contains(where: { $0 === window }) else { return }
        show(window)
    }

    public var toplevels: [SceneSurface] { windows.filter { $0.role == .toplevel } }

    /// Adds (or raises) an overlay; `hide` removes it too.
    public func showOverlay(_ surface: SceneSurface) {
        overlays.removeAll { $0 === surface }
        overlays.append(surface)
    }

    public func hideOverlay(_ surface: SceneSurface) { overlays.removeAll { $0 === surface } }

    /// The topmost mapped surface that takes input at an output position. Per window, a grid
    /// index of its surface tree (HitIndex) answers without walking the tree.
    public func surface(at point: Point) -> Hit? {
        for window in overlays.reversed() {
            if window.hitIndex == nil { window.hitIndex = HitIndex(root: window) }
            if let hit = window.hitIndex?.hit(point) { return hit }
        }
        for window in windows.reversed() {
            if window.hitIndex == nil { window.hitIndex = HitIndex(root: window) }
            if let hit = window.hitIndex?.hit(point) { return hit }
        }
        return nil
    }

    /// Bytes the hit-test indexes hold (memory per surface, BENCHMARKS.md).
    public var hitIndexFootprint: Int { windows.reduce(0) { $0 + ($1.hitIndex?.footprint ?? 0) } }

    /// Everything to draw, bottom to top.
    public func placements() -> [Framebuffer.Placement] {
        var result: [Framebuffer.Placement] = []
        for window in windows + overlays { collect(window, into: &result) }
        return result
    }

    private func collect(_ surface: SceneSurface, into result: inout [Framebuffer.Placement]) {
        guard surface.isMapped else { return }
        for member in surface.stack {
            if member === surface {
                let origin = surface.outputOrigin
                result.append(
                    Framebuffer.Placement(
                        texture: surface.texture!, x: origin.x, y: origin.y, scale: surface.bufferScale,
                        shownHeight: surface.shownHeight))
            } else {
                collect(member, into: &result)
            }
        }
    }

    /// The union (bounding box) of a window and all its mapped subsurfaces, for damage.
    public func extents(of surface: SceneSurface) -> Rect {
        var box = surface.outputBounds
        for member in surface.stack where member !== surface && member.isMapped {
            let child = extents(of: member)
            let left = min(box.x, child.x)
            let top = min(box.y, child.y)
            let right = max(box.x + box.width, child.x + child.width)
            let bottom = max(box.y + box.height, child.y + child.height)
            box = Rect(x: left, y: top, width: right - left, height: bottom - top)
        }
        return box
    }

    /// Tiling: toplevels share the output in equal columns, oldest on the left. Returns
    /// the rectangle each toplevel is offered (the configure size and its position).
    public static func columns(count: Int, in output: Rect, gap: Int32 = 0) -> [Rect] {
        guard count > 0 else { return [] }
        let n = Int32(count)
        let width = (output.width - gap * (n - 1)) / n
        return (0..<n).map { index in
            Rect(x: output.x + index * (width + gap), y: output.y, width: width, height: output.height)
        }
    }
}
