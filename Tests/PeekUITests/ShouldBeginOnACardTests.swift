import Testing

@testable import PeekUI

/// The cypress-trackpad run: peek-client declined a should-begin at (635.08, 402.63), on Coral
/// Bay's caption in the 1280×800 grid. Not a hit-test or leftover-interaction bug: the
/// recording's two-finger click is BTN_RIGHT, which reached the client first and opened the
/// quick-action menu; with the menu open a press is declined (the menu already shows). (The
/// decoder no longer passes a clickpad's BTN_RIGHT on beside its click contact, so that run now
/// peeks; these tests keep both answers pinned.)
@Suite struct ShouldBeginOnACardTests {
    static let point = Point(x: 635.08, y: 402.63)

    static func model() -> PeekModel { PeekModel(items: Item.samples(count: 12), size: Size(width: 1280, height: 800)) }

    @Test func theCaptionIsPartOfTheCard() throws {
        var model = Self.model()
        let id = try #require(model.itemID(at: Self.point))
        #expect(model.item(id)?.title == "Coral Bay")
        let tile = model.grid.tile(at: model.index(of: id)!)
        #expect(Self.point.y > model.grid.photo(in: tile).maxY, "the point is below the photo, on the caption")
        let accepted = model.shouldBegin(at: Self.point, now: 0)
        #expect(accepted)
    }

    @Test func aRightClickFirstOpensTheMenuAndThePressIsDeclined() {
        var model = Self.model()
        _ = model.pointerButton(.secondary, pressed: true, at: Self.point, now: 0)
        let declined = !model.shouldBegin(at: Self.point, now: 0.01)
        #expect(declined, "\(model.state)")
        // Closing the menu makes the same press welcome again.
        _ = model.pointerButton(.secondary, pressed: true, at: Self.point, now: 0.02)
        _ = model.advance(to: 1)
        let accepted = model.shouldBegin(at: Self.point, now: 1)
        #expect(accepted, "\(model.state)")
    }
}
