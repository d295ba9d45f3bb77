// The app model: items, the peek state and the pure transitions between states. Every input is one
// mutating function; time comes in as `now` (seconds on the caller's clock), never read here.

public struct PeekModel: Sendable {
    public static let cancelDuration = 0.25
    public static let popDuration = 0.3
    public static let dismissDuration = 0.25
    public static let toastDuration = 1.8

    public struct Toast: Hashable, Sendable {
        public var text: String
        public var since: Double
    }

    public private(set) var items: [Item]
    public private(set) var state: PeekState = .idle
    public private(set) var size: Size
    public private(set) var toast: Toast?
    /// The keyboard's current item; drawn with a focus ring once the keyboard was used.
    public private(set) var focused: Item.ID?
    public private(set) var showsFocus = false
    /// How far the grid is scrolled (logical pixels from the top), always within the content.
    public private(set) var scrollOffset = 0.0
    /// The item under a primary press, so that a release over it is a tap (= pop, as in the HIG).
    private var pressed: Item.ID?
    /// The photo page's zoom: an index into `zoomLevels`.
    public private(set) var zoom = 0
    /// The zoom when the running zoom press began (restored if it is cancelled); nil when none runs.
    public private(set) var zoomPressFrom: Int?
    /// The photo page's markup strokes in surface coordinates, oldest first.
    public private(set) var strokes: [[InkPoint]] = []
    /// A primary press began on the markup pad: motion draws until the release.
    private var drawing = false
    /// The points in `strokes`.
    private var inkCount = 0

    /// The photo page's zoom levels: a firm press on the photo steps through them, one per
    /// accelerator stage.
    public static let zoomLevels: [Double] = [1, 1.5, 2, 3]
    /// The most points the markup keeps (memory stays bounded however long one draws).
    public static let strokePointLimit = 8192

    public init(items: [Item], size: Size) {
        self.items = items
        self.size = size
    }

    public var grid: GridLayout { GridLayout(size: size, scroll: scrollOffset) }
    public var peek: PeekLayout { PeekLayout(size: size) }
    public var detailLayout: DetailLayout { DetailLayout(size: size) }
    public var zoomFactor: Double { Self.zoomLevels[zoom] }

    /// What force means where on the surface, for the compositor (the protocol's behaviours):
    /// on the photo page the photo is a zoom accelerator and the markup pad reads raw input and
    /// never peeks; everywhere else, and in the grid, a firm press is a deep click.
    public var behaviours: [BehaviourArea] {
        guard case .detail = state else { return [] }
        let layout = detailLayout
        var areas = [BehaviourArea(.accelerator(stages: Self.zoomLevels.count), layout.photo)]
        if let pad = layout.markup { areas.append(BehaviourArea(.generic, pad)) }
        return areas
    }

    /// Where the keyboard's preview key acts (the protocol's focus point): the centre of the
    /// visible part of the focused photo (the first one when none has focus yet), the photo on
    /// its page; nil when the focused photo is scrolled out of view.
    public var focusPoint: Point? {
        if case .detail = state {
            let photo = detailLayout.photo
            return Point(x: photo.midX, y: photo.midY)
        }
        guard let id = focused ?? items.first?.id, let index = index(of: id) else { return nil }
        let tile = grid.tile(at: index)
        let top = max(tile.y, GridLayout.barHeight)
        let bottom = min(tile.maxY, size.height)
        guard grid.isVisible(tile), bottom > top else { return nil }
        return Point(x: tile.midX, y: (top + bottom) / 2)
    }

    public func index(of id: Item.ID) -> Int? { items.firstIndex { $0.id == id } }
    public func item(_ id: Item.ID) -> Item? { index(of: id).map { items[$0] } }

    /// The item under `point` in the grid, if any.
    public func itemID(at point: Point) -> Item.ID? { grid.index(at: point, count: items.count).map { items[$0].id } }

    /// True while something moves without input: the app keeps asking for frame callbacks.
    public var isAnimating: Bool {
        if toast != nil { return true }
        switch state {
        case .cancelling, .popping, .dismissing: return true
        case .idle, .armed, .preview, .commit, .menu, .detail: return false
        }
    }

    /// True while a pressure interaction is in progress.
    public var isInteracting: Bool {
        switch state {
        case .armed, .preview, .commit: true
        case .idle, .menu, .cancelling, .popping, .dismissing, .detail: false
        }
    }

    // MARK: Window

    public mutating func resize(to size: Size) -> Effect {
        guard size != self.size, size.width > 0, size.height > 0 else { return .none }
        self.size = size
        clampScroll()
        return .redraw
    }

    /// Scrolls the grid by `dy` logical pixels (wheel, touchpad, Page keys); only while nothing
    /// else is on screen, so that what is pressed never moves under the pen.
    public mutating func scroll(by dy: Double) -> Effect {
        guard case .idle = state, dy.isFinite else { return .none }
        let target = min(grid.maxScroll(count: items.count), max(0, scrollOffset + dy))
        guard target != scrollOffset else { return .none }
        scrollOffset = target
        return .redraw
    }

    private mutating func clampScroll() {
        scrollOffset = min(grid.maxScroll(count: items.count), max(0, scrollOffset))
    }

    /// Scrolls just enough to show the whole tile of `index` (keyboard focus).
    private mutating func reveal(_ index: Int) {
        scrollOffset = grid.scrollRevealing(index, count: items.count)
    }

    /// Shows the page of the photo at `index` at once (the command line's `--open`).
    public mutating func openDetail(at index: Int) {
        guard items.indices.contains(index) else { return }
        focused = items[index].id
        state = .detail(items[index].id)
    }

    // MARK: The protocol's phases

    /// should-begin: accept over an item, decline over empty space or while busy. `accelerator`:
    /// the compositor runs the press as an accelerator (stages, the photo page's zoom).
    public mutating func shouldBegin(at point: Point, now: Double, accelerator: Bool = false) -> Bool {
        settleAnimations()
        switch state {
        case .idle:
            guard !accelerator, let id = itemID(at: point) else { return false }
            state = .armed(id)
            focused = id
            pressed = nil  // the press became an interaction: its release is not a tap
            return true
        case .detail:
            // The photo zooms (an accelerator: stages, not phases); nothing else on the page peeks.
            guard accelerator, zoomPressFrom == nil, detailLayout.photo.contains(point) else { return false }
            zoomPressFrom = zoom
            return true
        case .armed, .preview, .commit, .menu, .cancelling, .popping, .dismissing:
            return false
        }
    }

    /// The zoom press's stage (1...stages): each level reached zooms in one step; the zoom never
    /// backs off during a press, so lifting keeps what the press reached.
    public mutating func stageChanged(to stage: Int) -> Effect {
        guard case .detail = state, zoomPressFrom != nil else { return .ignored("stage outside a zoom press") }
        let level = min(Self.zoomLevels.count - 1, max(0, stage - 1))
        guard level > zoom else { return .none }
        zoom = level
        return .feedback(.snap)
    }

    /// The zoom press ended: completed (lifted) keeps its zoom, cancelled restores the one before.
    public mutating func zoomEnded(completed: Bool) -> Effect {
        guard let from = zoomPressFrom else { return .ignored("no zoom press") }
        zoomPressFrom = nil
        guard !completed, zoom != from else { return .none }
        zoom = from
        return .redraw
    }

    public mutating func previewUpdated(progress: Double, ended: Bool, at point: Point, now: Double) -> Effect {
        switch state {
        case .armed(let id), .preview(let id, _):
            state = ended ? .commit(id, progress: 0, highlighted: nil) : .preview(id, progress: clamp01(progress))
            return .redraw
        case .idle, .commit, .menu, .cancelling, .popping, .dismissing, .detail:
            return .ignored("preview progress outside the preview phase")
        }
    }

    public mutating func commitUpdated(progress: Double, ended: Bool, at point: Point, now: Double) -> Effect {
        let id: Item.ID
        switch state {
        // A commit straight after preview without its `ended` is tolerated: the phase is unambiguous.
        case .commit(let i, _, _), .preview(let i, _), .armed(let i): id = i
        case .idle, .menu, .cancelling, .popping, .dismissing, .detail:
            return .ignored("commit progress outside an interaction")
        }
        var previous: QuickAction?
        if case .commit(_, _, let h) = state { previous = h }
        let progress = ended ? 1 : clamp01(progress)
        let growth = Ease.outCubic(progress)
        let highlighted = peek.action(at: point, appearance: PeekLayout.platterAppearance(growth: growth))
        state = .commit(id, progress: progress, highlighted: highlighted)
        guard ended else {
            // The pen slid onto another action: a tick, as a selection moving does.
            if let highlighted, highlighted != previous { return .feedback(highlighted.feedback) }
            return .redraw
        }
        return complete(id, with: highlighted, now: now)
    }

    public mutating func cancelled(now: Double) -> Effect {
        switch state {
        case .armed:
            state = .idle
            return .redraw
        case .preview, .commit:
            state = .cancelling(from: visual(at: now)!, since: now)
            return .redraw
        case .detail:
            return zoomEnded(completed: false)
        case .idle, .menu, .cancelling, .popping, .dismissing:
            return .ignored("cancel outside an interaction")
        }
    }

    // MARK: Pointer and keyboard: every action is reachable without pressure

    /// The pointer (or a pen's tip, with its `pressure`, 0...1) moved.
    public mutating func pointerMoved(to point: Point, pressure: Double? = nil) -> Effect {
        if drawing, case .detail = state, let pad = detailLayout.markup {
            guard inkCount < Self.strokePointLimit, !strokes.isEmpty else { return .none }
            let inside = Point(x: min(pad.maxX, max(pad.x, point.x)), y: min(pad.maxY, max(pad.y, point.y)))
            strokes[strokes.count - 1].append(InkPoint(inside, pressure: pressure))
            inkCount += 1
            return .redraw
        }
        guard case .menu(let id, let old) = state else { return .none }
        let new = peek.action(at: point, appearance: 1)
        guard new != old else { return .none }
        state = .menu(id, highlighted: new)
        return .redraw
    }

    /// A button went down or up (a pen's tip too, with its `pressure`, 0...1).
    public mutating func pointerButton(
        _ button: PointerButton, pressed isDown: Bool, at point: Point, now: Double, pressure: Double? = nil
    ) -> Effect {
        settleAnimations()
        showsFocus = false
        switch (state, button, isDown) {
        case (.idle, .primary, true):
            pressed = itemID(at: point)
            return .none
        case (.idle, .primary, false):
            defer { pressed = nil }
            guard let id = pressed, id == itemID(at: point) else { return .none }
            focused = id
            return pop(from: PeekVisual(item: id, blur: 0, lift: 0, growth: 0), now: now)
        case (.idle, .secondary, true):
            guard let id = itemID(at: point) else { return .none }
            focused = id
            state = .menu(id, highlighted: nil)
            return .redraw
        case (.menu(let id, _), .primary, true):
            if let action = peek.action(at: point, appearance: 1) { return perform(action, on: id, now: now) }
            if peek.card.contains(point) { return pop(from: menuVisual(id, nil), now: now) }
            return closeMenu(now: now)
        case (.menu, .secondary, true):
            return closeMenu(now: now)
        case (.detail, .primary, true):
            let layout = detailLayout
            if layout.back.contains(point) { return leaveDetail() }
            if layout.zoomBadge.contains(point), zoomPressFrom == nil {
                // The way to every zoom level without force: each click steps, then back to 1×.
                zoom = (zoom + 1) % Self.zoomLevels.count
                return .redraw
            }
            guard let pad = layout.markup, pad.contains(point), inkCount < Self.strokePointLimit else { return .none }
            strokes.append([InkPoint(point, pressure: pressure)])
            inkCount += 1
            drawing = true
            return .redraw
        case (.detail, _, false):
            drawing = false
            return .none
        case (.idle, .secondary, false), (.menu, _, false), (.detail, .secondary, true):
            return .none
        case (.armed, .primary, _), (.preview, .primary, _), (.commit, .primary, false):
            // The press that began the interaction (or its release when it is let go): core input
            // keeps it until the commit phase takes it away. It belongs to the interaction. (A
            // compositor on wlroots sends a pen's up with the proximity_out that takes it away.)
            return .none
        case (.armed, _, _), (.preview, _, _), (.commit, _, _):
            // The compositor withholds the pressing contact from the commit on; another button, or
            // one that slips through, must not act twice on the item being pressed.
            return .ignored("pointer button during a preview interaction")
        case (.cancelling, _, _), (.popping, _, _), (.dismissing, _, _):
            preconditionFailure("settleAnimations() leaves no animation running")
        }
    }

    public mutating func key(_ key: Key, now: Double) -> Effect {
        settleAnimations()
        switch state {
        case .idle:
            return gridKey(key, now: now)
        case .menu(let id, let highlighted):
            switch key {
            case .up, .left: return moveHighlight(id, highlighted, by: -1)
            case .down, .right: return moveHighlight(id, highlighted, by: 1)
            case .pageUp, .pageDown, .home, .end: return .none
            case .enter:
                guard let action = highlighted else { return pop(from: menuVisual(id, nil), now: now) }
                return perform(action, on: id, now: now)
            case .escape, .menu: return closeMenu(now: now)
            }
        case .detail:
            switch key {
            case .escape: return leaveDetail()
            case .left, .right, .up, .down, .enter, .menu, .pageUp, .pageDown, .home, .end: return .none
            }
        case .armed, .preview, .commit:
            switch key {
            case .escape: return .requestCancel
            case .left, .right, .up, .down, .enter, .menu, .pageUp, .pageDown, .home, .end:
                return .ignored("key during a preview interaction")
            }
        case .cancelling, .popping, .dismissing:
            preconditionFailure("settleAnimations() leaves no animation running")
        }
    }

    // MARK: Time

    /// Ends the animations that are over at `now`.
    public mutating func advance(to now: Double) -> Effect {
        var changed = false
        if let t = toast, Self.isOver(since: t.since, Self.toastDuration, now) {
            toast = nil
            changed = true
        }
        switch state {
        case .cancelling(_, let since) where Self.isOver(since: since, Self.cancelDuration, now),
            .dismissing(_, let since) where Self.isOver(since: since, Self.dismissDuration, now):
            state = .idle
            changed = true
        case .popping(let from, let since) where Self.isOver(since: since, Self.popDuration, now):
            state = item(from.item) != nil ? .detail(from.item) : .idle
            changed = true
        case .cancelling, .dismissing, .popping:
            changed = true  // still moving: every frame differs
        case .idle, .armed, .preview, .commit, .menu, .detail:
            break
        }
        return changed || toast != nil ? .redraw : .none
    }

    /// Starts the running animation (cancel, pop, dismiss) at `now`: apps call it with the time
    /// of the animation's first frame, so a frame drawn late (a busy machine) still shows its
    /// start instead of jumping into the middle.
    public mutating func startAnimation(at now: Double) {
        switch state {
        case .cancelling(let from, _): state = .cancelling(from: from, since: now)
        case .popping(let from, _): state = .popping(from: from, since: now)
        case .dismissing(let from, _): state = .dismissing(from: from, since: now)
        case .idle, .armed, .preview, .commit, .menu, .detail: break
        }
    }

    /// What to draw over the grid at `now`; nil when the grid (or detail view) is shown as is.
    public func visual(at now: Double) -> PeekVisual? {
        switch state {
        case .idle, .detail:
            return nil
        case .armed(let id):
            return PeekVisual(item: id, blur: 0, lift: 0)
        case .preview(let id, let progress):
            return PeekVisual(item: id, blur: progress, lift: progress)
        case .commit(let id, let progress, let highlighted):
            return PeekVisual(item: id, blur: 1, lift: 1, growth: Ease.outCubic(progress), highlighted: highlighted)
        case .menu(let id, let highlighted):
            return menuVisual(id, highlighted)
        case .cancelling(let from, let since):
            return from.receding(1 - Ease.outCubic((now - since) / Self.cancelDuration))
        case .dismissing(var from, let since):
            let t = Ease.outCubic((now - since) / Self.dismissDuration)
            from.opacity = 1 - t
            from.blur *= 1 - t
            return from
        case .popping(var from, let since):
            from.pop = Ease.inOutCubic((now - since) / Self.popDuration)
            return from
        }
    }

    /// The toast's opacity at `now` (fades in and out), 0 when there is none.
    public func toastOpacity(at now: Double) -> Double {
        guard let t = toast else { return 0 }
        let age = now - t.since
        return clamp01(min(age / 0.15, (Self.toastDuration - age) / 0.3))
    }

    // MARK: Helpers

    /// A microsecond of slack, so that `since + duration` counts as over despite rounding.
    private static func isOver(since: Double, _ duration: Double, _ now: Double) -> Bool {
        now - since >= duration - 1e-6
    }

    /// Animations finish instantly when new input arrives, so input never waits for motion.
    private mutating func settleAnimations() {
        switch state {
        case .cancelling, .dismissing: state = .idle
        case .popping(let from, _): state = item(from.item) != nil ? .detail(from.item) : .idle
        case .idle, .armed, .preview, .commit, .menu, .detail: break
        }
    }

    /// Back to the grid; the page's zoom and markup go with it.
    private mutating func leaveDetail() -> Effect {
        state = .idle
        zoom = 0
        zoomPressFrom = nil
        strokes = []
        inkCount = 0
        drawing = false
        return .redraw
    }

    private func menuVisual(_ id: Item.ID, _ highlighted: QuickAction?) -> PeekVisual {
        PeekVisual(item: id, blur: 1, lift: 1, growth: 1, highlighted: highlighted)
    }

    private mutating func complete(_ id: Item.ID, with action: QuickAction?, now: Double) -> Effect {
        if let action { return perform(action, on: id, now: now) }
        return pop(from: visual(at: now)!, now: now)
    }

    private mutating func pop(from visual: PeekVisual, now: Double) -> Effect {
        guard let item = item(visual.item) else {
            state = .idle
            return .ignored("the item is gone")
        }
        state = .popping(from: visual, since: now)
        return .opened(item)
    }

    private mutating func closeMenu(now: Double) -> Effect {
        guard case .menu(let id, let highlighted) = state else { return .none }
        state = .cancelling(from: menuVisual(id, highlighted), since: now)
        return .redraw
    }

    private mutating func perform(_ action: QuickAction, on id: Item.ID, now: Double) -> Effect {
        guard let index = index(of: id) else {
            state = .idle
            return .ignored("the item is gone")
        }
        let before = items[index]
        var from = visual(at: now) ?? menuVisual(id, action)
        from.highlighted = action
        switch action {
        case .share, .copy:
            break
        case .love, .nope:
            let rating: Item.Rating = action == .love ? .love : .nope
            items[index].rating = items[index].rating == rating ? nil : rating
        case .delete:
            items.remove(at: index)
            if focused == id { focused = items.isEmpty ? nil : items[min(index, items.count - 1)].id }
            clampScroll()
        }
        toast = Toast(text: action.confirmation(for: before.title), since: now)
        state = .dismissing(from: from, since: now)
        return .performed(action, before)
    }

    private mutating func moveHighlight(_ id: Item.ID, _ current: QuickAction?, by step: Int) -> Effect {
        let all = QuickAction.rows.flatMap { $0 }
        let next: Int
        if let current, let i = all.firstIndex(of: current) {
            next = (i + step + all.count) % all.count
        } else {
            next = step > 0 ? 0 : all.count - 1
        }
        state = .menu(id, highlighted: all[next])
        return .redraw
    }

    private mutating func gridKey(_ key: Key, now: Double) -> Effect {
        guard !items.isEmpty else { return .none }
        let wasShown = showsFocus
        showsFocus = true
        let current = focused.flatMap { index(of: $0) }
        switch key {
        case .left, .right, .up, .down:
            guard let current else {
                focused = items[0].id
                return .redraw
            }
            let columns = grid.columns
            let delta =
                switch key {
                case .left: -1
                case .right: 1
                case .up: -columns
                case .down: columns
                case .enter, .escape, .menu, .pageUp, .pageDown, .home, .end: 0
                }
            let target = current + delta
            guard items.indices.contains(target) else { return wasShown ? .none : .redraw }
            focused = items[target].id
            reveal(target)
            return .redraw
        case .pageUp, .pageDown, .home, .end:
            // A page is the visible height under the bar, less one row's overlap for context.
            let page = max(grid.tileHeight, size.height - GridLayout.barHeight - grid.tileHeight / 2)
            let before = scrollOffset
            switch key {
            case .pageUp: scrollOffset -= page
            case .pageDown: scrollOffset += page
            case .home: scrollOffset = 0
            case .end: scrollOffset = .infinity
            case .left, .right, .up, .down, .enter, .escape, .menu: preconditionFailure("handled above")
            }
            clampScroll()
            // The focus follows to the first item wholly in view.
            if let first = items.indices.first(where: { grid.tile(at: $0).y >= GridLayout.barHeight }) {
                focused = items[first].id
            }
            return scrollOffset != before || !wasShown ? .redraw : .none
        case .enter:
            let id = items[current ?? 0].id
            focused = id
            return pop(from: PeekVisual(item: id, blur: 0, lift: 0, growth: 0), now: now)
        case .menu:
            let id = items[current ?? 0].id
            focused = id
            state = .menu(id, highlighted: nil)
            return .redraw
        case .escape:
            showsFocus = false
            return wasShown ? .redraw : .none
        }
    }
}

/// The detail view's chrome, shared by the renderer and the model's hit-test of the back button.
public struct DetailLayout: Sendable {
    public let size: Size
    public init(size: Size) { self.size = size }

    public var back: Rect { Rect(x: 8, y: 8, width: 110, height: GridLayout.barHeight - 16) }

    /// The photo, full width under the bar, at most half the height.
    public var photo: Rect {
        let top = GridLayout.barHeight
        let height = min(size.width * 0.6, size.height * 0.5)
        return Rect(x: 0, y: top, width: size.width, height: max(1, height))
    }

    static let padding = 20.0
    static let rowHeight = 38.0
    static let hintHeight = 34.0

    /// The zoom level's badge in the photo's top right corner (a click steps the zoom).
    public var zoomBadge: Rect {
        let photo = photo
        return Rect(x: photo.maxX - 16 - 72, y: photo.y + 12, width: 72, height: 30)
    }

    /// Where the title's line begins.
    public var titleY: Double { photo.maxY + 14 }

    /// Pages at least this wide put the markup pad beside the title and list, narrower ones under them.
    static let wideWidth = 600.0
    static let gap = 16.0
    private var isWide: Bool { size.width >= Self.wideWidth }

    /// The info list (place, date, rating) under the title.
    public var list: Rect {
        let width = isWide ? (size.width - 2 * Self.padding - Self.gap) / 2 : size.width - 2 * Self.padding
        return Rect(x: Self.padding, y: titleY + 46, width: width, height: 3 * Self.rowHeight)
    }

    /// The markup pad, down to the hint: nil when it would be less than 80 points tall.
    public var markup: Rect? {
        let pad: Rect
        if isWide {
            let x = list.maxX + Self.gap
            let height = size.height - Self.hintHeight - titleY
            pad = Rect(x: x, y: titleY, width: size.width - Self.padding - x, height: height)
        } else {
            let top = list.maxY + Self.gap
            pad = Rect(x: Self.padding, y: top, width: list.width, height: size.height - Self.hintHeight - top)
        }
        return pad.height >= 80 ? pad : nil
    }
}

/// A point of a markup stroke, with the pen's pressure there (0...1; nil for a mouse or a finger).
public struct InkPoint: Hashable, Sendable {
    public var point: Point
    public var pressure: Double?

    public init(_ point: Point, pressure: Double? = nil) {
        self.point = point
        self.pressure = pressure.map(clamp01)
    }
}

/// An area of the surface and what a firm press means there (the protocol's pressure
/// behaviours; everything else is a deep click: peek and pop).
public struct BehaviourArea: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// Raw input only: no interaction ever begins here (a drawing area).
        case generic
        /// Stages 1...stages follow the force (a continuous control).
        case accelerator(stages: Int)
    }

    public var kind: Kind
    public var rect: Rect

    public init(_ kind: Kind, _ rect: Rect) {
        self.kind = kind
        self.rect = rect
    }
}
