import Testing

@testable import PeekUI

// More photos than fit: the grid scrolls (wheel, Page keys, arrows), and every hit-test — a click,
// should-begin, the peeked tile's position — follows the scroll offset.

@Suite struct ScrollTests {
    static let size = Size(width: 800, height: 600)

    static func model(items: Int = 60) -> PeekModel { PeekModel(items: Item.samples(count: items), size: size) }

    static func centre(of index: Int, in model: PeekModel) -> Point {
        let tile = model.grid.tile(at: index)
        return Point(x: tile.midX, y: tile.midY)
    }

    @Test func theWheelScrollsWithinTheContentOnly() {
        var model = Self.model()
        let maxScroll = model.grid.maxScroll(count: model.items.count)
        #expect(maxScroll > 1000, "60 photos are many screens")
        do { let result = model.scroll(by: -50); #expect(result == .none, "already at the top") }
        do { let result = model.scroll(by: 120); #expect(result == .redraw) }
        #expect(model.scrollOffset == 120)
        _ = model.scroll(by: 1_000_000)
        #expect(model.scrollOffset == maxScroll)
        // The last row ends at the window's bottom edge (with its padding).
        let last = model.grid.tile(at: model.items.count - 1)
        #expect(abs(last.maxY + 16 - Self.size.height) < 0.001)
        _ = model.scroll(by: .nan)
        #expect(model.scrollOffset == maxScroll, "odd input is ignored")
    }

    @Test func aFewPhotosDoNotScroll() {
        var model = Self.model(items: 3)
        #expect(model.grid.maxScroll(count: 3) == 0)
        do { let result = model.scroll(by: 200); #expect(result == .none) }
    }

    @Test func shouldBeginAndClicksHitTheTileWhereItIsOnScreen() {
        var model = Self.model()
        _ = model.scroll(by: 700)
        let index = (0..<model.items.count).first {
            model.grid.isVisible(model.grid.tile(at: $0)) && model.grid.tile(at: $0).y > 100
        }!
        let at = Self.centre(of: index, in: model)
        #expect(model.itemID(at: at) == model.items[index].id)
        #expect(
            PeekModel(items: model.items, size: Self.size).itemID(at: at) != model.items[index].id,
            "unscrolled, another item is there")
        let began = model.shouldBegin(at: at, now: 0)
        #expect(began)
        #expect(model.state == .armed(model.items[index].id))
        // While an interaction runs the grid does not move under the pen.
        do { let result = model.scroll(by: 100); #expect(result == .none) }
        _ = model.previewUpdated(progress: 0.5, ended: false, at: at, now: 0)
        #expect(model.visual(at: 0)?.item == model.items[index].id)
    }

    @Test func aTileUnderTheBarIsNotHit() {
        var model = Self.model()
        _ = model.scroll(by: 60)
        // The first row is partly under the bar: a press on the bar is not a press on the photo.
        #expect(model.itemID(at: Point(x: 100, y: 30)) == nil)
        #expect(model.itemID(at: Point(x: 100, y: 70)) == model.items[0].id)
    }

    @Test func arrowsScrollTheFocusIntoViewAndPageKeysScrollAPage() {
        var model = Self.model()
        _ = model.key(.down, now: 0)  // focus appears on the first photo
        for _ in 0..<6 { _ = model.key(.down, now: 0) }
        let focused = model.index(of: model.focused!)!
        let tile = model.grid.tile(at: focused)
        #expect(model.scrollOffset > 0)
        #expect(tile.y >= GridLayout.barHeight && tile.maxY <= Self.size.height, "the focused photo is wholly visible")
        _ = model.key(.home, now: 0)
        #expect(model.scrollOffset == 0)
        do { let result = model.key(.pageDown, now: 0); #expect(result == .redraw) }
        let page = model.scrollOffset
        #expect(page > 300 && page < Self.size.height)
        #expect(
            model.grid.tile(at: model.index(of: model.focused!)!).y >= GridLayout.barHeight, "focus follows the page")
        _ = model.key(.pageUp, now: 0)
        #expect(model.scrollOffset == 0)
        _ = model.key(.end, now: 0)
        #expect(model.scrollOffset == model.grid.maxScroll(count: model.items.count))
    }

    @Test func deletingAndResizingKeepTheScrollInRange() {
        var model = Self.model(items: 14)
        _ = model.key(.end, now: 0)
        let before = model.scrollOffset
        #expect(before > 0)
        _ = model.resize(to: Size(width: 800, height: 1200))
        #expect(model.scrollOffset == 0, "everything fits now")
    }
}

@Suite struct ScrolledRenderTests {
    @Test func aScrolledGridDrawsTheTilesWhereTheyAreHitAndKeepsTheBarOnTop() {
        var model = ScrollTests.model()
        _ = model.scroll(by: 250)
        let image = Image(model)
        image.save("grid-scrolled")
        let unscrolled = Image(ScrollTests.model())
        // The (translucent) bar is drawn over the tiles that scrolled under it: nearly as unscrolled.
        let bar = Rect(x: 0, y: 0, width: 700, height: GridLayout.barHeight - 1)
        #expect(abs(image.mean(bar).r - unscrolled.mean(bar).r) < 6)
        // Tiles moved: the picture below the bar differs.
        let below = Rect(x: 0, y: 100, width: 800, height: 400)
        #expect(image.mean(below) != unscrolled.mean(below))
        // Peeking a scrolled tile lifts it where it is on screen, not where it would be unscrolled.
        let index = 10
        let tile = model.grid.tile(at: index)
        let at = Point(x: tile.midX, y: tile.midY)
        let began = model.shouldBegin(at: at, now: 0)
        #expect(began)
        _ = model.previewUpdated(progress: 1, ended: false, at: at, now: 0)
        let peeked = Image(model)
        peeked.save("grid-scrolled-peek")
        let photo = model.grid.photo(in: tile).insetBy(14, 14)
        #expect(abs(peeked.mean(photo).r - image.mean(photo).r) < 12, "the pressed photo stays sharp where it is")
    }
}
