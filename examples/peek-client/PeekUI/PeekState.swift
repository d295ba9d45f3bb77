// Where the app is in a peek-and-pop. The pressure-driven states follow UIPreviewInteraction's
// phases; `menu` is the same popover reached without pressure (right click, Menu key).

public enum PeekState: Hashable, Sendable {
    /// The grid, nothing pressed.
    case idle
    /// should-begin was accepted over this item; no progress has arrived yet.
    case armed(Item.ID)
    /// Preview phase: the rest of the grid blurs with `progress` (it may go back down).
    case preview(Item.ID, progress: Double)
    /// Commit phase: the popover grows with `progress`; `highlighted` is the action under the pen.
    case commit(Item.ID, progress: Double, highlighted: QuickAction?)
    /// The quick actions opened without pressure, popover at full size.
    case menu(Item.ID, highlighted: QuickAction?)
    /// Animating back to the grid from what was on screen when the interaction was cancelled.
    case cancelling(from: PeekVisual, since: Double)
    /// The popover grows into the detail view (completion, or a tap on the item).
    case popping(from: PeekVisual, since: Double)
    /// An action was performed; the popover fades away.
    case dismissing(from: PeekVisual, since: Double)
    /// The item's full view.
    case detail(Item.ID)
}

/// What the renderer draws over the grid: one value per frame, computed from the state and time.
public struct PeekVisual: Hashable, Sendable {
    public var item: Item.ID
    /// How much of the maximum blur and veil the background gets, 0...1.
    public var blur: Double
    /// How far the pressed tile has lifted off the grid, 0...1.
    public var lift: Double
    /// The popover's growth from the tile (0) to full size (1); nil while there is no popover.
    public var growth: Double?
    public var highlighted: QuickAction?
    /// Opacity of the lifted tile or popover and its platter (fading out after an action).
    public var opacity: Double
    /// From the popover (0) to the full detail view (1).
    public var pop: Double

    public init(
        item: Item.ID, blur: Double, lift: Double, growth: Double? = nil, highlighted: QuickAction? = nil,
        opacity: Double = 1, pop: Double = 0
    ) {
        self.item = item
        self.blur = blur
        self.lift = lift
        self.growth = growth
        self.highlighted = highlighted
        self.opacity = opacity
        self.pop = pop
    }

    /// Scrubbed back towards the grid: `k` = 1 is unchanged, 0 is the untouched grid.
    func receding(_ k: Double) -> PeekVisual {
        PeekVisual(
            item: item, blur: blur * k, lift: lift * k, growth: growth.map { $0 * k }, highlighted: highlighted,
            opacity: opacity, pop: pop)
    }
}

/// What an input did, for the app to act on (redraw, log, send a request).
public enum Effect: Hashable, Sendable {
    /// Nothing visible changed.
    case none
    case redraw
    /// Redraw, and ask the compositor for this haptic effect on the running interaction's device
    /// (a quick action highlighted, a zoom level reached).
    case feedback(HapticFeedback)
    /// A quick action ran on the item (the item as it was before, e.g. before deletion).
    case performed(QuickAction, Item)
    /// The item's detail view opens (pop).
    case opened(Item)
    /// The user asked to stop the pressure interaction (Escape): send the protocol's cancel request.
    case requestCancel
    /// The input made no sense in this state and was ignored; the reason is for the log.
    case ignored(String)
}

public enum PointerButton: Sendable {
    case primary
    case secondary
}

/// The keys the sample reacts to, already translated from keysyms by the app.
public enum Key: Sendable {
    case left, right, up, down
    case enter
    case escape
    /// The Menu key or Shift+F10: the keyboard's way to the quick actions.
    case menu
    /// Page Up/Down, Home, End: scroll the grid (the focus follows).
    case pageUp, pageDown, home, end
}

/// The short haptic effects the app asks for during its own interaction (the protocol's
/// `haptic_effect`), chosen as iOS and macOS do (README.md, "Haptics").
public enum HapticFeedback: Hashable, Sendable {
    /// A selection moved: a quick action became highlighted (iOS: a selection-changed tick).
    case tick
    /// A detent: the zoom reached another level (macOS: an accelerator's level change).
    case snap
}
