import PreviewEngine

/// Which client a surface belongs to, numbered by the compositor in connection order.
public struct ClientID: Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }
    public var description: String { "client\(rawValue)" }
}

/// The compositor's model of one wl_surface's *committed* state, free of Wayland,
/// so placement, stacking and hit-testing are tested without a display.
public final class SceneSurface {
    public enum Role: Hashable, Sendable {
        case none, toplevel, popup, subsurface
    }

    public let id: SurfaceID
    public let client: ClientID
    public var role: Role = .none
    public var texture: SurfaceTexture?
    /// wl_surface.set_buffer_scale: buffer pixels per logical pixel.
    public var bufferScale: Int32 = 1
    /// nil means the whole surface takes input (wl_surface's default, infinite region).
    public var inputRegion: Region?
    /// Toplevels and popups: where the surface's origin is on the output.
    public var position: (x: Int32, y: Int32) = (0, 0)

    /// Subsurfaces: the parent, and the offset from its origin (applied on parent commit).
    public private(set) weak var parent: SceneSurface?
    public var offset: (x: Int32, y: Int32) = (0, 0)
    /// Bottom to top: this surface itself and its subsurfaces, so place_above/below
    /// of the parent is just a position in this list.
    public private(set) var stack: [SceneSurface] = []

    public init(id: SurfaceID, client: ClientID) {
        self.id = id
        self.client = client
        stack = [self]
    }

    /// Logical size: the buffer size divided by the buffer scale; zero without a buffer.
    public var size: (width: Int32, height: Int32) {
        guard let texture else { return (0, 0) }
        return (texture.width / max(1, bufferScale), texture.height / max(1, bufferScale))
    }

    public var isMapped: Bool { texture != nil }

    public func addSubsurface(_ child: SceneSurface) {
        precondition(child.parent == nil && child !== self, "a surface has one parent")
        child.parent = self
        child.role = .subsurface
        stack.append(child)  // new subsurfaces go on top of the parent's stack
    }

    public func removeSubsurface(_ child: SceneSurface) {
        stack.removeAll { $0 === child }
        child.parent = nil
    }

    /// wl_subsurface.place_above / place_below: `sibling` is the parent or another child.
    /// Returns false when `sibling` is neither (the caller raises the protocol error).
    @discardableResult
    public func restack(_ child: SceneSurface, relativeTo sibling: SceneSurface, above: Bool) -> Bool {
        guard child !== sibling, stack.contains(where: { $0 === child }), stack.contains(where: { $0 === sibling })
        else { return false }
        stack.removeAll { $0 === child }
        let index = stack.firstIndex { $0 === sibling }!
        stack.insert(child, at: above ? index + 1 : index)
        return true
    }

    /// How many parents this surface has.
    public var depth: Int {
        var count = 0
        var current = self
        while let parent = current.parent {
            count += 1
            current = parent
        }
        return count
    }

    /// How many levels of subsurfaces hang below this surface (0 without any).
    public var subtreeHeight: Int {
        var height = 0
        var level = stack.filter { $0 !== self }
        while !level.isEmpty {
            height += 1
            level = level.flatMap { child in child.stack.filter { $0 !== child } }
        }
        return height
    }

    /// Its wl_surface is gone: leaves its parent and children, and drops its pixels, its input
    /// region and its own place in `stack` (a reference to itself, which would keep it alive).
    public func discard() {
        parent?.removeSubsurface(self)
        for child in stack where child !== self { child.parent = nil }
        stack = []
        texture = nil
        inputRegion = nil
    }

    /// The root of the subsurface tree this surface is in.
    public var root: SceneSurface {
        var current = self
        while let parent = current.parent { current = parent }
        return current
    }

    /// Output position of this surface's origin (through its subsurface parents).
    public var outputOrigin: (x: Int32, y: Int32) {
        guard let parent else { return position }
        let origin = parent.outputOrigin
        return (origin.x &+ offset.x, origin.y &+ offset.y)
    }

    /// Output rectangle covered by this surface alone.
    public var outputBounds: Rect {
        let origin = outputOrigin
        let size = size
        return Rect(x: origin.x, y: origin.y, width: size.width, height: size.height)
    }

    func acceptsInput(localX: Double, localY: Double) -> Bool {
        let size = size
        guard Rect(x: 0, y: 0, width: size.width, height: size.height).contains(x: localX, y: localY) else {
            return false
        }
        return inputRegion?.contains(x: localX, y: localY) ?? true
    }
}
