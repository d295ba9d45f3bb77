// Where things are, for a window size. The renderer draws with these rectangles and the model
// hit-tests with the same ones, so what is highlighted is always what is under the pen.

public struct GridLayout: Sendable {
    public static let barHeight = 56.0
    static let padding = 16.0
    static let gap = 14.0
    static let minTileWidth = 150.0
    static let captionHeight = 44.0

    public let size: Size
    public let columns: Int
    public let tileWidth: Double
    public let tileHeight: Double
    /// How far the grid is scrolled up under the bar, in logical pixels (0 = top).
    public let scroll: Double

    public init(size: Size, scroll: Double = 0) {
        self.size = size
        self.scroll = scroll
        let usable = max(1, size.width - 2 * Self.padding)
        columns = max(2, Int((usable + Self.gap) / (Self.minTileWidth + Self.gap)))
        tileWidth = max(1, (usable - Double(columns - 1) * Self.gap) / Double(columns))
        tileHeight = tileWidth * 0.75 + Self.captionHeight
    }

    /// The tile of the item at `index`, where it is on screen at the current scroll offset.
    public func tile(at index: Int) -> Rect {
        let row = index / columns
        let column = index % columns
        return Rect(
            x: Self.padding + Double(column) * (tileWidth + Self.gap),
            y: Self.barHeight + Self.padding + Double(row) * (tileHeight + Self.gap) - scroll,
            width: tileWidth, height: tileHeight)
    }

    /// The height of all rows with their padding (what scrolls under the bar).
    public func contentHeight(count: Int) -> Double {
        let rows = (count + columns - 1) / columns
        return rows == 0 ? 0 : 2 * Self.padding + Double(rows) * tileHeight + Double(rows - 1) * Self.gap
    }

    /// The largest scroll offset for `count` items: the last row ends at the window's bottom.
    public func maxScroll(count: Int) -> Double {
        max(0, contentHeight(count: count) - (size.height - Self.barHeight))
    }

    /// The scroll offset that shows the whole tile of `index` (or its top, if it is taller than
    /// the view), moving as little as possible from the current one.
    public func scrollRevealing(_ index: Int, count: Int) -> Double {
        let tile = tile(at: index)
        let top = Self.barHeight + Self.padding
        var offset = scroll
        if tile.maxY > size.height - Self.padding { offset += tile.maxY - (size.height - Self.padding) }
        if tile.y - (offset - scroll) < top { offset = scroll + tile.y - top }
        return min(maxScroll(count: count), max(0, offset))
    }

    /// The photo part of a tile (above the caption).
    public func photo(in tile: Rect) -> Rect {
        Rect(x: tile.x, y: tile.y, width: tile.width, height: tile.width * 0.75)
    }

    /// True if any of the tile is on screen below the bar.
    public func isVisible(_ tile: Rect) -> Bool { tile.y < size.height && tile.maxY > Self.barHeight }

    /// The index of the visible tile under `point`, nil over empty space, gaps and the bar.
    public func index(at point: Point, count: Int) -> Int? {
        guard point.y >= Self.barHeight, point.x >= 0, point.x < size.width, point.y < size.height else { return nil }
        let column = Int((point.x - Self.padding) / (tileWidth + Self.gap))
        let contentY = point.y + scroll
        let row = Int((contentY - Self.barHeight - Self.padding) / (tileHeight + Self.gap))
        guard point.x >= Self.padding, contentY >= Self.barHeight + Self.padding, column < columns else { return nil }
        let index = row * columns + column
        guard index < count, tile(at: index).contains(point) else { return nil }
        return index
    }
}

/// The peek popover at full size and its quick-action platter below it.
public struct PeekLayout: Sendable {
    static let margin = 24.0
    static let rowHeight = 46.0
    static let platterGap = 12.0
    static let titleHeight = 58.0

    public let card: Rect
    public let platter: Rect

    public init(size: Size) {
        let rows = Double(QuickAction.rows.count)
        let platterHeight = rows * Self.rowHeight
        let fixed = Self.titleHeight + Self.platterGap + platterHeight
        // The card is as wide as fits both horizontally and vertically, between 180 and 360.
        let byHeight = (size.height - 2 * Self.margin - fixed) / 0.66
        let width = max(180, min(360, size.width - 2 * Self.margin, byHeight))
        let cardHeight = width * 0.66 + Self.titleHeight
        let total = cardHeight + Self.platterGap + platterHeight
        let x = (size.width - width) / 2
        let y = max(Self.margin / 2, (size.height - total) / 2)
        card = Rect(x: x, y: y, width: width, height: cardHeight)
        platter = Rect(x: x, y: card.maxY + Self.platterGap, width: width, height: platterHeight)
    }

    /// The photo inside the card.
    public var photo: Rect { Rect(x: card.x, y: card.y, width: card.width, height: card.width * 0.66) }

    /// The platter slides up by this much while it fades in.
    static let platterSlide = 18.0

    /// The rectangle of each action when the platter has appeared by `appearance` (0...1).
    public func actionFrames(appearance: Double) -> [(QuickAction, Rect)] {
        let dy = (1 - appearance) * Self.platterSlide
        var frames: [(QuickAction, Rect)] = []
        for (r, row) in QuickAction.rows.enumerated() {
            let width = platter.width / Double(row.count)
            for (c, action) in row.enumerated() {
                frames.append(
                    (
                        action,
                        Rect(
                            x: platter.x + Double(c) * width, y: platter.y + dy + Double(r) * Self.rowHeight,
                            width: width, height: Self.rowHeight)
                    ))
            }
        }
        return frames
    }

    /// The action under `point`, if the platter is visible enough to be aimed at.
    public func action(at point: Point, appearance: Double) -> QuickAction? {
        guard appearance > 0.01 else { return nil }
        return actionFrames(appearance: appearance).first { $0.1.contains(point) }?.0
    }

    /// How far the platter has appeared for a card growth of `growth` (0...1).
    public static func platterAppearance(growth: Double) -> Double { clamp01((growth - 0.35) / 0.45) }
}
