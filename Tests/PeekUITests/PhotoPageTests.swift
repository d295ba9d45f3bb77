import Testing

@testable import PeekUI

// What version 2 of the protocol adds to the sample: the haptic tick of a quick action, the
// photo page's zoom (an accelerator) and markup pad (generic), the keyboard's focus point.

@Suite struct QuickActionHapticsTests {
    @Test("Sliding onto a quick action in the commit phase asks for a tick, once per action")
    func aTickPerActionReached() {
        var model = RenderTests.preview(1)
        let tile = model.grid.tile(at: RenderTests.pressed)
        let card = Point(x: model.peek.card.midX, y: model.peek.card.midY)
        _ = model.previewUpdated(progress: 1, ended: true, at: Point(x: tile.midX, y: tile.midY), now: 0)
        let frames = Dictionary(uniqueKeysWithValues: model.peek.actionFrames(appearance: 1).map { ($0.0, $0.1) })
        let love = Point(x: frames[.love]!.midX, y: frames[.love]!.midY)
        let nope = Point(x: frames[.nope]!.midX, y: frames[.nope]!.midY)
        let r1 = model.commitUpdated(progress: 0.9, ended: false, at: card, now: 0)
        #expect(r1 == .redraw)
        let r2 = model.commitUpdated(progress: 0.9, ended: false, at: love, now: 0)
        #expect(r2 == .feedback(.tick))
        let r3 = model.commitUpdated(progress: 0.95, ended: false, at: love, now: 0)
        #expect(r3 == .redraw, "no second tick")
        let r4 = model.commitUpdated(progress: 0.95, ended: false, at: nope, now: 0)
        #expect(r4 == .feedback(.tick))
        let r5 = model.commitUpdated(progress: 0.95, ended: false, at: card, now: 0)
        #expect(r5 == .redraw, "leaving is silent")
        // The platter still hidden early in the commit: nothing to select, nothing felt.
        var early = RenderTests.preview(1)
        _ = early.previewUpdated(progress: 1, ended: true, at: love, now: 0)
        let r6 = early.commitUpdated(progress: 0.05, ended: false, at: love, now: 0)
        #expect(r6 == .redraw)
        // Performing is the end of the interaction: no request there.
        guard case .performed(.nope, _) = model.commitUpdated(progress: 1, ended: true, at: nope, now: 0) else {
            Issue.record("Nope was not performed: \(model.state)")
            return
        }
    }

    @Test func everyActionTicks() {
        #expect(QuickAction.allCases.allSatisfy { $0.feedback == .tick })
    }
}

@Suite struct PhotoPageTests {
    static let size = Size(width: 800, height: 600)

    static func page(size: Size = size) -> PeekModel {
        var model = PeekModel(items: Item.samples(count: 12), size: size)
        model.openDetail(at: 2)
        return model
    }

    @Test("The page declares its photo a 4-stage accelerator and its markup pad generic; the grid declares nothing")
    func behaviours() throws {
        #expect(PeekModel(items: Item.samples(count: 12), size: Self.size).behaviours.isEmpty)
        let model = Self.page()
        let layout = model.detailLayout
        let markup = try #require(layout.markup)
        let areas = [BehaviourArea(.accelerator(stages: 4), layout.photo), BehaviourArea(.generic, markup)]
        #expect(model.behaviours == areas)
        // Stacked without overlap, all on screen.
        // Beside the title and list on a wide page, under them on a narrow one; never overlapping.
        #expect(layout.photo.maxY < markup.y && layout.list.maxX < markup.x && markup.maxY <= Self.size.height)
        let narrow = Self.page(size: Size(width: 400, height: 800)).detailLayout
        let under = try #require(narrow.markup)
        #expect(narrow.list.maxY < under.y && under.maxY <= 800)
        // A window too short for a pad has none.
        #expect(Self.page(size: Size(width: 800, height: 340)).detailLayout.markup == nil)
        #expect(Self.page(size: Size(width: 800, height: 340)).behaviours.count == 1)
    }

    @Test("A zoom press steps up with its stages, never back during the press; lifting keeps it, cancelling restores")
    func zoomFollowsTheStages() {
        var model = Self.page()
        let layout = model.detailLayout
        let r7 = model.shouldBegin(at: Point(x: layout.list.midX, y: layout.list.midY), now: 0)
        #expect(!r7, "the list does not peek")
        let deep = model.shouldBegin(at: Point(x: layout.photo.midX, y: layout.photo.midY), now: 0)
        #expect(!deep, "a deep click on the photo (behaviours not applied yet) is declined")
        let r8 = model.stageChanged(to: 2)
        #expect(r8 == .ignored("stage outside a zoom press"))
        let r9 = model.shouldBegin(at: Point(x: layout.photo.midX, y: layout.photo.midY), now: 0, accelerator: true)
        #expect(r9)
        #expect(model.state == .detail(model.items[2].id), "the page stays")
        let r10 = model.stageChanged(to: 1)
        #expect(r10 == .none)
        #expect(model.zoomFactor == 1)
        let r11 = model.stageChanged(to: 3)
        #expect(r11 == .feedback(.snap), "a detent per level reached")
        #expect(model.zoomFactor == 2)
        let r12 = model.stageChanged(to: 2)
        #expect(r12 == .none)
        #expect(model.zoomFactor == 2, "easing off keeps the zoom")
        let r13 = model.zoomEnded(completed: true)
        #expect(r13 == .none)
        #expect(model.zoomFactor == 2)
        // The next press starts from there; a cancel undoes it.
        let r14 = model.shouldBegin(at: Point(x: layout.photo.midX, y: layout.photo.midY), now: 1, accelerator: true)
        #expect(r14)
        let r15 = model.stageChanged(to: 9)
        #expect(r15 == .feedback(.snap), "clamped to the last level")
        #expect(model.zoomFactor == 3)
        let r16 = model.cancelled(now: 1)
        #expect(r16 == .redraw)
        #expect(model.zoomFactor == 2 && model.zoomPressFrom == nil)
        // Without force: the badge steps (and wraps to 1×); leaving the page resets.
        let badge = layout.zoomBadge
        let r17 = model.pointerButton(.primary, pressed: true, at: Point(x: badge.midX, y: badge.midY), now: 2)
        #expect(r17 == .redraw)
        #expect(model.zoomFactor == 3)
        _ = model.pointerButton(.primary, pressed: true, at: Point(x: badge.midX, y: badge.midY), now: 2)
        #expect(model.zoomFactor == 1)
        _ = model.pointerButton(.primary, pressed: true, at: Point(x: badge.midX, y: badge.midY), now: 2)
        _ = model.key(.escape, now: 3)
        #expect(model.state == .idle && model.zoom == 0)
    }

    @Test("The markup pad draws with the primary button, clamped to the pad, bounded, cleared with the page")
    func markupDraws() throws {
        var model = Self.page()
        let pad = try #require(model.detailLayout.markup)
        let start = Point(x: pad.x + 30, y: pad.y + 30)
        let r18 = model.pointerMoved(to: start)
        #expect(r18 == .none, "hovering draws nothing")
        let r19 = model.pointerButton(.primary, pressed: true, at: start, now: 0)
        #expect(r19 == .redraw)
        let r20 = model.pointerMoved(to: Point(x: pad.x + 60, y: pad.y + 40))
        #expect(r20 == .redraw)
        let r21 = model.pointerMoved(to: Point(x: pad.x - 500, y: pad.maxY + 500))
        #expect(r21 == .redraw)
        _ = model.pointerButton(.primary, pressed: false, at: Point(x: 0, y: 0), now: 0)
        let r22 = model.pointerMoved(to: Point(x: pad.x + 90, y: pad.y + 40))
        #expect(r22 == .none, "released: no more ink")
        let drawn = [[start, Point(x: pad.x + 60, y: pad.y + 40), Point(x: pad.x, y: pad.maxY)]]
        #expect(model.strokes.map { $0.map(\.point) } == drawn)
        #expect(model.strokes.joined().allSatisfy { $0.pressure == nil }, "a mouse has no pressure")
        // A press outside the pad draws nothing.
        let list = model.detailLayout.list
        _ = model.pointerButton(.primary, pressed: true, at: Point(x: list.midX, y: list.midY), now: 0)
        let r23 = model.pointerMoved(to: Point(x: pad.midX, y: pad.midY))
        #expect(r23 == .none)
        _ = model.pointerButton(.primary, pressed: false, at: Point(x: 0, y: 0), now: 0)
        // However long one draws, the points are bounded.
        _ = model.pointerButton(.primary, pressed: true, at: start, now: 0)
        for i in 0..<(PeekModel.strokePointLimit + 100) {
            _ = model.pointerMoved(to: Point(x: pad.x + Double(i % 200), y: pad.midY))
        }
        #expect(model.strokes.reduce(0) { $0 + $1.count } <= PeekModel.strokePointLimit)
        _ = model.key(.escape, now: 1)
        #expect(model.strokes.isEmpty)
    }

    @Test("The keyboard's focus point is the focused photo's centre, and a press there is accepted")
    func focusPoint() throws {
        var model = PeekModel(items: Item.samples(count: 40), size: Self.size)
        let first = model.grid.tile(at: 0)
        #expect(model.focusPoint == Point(x: first.midX, y: first.midY), "nothing focused: the first photo")
        _ = model.key(.right, now: 0)
        _ = model.key(.right, now: 0)
        _ = model.key(.down, now: 0)
        let index = try #require(model.focused.flatMap { model.index(of: $0) })
        #expect(index == 1 + model.grid.columns)
        let tile = model.grid.tile(at: index)
        let point = try #require(model.focusPoint)
        #expect(point == Point(x: tile.midX, y: tile.midY))
        // Scrolled away: no point on screen for it.
        _ = model.key(.end, now: 0)
        _ = model.scroll(by: -model.scrollOffset)
        if let focused = model.focused, let i = model.index(of: focused),
            !model.grid.isVisible(model.grid.tile(at: i))
        {
            #expect(model.focusPoint == nil)
        }
        // The keyboard's press begins at the point: it is over the focused photo.
        var fresh = PeekModel(items: Item.samples(count: 12), size: Self.size)
        _ = fresh.key(.down, now: 0)
        let at = try #require(fresh.focusPoint)
        let focused = fresh.focused
        let r24 = fresh.shouldBegin(at: at, now: 0)
        #expect(r24)
        #expect(fresh.state == .armed(try #require(focused)))
        #expect(fresh.focusPoint == at, "it stays on the pressed photo while the press runs")
        // On the page: the photo (the keyboard zooms it).
        let page = Self.page()
        #expect(page.focusPoint == Point(x: page.detailLayout.photo.midX, y: page.detailLayout.photo.midY))
    }
}

@Suite struct PhotoPageRenderTests {
    @Test("Each zoom level magnifies the photo; the rest of the page stays; the badge shows the level")
    func zoomMagnifies() throws {
        var model = PhotoPageTests.page()
        let plain = Image(model)
        plain.save("page-zoom-1")
        let layout = model.detailLayout
        _ = model.shouldBegin(at: Point(x: layout.photo.midX, y: layout.photo.midY), now: 0, accelerator: true)
        _ = model.stageChanged(to: 4)
        let zoomed = Image(model)
        zoomed.save("page-zoom-3")
        let photo = layout.photo.insetBy(0, 50)
        let unzoomedArea = Rect(x: 0, y: layout.list.y, width: layout.list.maxX, height: 120)
        #expect(plain.difference(fromRect: photo, of: zoomed) > 10, "the photo changed")
        #expect(plain.difference(fromRect: unzoomedArea, of: zoomed) < 0.5, "the list did not")
        #expect(plain.difference(fromRect: layout.zoomBadge, of: zoomed) > 5, "the badge says 3×")
        // Magnified about the centre: the centre pixel stays, the edges move towards it.
        let centre = (Int(layout.photo.midX), Int(layout.photo.midY))
        let p = plain.pixel(centre.0, centre.1)
        let q = zoomed.pixel(centre.0, centre.1)
        #expect(abs(p.r - q.r) + abs(p.g - q.g) + abs(p.b - q.b) < 30)
    }

    @Test("A pen's pressure is kept with each point and drawn as the line's width")
    func pressureIsTheWidth() throws {
        var inks: [Int] = []
        for pressure in [0.1, 0.9] {
            var model = PhotoPageTests.page()
            let pad = try #require(model.detailLayout.markup)
            let y = pad.midY
            _ = model.pointerButton(.primary, pressed: true, at: Point(x: pad.x + 40, y: y), now: 0, pressure: pressure)
            for step in 1...30 {
                _ = model.pointerMoved(to: Point(x: pad.x + 40 + Double(step) * 8, y: y), pressure: pressure)
            }
            #expect(model.strokes.joined().allSatisfy { $0.pressure == pressure })
            let image = Image(model)
            image.save("page-markup-pressure-\(Int(pressure * 10))")
            inks.append(RenderTests.count(image, in: pad) { $0.b > 200 && $0.r < 60 && $0.g < 160 })
        }
        // 1.8 against 8.2 points wide.
        #expect(inks[1] > 3 * inks[0], "\(inks)")
        #expect(InkPoint(Point(x: 0, y: 0), pressure: 7).pressure == 1, "clamped")
    }

    @Test("Strokes on the markup pad are drawn in the tint colour")
    func strokesAreDrawn() throws {
        var model = PhotoPageTests.page()
        let pad = try #require(model.detailLayout.markup)
        let blank = Image(model)
        _ = model.pointerButton(.primary, pressed: true, at: Point(x: pad.x + 40, y: pad.midY), now: 0)
        for step in 1...40 { _ = model.pointerMoved(to: Point(x: pad.x + 40 + Double(step) * 8, y: pad.midY + 10)) }
        let drawn = Image(model)
        drawn.save("page-markup")
        Image(model, theme: .dark).save("page-markup-dark")
        let ink = { (image: Image) in RenderTests.count(image, in: pad) { $0.b > 200 && $0.r < 60 && $0.g < 160 } }
        #expect(ink(blank) == 0)
        #expect(ink(drawn) > 300, "\(ink(drawn)) blue pixels")
    }
}

extension Image {
    /// Mean absolute per-channel difference inside `rect` (logical = device pixels at scale 1).
    func difference(fromRect rect: Rect, of other: Image) -> Double {
        var total = 0
        var n = 0
        for y in max(0, Int(rect.y))..<min(height, Int(rect.maxY)) {
            for x in max(0, Int(rect.x))..<min(width, Int(rect.maxX)) {
                let a = pixel(x, y)
                let b = other.pixel(x, y)
                total += abs(a.r - b.r) + abs(a.g - b.g) + abs(a.b - b.b)
                n += 1
            }
        }
        return n == 0 ? 0 : Double(total) / Double(3 * n)
    }
}
