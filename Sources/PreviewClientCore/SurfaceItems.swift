/// The items (a toolkit's widgets) that share one surface's interaction object: the declaration
/// made from them (the union of their rectangles, their sources, the behaviours of the deepest
/// 32 areas, the focused item's point), the routing of each press to an item, each item's latest
/// press as the interaction core last reported it (and whether a call changed its phase), and
/// which of the toolkit's pen releases a commit phase took away. Pure: one `mutating func` per
/// input.
public struct SurfaceItems: Sendable {
    public typealias ItemID = UInt32

    /// One item as the toolkit describes it.
    public struct Item: Sendable, Equatable {
        public let id: ItemID
        /// The visible rectangle, surface-local; nil: not shown.
        public var rect: PreviewRect?
        /// Deeper items lie on top (the window 0, its child 1, ...).
        public var depth: UInt32 = 0
        public var sources = PreviewSources.all
        public var enabled = true
        public var behaviour = PreviewBehaviour.deepClick
        /// The last press routed to it, as last reported.
        public internal(set) var latestPress: PreviewPress?

        /// Whether presses can begin on it now.
        public var shows: Bool {
            guard let rect, rect.width > 0, rect.height > 0 else { return false }
            return enabled && !sources.isEmpty
        }

        /// Whether the keyboard's presses can begin on it (with the focus).
        public var takesKeyboard: Bool { shows && sources.contains(.keyboard) && behaviour != .generic }

        /// Whether a press of this source and behaviour is the item's to have.
        public func accepts(source: PreviewSource?, behaviour pressBehaviour: PreviewBehaviour) -> Bool {
            guard enabled, let source, sources.contains(PreviewSources(source)) else { return false }
            return pressBehaviour == behaviour
        }
    }

    /// Where a press goes at should-begin.
    public enum Routing: Sendable, Equatable {
        /// Ask the item; `phaseChanged`: its latest press's phase is another now (its previous
        /// press's was not asking).
        case ask(ItemID, phaseChanged: Bool)
        /// No item takes it: declined without a call.
        case decline
    }

    /// The most items on one surface.
    public static let maximumItems = 4096

    public private(set) var items: [Item] = []
    private var nextID: ItemID = 1
    /// The focused item and where keyboard presses begin.
    public private(set) var focus: (item: ItemID, point: PreviewPoint)?
    /// Each running press's item (at most the core's kept presses).
    private var routes: [(press: UInt32, item: ItemID)] = []
    /// Pen releases the toolkit will see that belong to no click: when a pen press's commit phase
    /// begins the compositor takes the pen away from core input, and tablet-v2 lifts the tip
    /// before the tool leaves, which a toolkit turns into a button release.
    private var penReleasesTakenAway = 0

    /// Room for every route kept, made once: routing a press allocates nothing.
    public init() { routes.reserveCapacity(2 * InteractionCore.maximumRunning) }

    public func item(_ id: ItemID) -> Item? { items.first { $0.id == id } }

    // MARK: what the toolkit says

    /// A new item (not shown, depth 0, every source, enabled, deep click); nil past the limit.
    public mutating func add() -> ItemID? {
        guard items.count < Self.maximumItems else { return nil }
        let id = nextID
        nextID &+= 1
        items.append(Item(id: id))
        return id
    }

    /// Removes an item: the running presses routed to it, which the host cancels.
    public mutating func remove(_ id: ItemID) -> [UInt32] {
        items.removeAll { $0.id == id }
        if focus?.item == id { focus = nil }
        let presses = routes.filter { $0.item == id }.map { $0.press }
        routes.removeAll { $0.item == id }
        return presses
    }

    /// Changes an item's description (rectangle, depth, sources, enabled, behaviour).
    public mutating func update(_ id: ItemID, _ change: (inout Item) -> Void) {
        guard let index = items.firstIndex(where: { $0.id == id }) else { return }
        change(&items[index])
    }

    /// The focused item (nil: none) and the point keyboard presses begin at.
    public mutating func setFocus(_ id: ItemID?, at point: PreviewPoint) {
        guard let id, items.contains(where: { $0.id == id }) else {
            focus = nil
            return
        }
        focus = (id, point)
    }

    // MARK: the declaration

    /// The surface's declaration made from the items.
    public var declaration: SurfaceDeclaration {
        var region: [PreviewRect] = []
        var sources: PreviewSources = []
        for item in items where item.shows {
            guard let rect = item.rect else { continue }
            region.append(rect)
            sources.formUnion(item.sources)
        }
        var point: PreviewPoint?
        if let focus, let item = item(focus.item), item.takesKeyboard { point = focus.point }
        return SurfaceDeclaration(
            region: region, sources: sources, enabled: true, focusPoint: point, behaviours: behaviourAreas)
    }

    /// The areas whose behaviour is not the surface's default, and the items inside them (their
    /// own, even the default), deepest last (on top); past the protocol's 32 the deepest stay.
    private var behaviourAreas: [PreviewBehaviourArea] {
        let others = items.filter { $0.shows && $0.behaviour != .deepClick }
        guard !others.isEmpty else { return [] }
        var areas: [(depth: UInt32, order: Int, area: PreviewBehaviourArea)] = []
        for (order, item) in items.enumerated() where item.shows {
            guard let rect = item.rect else { continue }
            let inside = others.contains { other in
                other.depth < item.depth && other.rect.map { Self.intersects($0, rect) } == true
            }
            guard item.behaviour != .deepClick || inside else { continue }
            areas.append((item.depth, order, PreviewBehaviourArea(item.behaviour, rects: [rect])))
        }
        areas.sort { ($0.depth, $0.order) < ($1.depth, $1.order) }
        return areas.suffix(PreviewBehaviourArea.maximumCount).map { $0.area }
    }

    private static func intersects(_ one: PreviewRect, _ two: PreviewRect) -> Bool {
        one.x < two.x + two.width && two.x < one.x + one.width && one.y < two.y + two.height
            && two.y < one.y + one.height
    }

    // MARK: presses

    /// The item a pointer, pen or touch press at `point` belongs to by the rectangles: the
    /// deepest shown item that holds it, the last added of equal depth.
    public func itemAt(_ point: PreviewPoint) -> ItemID? {
        var best: Item?
        for item in items where item.shows && item.rect?.contains(point) == true {
            if item.depth >= best?.depth ?? 0 { best = item }
        }
        return best?.id
    }

    /// Where a press announced with should-begin goes: the focused item for the keyboard, else
    /// `picked` (the toolkit's hit test) or the item under it. An item that cannot take it
    /// (source, behaviour, disabled) declines without a call.
    public mutating func route(_ press: PreviewPress, picked: ItemID?? = nil) -> Routing {
        let target: ItemID?
        if press.source == .keyboard {
            target = focus.flatMap { item($0.item)?.takesKeyboard == true ? $0.item : nil }
        } else if let picked {
            target = picked
        } else {
            target = itemAt(press.location)
        }
        guard let target, let index = items.firstIndex(where: { $0.id == target }),
            items[index].accepts(source: press.source, behaviour: press.behaviour)
        else { return .decline }
        let changed = record(press, at: index)
        return .ask(target, phaseChanged: changed)
    }

    /// Keeps `press` as its item's route and latest press; whether the item's phase changed.
    private mutating func record(_ press: PreviewPress, at index: Int) -> Bool {
        routes.removeAll { $0.press == press.id }
        if routes.count >= 2 * InteractionCore.maximumRunning { routes.removeFirst() }
        routes.append((press.id, items[index].id))
        let changed = Self.changesPhase(from: items[index].latestPress, to: press)
        items[index].latestPress = press
        return changed
    }

    /// Whether `press`, as an item's latest press now, shows another phase than `before` did:
    /// what a toolkit notifies as its phase property changing.
    public static func changesPhase(from before: PreviewPress?, to press: PreviewPress) -> Bool {
        before?.phase.code != press.phase.code
    }

    /// The item a press was routed to.
    public func itemOf(press id: UInt32) -> ItemID? { routes.first { $0.press == id }?.item }

    /// The presses routed to an item, in the order they began.
    public func presses(of item: ItemID) -> [UInt32] { routes.filter { $0.item == item }.map { $0.press } }

    /// A call about a press is made: its item's latest press is the call's (the core's view),
    /// and a press that ended is forgotten. The item, if the press has one, and whether its
    /// latest press's phase changed with the call.
    public mutating func reported(_ call: CoreCall) -> (item: ItemID, phaseChanged: Bool)? {
        let id = call.press.id
        guard let item = itemOf(press: id) else { return nil }
        var changed = false
        if let index = items.firstIndex(where: { $0.id == item }),
            items[index].latestPress.map({ $0.id <= id }) ?? true
        {
            changed = Self.changesPhase(from: items[index].latestPress, to: call.press)
            items[index].latestPress = call.press
        }
        if case .preview(_, ended: true) = call.call, call.press.source == .pen {
            penReleasesTakenAway = min(penReleasesTakenAway + 1, InteractionCore.maximumRunning)
        }
        if call.press.hasEnded { routes.removeAll { $0.press == id } }
        return (item, changed)
    }

    /// The app's answer went through: a decline ends the press (no more calls). Whether the
    /// item's latest press's phase changed (declined). A press that ended otherwise meanwhile (a
    /// newer press pushed it out while the app answered) keeps its route: its cancel call is
    /// still to be made to its item.
    @discardableResult
    public mutating func answered(_ press: PreviewPress) -> Bool {
        guard press.phase == .declined || !press.hasEnded, let item = itemOf(press: press.id) else { return false }
        var changed = false
        if let index = items.firstIndex(where: { $0.id == item }), items[index].latestPress?.id == press.id {
            changed = Self.changesPhase(from: items[index].latestPress, to: press)
            items[index].latestPress = press
        }
        if press.hasEnded { routes.removeAll { $0.press == press.id } }
        return changed
    }

    // MARK: core input the commit phase took away

    /// The toolkit saw a pen's button release on the surface: whether it is one a commit phase
    /// took away (no click), which it then is no longer.
    public var hasPenReleaseTakenAway: Bool { penReleasesTakenAway > 0 }

    public mutating func penReleased() -> Bool {
        guard penReleasesTakenAway > 0 else { return false }
        penReleasesTakenAway -= 1
        return true
    }

    /// Whether a pen press may still be about to take the pen away (an item's latest press is a
    /// pen's, asking or in its preview): a release now may be one whose call is not read yet.
    public var mayTakePenAway: Bool {
        items.contains { item in
            guard let press = item.latestPress, press.source == .pen else { return false }
            switch press.phase {
            case .asking, .preview: return true
            case .commit, .accelerating, .completed, .cancelled, .declined: return false
            }
        }
    }

    /// Every route is gone (the object went away): the presses each item had, for the host to
    /// tell them (surface gone).
    public mutating func dropAll() -> [(press: UInt32, item: ItemID)] {
        defer { routes.removeAll() }
        return routes
    }
}
