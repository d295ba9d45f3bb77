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
    public var texture: SurfaceTexture? {
        didSet {
            if oldValue?.width != texture?.width || oldValue?.height != texture?.height { geometryChanged() }
        }
    }
    /// wl_surface.set_buffer_scale: buffer pixels per logical pixel.
    public var bufferScale: Int32 = 1 { didSet { if oldValue != bufferScale { geometryChanged() } } }
    /// Only this many logical rows from the top are drawn (nil: all): Look Up's panel grows
    /// into view with the commit's progress.
    public var shownHeight: Int32?
    /// nil means the whole surface takes input (wl_surface's default, infinite region).
    public var inputRegion: Region?
    /// Toplevels and popups: where the surface's origin is on the output.
    public var position: (x: Int32, y: Int32) = (0, 0) {
        didSet { if oldValue != position { geometryChanged() } }
    }

    /// Subsurfaces: the parent, and the offset from its origin (applied on parent commit).
    public private(set) weak var parent: SceneSurface?
    public var offset: (x: Int32, y: Int32) = (0, 0) {
        didSet { if oldValue != offset { geometryChanged() } }
    }
    /// Roots only: the hit-test index of this tree, dropped whenever anything in the tree moves,
    /// resizes, maps, unmaps or restacks (`Scene` rebuilds it on the next hit test).
    var hitIndex: HitIndex?
    /// Bottom to top: this surface itself and its subsurfaces, so place_above/below
    /// of the parent is just a position in this list. A view: the surface is not stored in a
    /// list of its own (that reference to itself kept every surface alive for ever).
    public var stack: Stack { Stack(surface: self) }
    /// The subsurfaces, bottom to top, and where the surface itself sits among them.
    private var children: [SceneSurface] = []
    private var ownIndex = 0

    /// `stack` without copying: index `ownIndex` is the surface, the others its children.
    public struct Stack: RandomAccessCollection {
        let surface: SceneSurface
        public var startIndex: Int { 0 }
        public var endIndex: Int { surface.children.count + 1 }
        public subscript(position: Int) -> SceneSurface {
            let own = surface.ownIndex
            return position < own
                ? surface.children[position] : position == own ? surface : surface.children[position - 1]
        }
    }

    public init(id: SurfaceID, client: ClientID) {
        self.id = id
        self.client = client
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
        children.append(child)  // new subsurfaces go on top of the parent's stack
        child.hitIndex = nil
        geometryChanged()
    }

    public func removeSubsurface(_ child: SceneSurface) {
        if let index = children.firstIndex(where: { $0 === child }) {
            children.remove(at: index)
            if index < ownIndex { ownIndex -= 1 }
        }
        child.parent = nil
        geometryChanged()
    }

    /// wl_subsurface.place_above / place_below: `sibling` is the parent or another child.
    /// Returns false when `sibling` is neither (the caller raises the protocol error).
    @discardableResult
    public func restack(_ child: SceneSurface, relativeTo sibling: SceneSurface, above: Bool) -> Bool {
        guard child !== sibling, stack.contains(where: { $0 === child }), stack.contains(where: { $0 === sibling })
        else { return false }
        var order = Array(stack)
        order.removeAll { $0 === child }
        let index = order.firstIndex { $0 === sibling }!
        order.insert(child, at: above ? index + 1 : index)
        ownIndex = order.firstIndex { $0 === self }!
        children = order.filter { $0 !== self }
        geometryChanged()
        return true
    }

    /// Something in this surface's tree changed where it takes input: drop the tree's index.
    private func geometryChanged() { root.hitIndex = nil }

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
        var level = children
        while !level.isEmpty {
            height += 1
            level = level.flatMap(\.children)
        }
        return height
    }

    /// Its wl_surface is gone: leaves its parent and children, and drops its pixels and input
    /// region at once (whoever still holds the node, such as its xdg objects, holds no pixels).
    public func discard() {
        parent?.removeSubsurface(self)
        geometryChanged()
        for child in children { child.parent = nil }
        children = []
        ownIndex = 0
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
