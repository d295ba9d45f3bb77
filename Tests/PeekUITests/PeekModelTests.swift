import Testing

@testable import PeekUI

// The app model's transitions, driven the way the protocol's phase events drive them.

@Suite struct PeekModelTests {
    static let size = Size(width: 800, height: 600)

    static func model(items: Int = 12) -> PeekModel { PeekModel(items: Item.samples(count: items), size: size) }

    static func centre(of index: Int, in model: PeekModel) -> Point {
        let tile = model.grid.tile(at: index)
        return Point(x: tile.midX, y: tile.midY)
    }

    static func centre(of action: QuickAction, in model: PeekModel) -> Point {
        let frame = model.peek.actionFrames(appearance: 1).first { $0.0 == action }!.1
        return Point(x: frame.midX, y: frame.midY)
    }

    /// should-begin, then the preview phase up to its end, as the compositor sends it.
    static func pressIntoCommit(_ model: inout PeekModel, item index: Int) {
        let at = centre(of: index, in: model)
        do { let result = model.shouldBegin(at: at, now: 0); #expect(result) }
        for p in [0.2, 0.5, 0.9] {
            let effect = model.previewUpdated(progress: p, ended: false, at: at, now: p); #expect(effect == .redraw)
        }
        do { let result = model.previewUpdated(progress: 1, ended: true, at: at, now: 1); #expect(result == .redraw) }
    }

    @Test func shouldBeginAcceptsOverAnItemAndDeclinesOverEmptySpace() {
        var model = Self.model(items: 5)
        do { let result = model.shouldBegin(at: Point(x: 400, y: 20), now: 0); #expect(!result, "the title bar") }
        do { let result = model.shouldBegin(at: Point(x: 8, y: 200), now: 0); #expect(!result, "the left padding") }
        let gapX = model.grid.tile(at: 0).maxX + 5
        do { let result = model.shouldBegin(at: Point(x: gapX, y: 150), now: 0); #expect(!result, "between two tiles") }
        do {
            let result = model.shouldBegin(at: Self.centre(of: 6, in: Self.model(items: 12)), now: 0);
            #expect(!result, "where no 7th item is")
        }
        #expect(model.state == .idle)

        do { let result = model.shouldBegin(at: Self.centre(of: 4, in: model), now: 0); #expect(result) }
        #expect(model.state == .armed(model.items[4].id))
        do {
            let result = model.shouldBegin(at: Self.centre(of: 1, in: model), now: 0);
            #expect(!result, "one interaction at a time")
        }
    }

    @Test func previewProgressScrubsBothWays() {
        var model = Self.model()
        let at = Self.centre(of: 2, in: model)
        do { let result = model.shouldBegin(at: at, now: 0); #expect(result) }
        var blurs: [Double] = []
        for p in [0.1, 0.4, 0.8, 0.3, 0.0, 0.6] {
            _ = model.previewUpdated(progress: p, ended: false, at: at, now: 0)
            blurs.append(model.visual(at: 0)!.blur)
        }
        #expect(blurs == [0.1, 0.4, 0.8, 0.3, 0.0, 0.6])
        #expect(model.visual(at: 0)!.lift == 0.6)
        #expect(model.visual(at: 0)!.growth == nil, "no popover before the commit phase")
    }

    @Test func oddProgressValuesAreClampedNotTrusted() {
        var model = Self.model()
        let at = Self.centre(of: 0, in: model)
        do { let result = model.shouldBegin(at: at, now: 0); #expect(result) }
        _ = model.previewUpdated(progress: 7, ended: false, at: at, now: 0)
        #expect(model.state == .preview(model.items[0].id, progress: 1))
        _ = model.previewUpdated(progress: .nan, ended: false, at: at, now: 0)
        #expect(model.state == .preview(model.items[0].id, progress: 0))
        _ = model.previewUpdated(progress: -3, ended: false, at: at, now: 0)
        #expect(model.state == .preview(model.items[0].id, progress: 0))
    }

    @Test func commitHighlightsTheActionUnderTheLocation() {
        var model = Self.model()
        Self.pressIntoCommit(&model, item: 3)
        let id = model.items[3].id
        #expect(model.state == .commit(id, progress: 0, highlighted: nil))
        _ = model.commitUpdated(progress: 0.6, ended: false, at: Self.centre(of: .nope, in: model), now: 1.1)
        #expect(model.state == .commit(id, progress: 0.6, highlighted: .nope))
        _ = model.commitUpdated(progress: 0.7, ended: false, at: Self.centre(of: .delete, in: model), now: 1.2)
        #expect(model.visual(at: 1.2)!.highlighted == .delete)
        let overCard = Point(x: model.peek.card.midX, y: model.peek.card.midY)
        _ = model.commitUpdated(progress: 0.8, ended: false, at: overCard, now: 1.3)
        #expect(model.state == .commit(id, progress: 0.8, highlighted: nil))
        // At the very start of the commit phase the platter has not appeared: nothing to aim at.
        _ = model.commitUpdated(progress: 0.01, ended: false, at: Self.centre(of: .share, in: model), now: 1.4)
        #expect(model.state == .commit(id, progress: 0.01, highlighted: nil))
    }

    @Test func completionOverThePreviewPopsIntoTheDetailView() {
        var model = Self.model()
        Self.pressIntoCommit(&model, item: 5)
        let item = model.items[5]
        let overCard = Point(x: model.peek.card.midX, y: model.peek.card.midY)
        do {
            let result = model.commitUpdated(progress: 1, ended: true, at: overCard, now: 2);
            #expect(result == .opened(item))
        }
        #expect(model.isAnimating)
        #expect(model.visual(at: 2 + PeekModel.popDuration / 2)!.pop > 0)
        do { let result = model.advance(to: 2 + PeekModel.popDuration); #expect(result == .redraw) }
        #expect(model.state == .detail(item.id))
        #expect(!model.isAnimating)
        do { let result = model.key(.escape, now: 3); #expect(result == .redraw) }
        #expect(model.state == .idle)
    }

    @Test func completionOverDeletePerformsItAndRemovesTheItem() {
        var model = Self.model()
        Self.pressIntoCommit(&model, item: 1)
        let item = model.items[1]
        let effect = model.commitUpdated(progress: 1, ended: true, at: Self.centre(of: .delete, in: model), now: 2)
        #expect(effect == .performed(.delete, item))
        #expect(model.items.count == 11)
        #expect(model.index(of: item.id) == nil)
        #expect(model.toast?.text == "Deleted “\(item.title)”")
        #expect(model.visual(at: 2)!.highlighted == .delete, "the popover fades out showing what was chosen")
        _ = model.advance(to: 2 + PeekModel.dismissDuration)
        #expect(model.state == .idle)
        _ = model.advance(to: 2 + PeekModel.toastDuration)
        #expect(model.toast == nil)
        #expect(!model.isAnimating)
    }

    @Test func ratingIsAGroupThatTogglesLikeASelectedAction() {
        var model = Self.model()
        Self.pressIntoCommit(&model, item: 0)
        _ = model.commitUpdated(progress: 1, ended: true, at: Self.centre(of: .love, in: model), now: 2)
        #expect(model.items[0].rating == .love)
        _ = model.advance(to: 3)
        Self.pressIntoCommit(&model, item: 0)
        _ = model.commitUpdated(progress: 1, ended: true, at: Self.centre(of: .nope, in: model), now: 4)
        #expect(model.items[0].rating == .nope)
        _ = model.advance(to: 5)
        Self.pressIntoCommit(&model, item: 0)
        _ = model.commitUpdated(progress: 1, ended: true, at: Self.centre(of: .nope, in: model), now: 6)
        #expect(model.items[0].rating == nil, "choosing the selected rating again clears it")
    }

    @Test func cancelAnimatesBackToTheGrid() {
        var model = Self.model()
        Self.pressIntoCommit(&model, item: 2)
        _ = model.commitUpdated(progress: 0.5, ended: false, at: Self.centre(of: 2, in: model), now: 1.5)
        do { let result = model.cancelled(now: 2); #expect(result == .redraw) }
        let samples = stride(from: 2.0, through: 2 + PeekModel.cancelDuration, by: 0.05).map { model.visual(at: $0)! }
        #expect(samples.first!.blur == 1)
        #expect(zip(samples, samples.dropFirst()).allSatisfy { $0.blur >= $1.blur && $0.growth! >= $1.growth! })
        #expect(samples.last!.blur < 0.01)
        _ = model.advance(to: 2 + PeekModel.cancelDuration)
        #expect(model.state == .idle)
        #expect(model.items.count == 12, "nothing was performed")
    }

    @Test func cancelBeforeAnyProgressReturnsAtOnce() {
        var model = Self.model()
        do { let result = model.shouldBegin(at: Self.centre(of: 0, in: model), now: 0); #expect(result) }
        do { let result = model.cancelled(now: 0.1); #expect(result == .redraw) }
        #expect(model.state == .idle)
        #expect(!model.isAnimating)
    }

    @Test func phaseEventsOutsideAnInteractionAreIgnored() {
        var model = Self.model()
        let at = Self.centre(of: 0, in: model)
        do {
            let result = model.previewUpdated(progress: 0.5, ended: false, at: at, now: 0);
            #expect(result == .ignored("preview progress outside the preview phase"))
        }
        do {
            let result = model.commitUpdated(progress: 0.5, ended: false, at: at, now: 0);
            #expect(result == .ignored("commit progress outside an interaction"))
        }
        do { let result = model.cancelled(now: 0); #expect(result == .ignored("cancel outside an interaction")) }
        #expect(model.state == .idle)
        Self.pressIntoCommit(&model, item: 0)
        do {
            let result = model.previewUpdated(progress: 0.5, ended: false, at: at, now: 0);
            #expect(result == .ignored("preview progress outside the preview phase"))
        }
    }

    @Test func theNextShouldBeginFinishesAnAnimationAtOnce() {
        var model = Self.model()
        Self.pressIntoCommit(&model, item: 0)
        _ = model.cancelled(now: 2)
        do {
            let result = model.shouldBegin(at: Self.centre(of: 1, in: model), now: 2.05);
            #expect(result, "input never waits for motion")
        }
        #expect(model.state == .armed(model.items[1].id))
    }

    // MARK: Without pressure (HIG: never make peek the only way)

    @Test func rightClickOpensTheSameQuickActions() {
        var model = Self.model()
        do {
            let result = model.pointerButton(.secondary, pressed: true, at: Self.centre(of: 6, in: model), now: 0);
            #expect(result == .redraw)
        }
        let id = model.items[6].id
        #expect(model.state == .menu(id, highlighted: nil))
        #expect(model.visual(at: 0)! == PeekVisual(item: id, blur: 1, lift: 1, growth: 1))
        do { let result = model.pointerMoved(to: Self.centre(of: .share, in: model)); #expect(result == .redraw) }
        #expect(model.state == .menu(id, highlighted: .share))
        let item = model.items[6]
        do {
            let result = model.pointerButton(.primary, pressed: true, at: Self.centre(of: .share, in: model), now: 1);
            #expect(result == .performed(.share, item))
        }
        #expect(model.toast?.text == "Shared “\(item.title)”")
    }

    @Test func clickingOutsideTheMenuClosesIt() {
        var model = Self.model()
        _ = model.pointerButton(.secondary, pressed: true, at: Self.centre(of: 6, in: model), now: 0)
        do {
            let result = model.pointerButton(.primary, pressed: true, at: Point(x: 5, y: 590), now: 1);
            #expect(result == .redraw)
        }
        _ = model.advance(to: 2)
        #expect(model.state == .idle)
    }

    @Test func aTapPopsLikePressingDeeper() {
        var model = Self.model()
        let at = Self.centre(of: 3, in: model)
        do { let result = model.pointerButton(.primary, pressed: true, at: at, now: 0); #expect(result == .none) }
        do {
            let result = model.pointerButton(.primary, pressed: false, at: at, now: 0.1);
            #expect(result == .opened(model.items[3]))
        }
        _ = model.advance(to: 1)
        #expect(model.state == .detail(model.items[3].id))
        let back = DetailLayout(size: Self.size).back
        do {
            let result = model.pointerButton(.primary, pressed: true, at: Point(x: back.midX, y: back.midY), now: 2);
            #expect(result == .redraw)
        }
        #expect(model.state == .idle)
    }

    @Test func aPressThatBecameAnInteractionIsNotAlsoATap() {
        var model = Self.model()
        let at = Self.centre(of: 3, in: model)
        _ = model.pointerButton(.primary, pressed: true, at: at, now: 0)
        do { let result = model.shouldBegin(at: at, now: 0.5); #expect(result) }
        _ = model.cancelled(now: 0.6)
        do { let result = model.pointerButton(.primary, pressed: false, at: at, now: 0.7); #expect(result == .none) }
        #expect(model.state == .idle)
    }

    @Test func thePressOfAnInteractionBeforeItsCommitIsTakenQuietly() {
        var model = Self.model()
        let at = Self.centre(of: 2, in: model)
        do { let result = model.shouldBegin(at: at, now: 0); #expect(result) }
        // Core input brings the pen tip's press after should-begin, and its release when it lifts.
        do { let result = model.pointerButton(.primary, pressed: true, at: at, now: 0.01); #expect(result == .none) }
        do {
            let result = model.previewUpdated(progress: 0.3, ended: false, at: at, now: 0.1); #expect(result == .redraw)
        }
        do { let result = model.pointerButton(.primary, pressed: false, at: at, now: 0.2); #expect(result == .none) }
        _ = model.cancelled(now: 0.2)
        #expect(model.items.count == 12)
        do { let result = model.pointerButton(.secondary, pressed: true, at: at, now: 0.3); #expect(result == .redraw) }
    }

    @Test func pointerButtonsDuringAnInteractionAreIgnored() {
        var model = Self.model()
        Self.pressIntoCommit(&model, item: 0)
        let effect = model.pointerButton(.primary, pressed: true, at: Self.centre(of: .delete, in: model), now: 1)
        #expect(effect == .ignored("pointer button during a preview interaction"))
        #expect(model.items.count == 12)
        // The pressing pen's up as the compositor takes it away (wlroots sends one): quietly nothing.
        let up = model.pointerButton(.primary, pressed: false, at: Self.centre(of: .delete, in: model), now: 1)
        #expect(up == .none)
        #expect(model.items.count == 12 && model.isInteracting)
    }

    @Test func theKeyboardReachesEveryAction() {
        var model = Self.model()
        do { let result = model.key(.right, now: 0); #expect(result == .redraw) }
        #expect(model.focused == model.items[0].id && model.showsFocus)
        _ = model.key(.right, now: 0)
        _ = model.key(.down, now: 0)
        let id = model.items[1 + model.grid.columns].id
        #expect(model.focused == id)
        do { let result = model.key(.menu, now: 0); #expect(result == .redraw) }
        #expect(model.state == .menu(id, highlighted: nil))
        let order = QuickAction.rows.flatMap { $0 }
        for action in order {
            _ = model.key(.down, now: 0)
            #expect(model.state == .menu(id, highlighted: action))
        }
        _ = model.key(.down, now: 0)
        #expect(model.state == .menu(id, highlighted: order[0]), "wraps around")
        _ = model.key(.up, now: 0)
        #expect(model.state == .menu(id, highlighted: .delete))
        let item = model.item(id)!
        do { let result = model.key(.enter, now: 1); #expect(result == .performed(.delete, item)) }
    }

    @Test func enterOpensAndEscapeLeaves() {
        var model = Self.model()
        _ = model.key(.down, now: 0)
        do { let result = model.key(.enter, now: 0); #expect(result == .opened(model.items[0])) }
        _ = model.advance(to: 1)
        #expect(model.state == .detail(model.items[0].id))
        _ = model.key(.escape, now: 1)
        #expect(model.state == .idle)
        _ = model.key(.menu, now: 2)
        do { let result = model.key(.escape, now: 2); #expect(result == .redraw) }
        _ = model.advance(to: 3)
        #expect(model.state == .idle)
    }

    @Test func escapeDuringAnInteractionAsksTheCompositorToCancel() {
        var model = Self.model()
        Self.pressIntoCommit(&model, item: 0)
        do { let result = model.key(.escape, now: 1); #expect(result == .requestCancel) }
        do { let result = model.cancelled(now: 1.01); #expect(result == .redraw) }
    }

    @Test func resizeMovesTheLayout() {
        var model = Self.model()
        let before = model.grid.columns
        do { let result = model.resize(to: Size(width: 400, height: 700)); #expect(result == .redraw) }
        #expect(model.grid.columns < before)
        do { let result = model.resize(to: Size(width: 400, height: 700)); #expect(result == .none) }
        do {
            let result = model.resize(to: Size(width: 0, height: 700));
            #expect(result == .none, "a zero size is not a layout")
        }
    }
}

@Suite struct AnimationStartTests {
    @Test func anAnimationStartsAtItsFirstFrameNotAtTheEvent() {
        var model = PeekModelTests.model()
        PeekModelTests.pressIntoCommit(&model, item: 0)
        _ = model.commitUpdated(
            progress: 1, ended: true, at: Point(x: model.peek.card.midX, y: model.peek.card.midY), now: 1)
        // The app draws the pop's first frame 0.2 s later (a busy machine): it starts there.
        model.startAnimation(at: 1.2)
        #expect(model.visual(at: 1.2)?.pop == 0)
        _ = model.advance(to: 1.2 + PeekModel.popDuration / 2)
        #expect(model.state != .detail(model.items[0].id), "half way, not over")
        _ = model.advance(to: 1.2 + PeekModel.popDuration)
        #expect(model.state == .detail(model.items[0].id))
        model.startAnimation(at: 9)
        #expect(model.state == .detail(model.items[0].id), "nothing to start outside an animation")
    }
}
