import PreviewClientCore
import Testing

// The client core's declaration side alone: what an app declares turns into requests by one
// set of rules, and a surface's items make one declaration and route each press.

@Suite struct SurfaceItemsTests {
    static func rect(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> PreviewRect {
        PreviewRect(x: x, y: y, width: width, height: height)
    }

    @Test func theKeyboardNeedsAFocusPointAndVersionTwo() {
        var declaration = SurfaceDeclaration()
        #expect(declaration.effectiveSources(version: 2) == .devices)
        declaration.focusPoint = PreviewPoint(x: 1, y: 2)
        #expect(declaration.effectiveSources(version: 2) == .all)
        #expect(declaration.effectiveSources(version: 1) == .devices)
        declaration.enabled = false
        #expect(declaration.effectiveSources(version: 2) == [])
    }

    @Test func onlyWhatChangedIsSentAndVersionOneGetsNoVersionTwoRequest() {
        var sender = DeclarationSender()
        var declaration = SurfaceDeclaration(region: [Self.rect(0, 0, 10, 10)])
        #expect(sender.declare(declaration).isEmpty, "no object yet")
        #expect(sender.bound(version: 1, declaration: declaration) == [.setRegion([Self.rect(0, 0, 10, 10)])])
        declaration.focusPoint = PreviewPoint(x: 5, y: 5)
        declaration.behaviours = [PreviewBehaviourArea(.generic)]
        #expect(sender.declare(declaration).isEmpty, "version 1: kept, not sent")
        // A global of version 2 later: everything that differs from a new object's state.
        sender.unbound()
        #expect(
            sender.bound(version: 2, declaration: declaration) == [
                .setRegion([Self.rect(0, 0, 10, 10)]), .setFocusPoint(PreviewPoint(x: 5, y: 5)),
                .setBehaviours([PreviewBehaviourArea(.generic)]), .setSources(PreviewSources.all.rawValue),
            ])
        #expect(sender.declare(declaration).isEmpty)
        declaration.focusPoint = nil
        #expect(sender.declare(declaration) == [.setFocusPoint(nil), .setSources(PreviewSources.devices.rawValue)])
        // Behaviours the protocol does not allow are not sent.
        declaration.behaviours = [PreviewBehaviourArea(.accelerator(stages: 9))]
        #expect(sender.declare(declaration).isEmpty)
    }

    @Test func theItemsMakeTheRegionTheSourcesAndTheDeepestBehaviours() {
        var items = SurfaceItems()
        let photo = items.add()!
        let hidden = items.add()!
        items.update(photo) {
            $0.rect = Self.rect(0, 0, 100, 100)
            $0.sources = [.pen]
        }
        items.update(hidden) { $0.sources = [.touchscreen] }
        var declaration = items.declaration
        #expect(declaration.region == [Self.rect(0, 0, 100, 100)] && declaration.sources == [.pen])
        #expect(declaration.behaviours.isEmpty)
        // 40 accelerators on the photo, each deeper than the last: the 32 deepest are kept, in
        // order of depth (the last area wins); the photo, a deep click under them, is no area.
        var zooms: [SurfaceItems.ItemID] = []
        for depth in 1...40 {
            let zoom = items.add()!
            zooms.append(zoom)
            items.update(zoom) {
                $0.rect = Self.rect(Double(depth), 0, 5, 5)
                $0.depth = UInt32(depth)
                $0.behaviour = .accelerator(stages: 3)
            }
        }
        declaration = items.declaration
        #expect(declaration.behaviours.count == 32)
        #expect(declaration.behaviours.first?.rects == [Self.rect(9, 0, 5, 5)])
        #expect(declaration.behaviours.last?.rects == [Self.rect(40, 0, 5, 5)])
        items.update(zooms[0]) { $0.depth = 0 }
        #expect(items.declaration.behaviours.count == 32, "still capped")
    }

    @Test func aPressGoesToTheDeepestItemThatCanTakeItAndTheKeyboardToTheFocusedOne() {
        var items = SurfaceItems()
        let outer = items.add()!
        let inner = items.add()!
        let penOnly = items.add()!
        items.update(outer) { $0.rect = Self.rect(0, 0, 100, 100) }
        items.update(inner) {
            $0.rect = Self.rect(10, 10, 20, 20)
            $0.depth = 2
        }
        items.update(penOnly) {
            $0.rect = Self.rect(50, 50, 20, 20)
            $0.depth = 2
            $0.sources = [.pen]
        }
        #expect(items.itemAt(PreviewPoint(x: 15, y: 15)) == inner)
        #expect(items.itemAt(PreviewPoint(x: 5, y: 5)) == outer)
        #expect(items.itemAt(PreviewPoint(x: 150, y: 5)) == nil)
        // A touch on the pen-only item is declined, not handed to the item under it.
        var core = InteractionCore()
        _ = core.read(.shouldBegin(interaction: 1, source: 3, force: 1))
        _ = core.read(.location(interaction: 1, x: 55, y: 55))
        _ = core.read(.frame(interaction: 1, serial: 1, time: 0))
        let touch = core.nextCall()!.press
        #expect(items.route(touch) == .decline)
        // The keyboard: the focused item, while it takes the keyboard.
        _ = core.read(.shouldBegin(interaction: 2, source: 5, force: 2))
        _ = core.read(.frame(interaction: 2, serial: 2, time: 0))
        let key = core.nextCall()!.press
        #expect(items.route(key) == .decline, "no focus")
        items.setFocus(inner, at: PreviewPoint(x: 20, y: 20))
        #expect(items.declaration.focusPoint == PreviewPoint(x: 20, y: 20))
        #expect(items.route(key) == .ask(inner, phaseChanged: true))
        #expect(items.itemOf(press: 2) == inner)
        items.update(inner) { $0.behaviour = .generic }
        #expect(items.declaration.focusPoint == nil, "a generic item takes no keyboard")
        // Removing an item gives its running presses back to cancel.
        #expect(items.remove(inner) == [2])
        #expect(items.focus == nil)
    }

    /// One item over the whole surface and a core feeding it: the calls of one press, as the
    /// library makes them.
    struct OneItem {
        var items = SurfaceItems()
        var core = InteractionCore()
        let item: SurfaceItems.ItemID
        var serial: UInt32 = 0

        init() {
            item = items.add()!
            items.update(item) { $0.rect = PreviewRect(x: 0, y: 0, width: 100, height: 100) }
        }

        /// Reads `events` of press `id` closed by a frame, and reports each call: the calls and
        /// whether each changed the item's phase.
        mutating func read(_ id: UInt32, _ events: PreviewWireEvent...) -> [(DelegateCall, Bool)] {
            for event in events { _ = core.read(event) }
            serial += 1
            _ = core.read(.frame(interaction: id, serial: serial, time: 0))
            var made: [(DelegateCall, Bool)] = []
            while let call = core.nextCall() {
                if case .shouldBegin = call.call {
                    guard case .ask(_, let changed) = items.route(call.press) else { continue }
                    made.append((call.call, changed))
                } else if let (_, changed) = items.reported(call) {
                    made.append((call.call, changed))
                }
            }
            return made
        }
    }

    @Test func theItemsPhaseChangesAreTheCoresAndOnlyThose() throws {
        var surface = OneItem()
        let asked = surface.read(
            1, .shouldBegin(interaction: 1, source: 3, force: 1), .location(interaction: 1, x: 5, y: 5))
        #expect(asked.map(\.1) == [true], "a first press: none → asking")
        _ = try surface.core.answer(1, accept: true)
        let preview = surface.read(1, .preview(interaction: 1, progress: 0.2))
        let more = surface.read(1, .preview(interaction: 1, progress: 0.4))
        let commit = surface.read(1, .previewEnded(interaction: 1))
        let completed = surface.read(1, .completed(interaction: 1))
        #expect(preview.map(\.1) == [true] && more.map(\.1) == [false], "progress within a phase changes nothing")
        #expect(commit.map(\.1) == [true] && completed.map(\.1) == [true])
        // A declined press: the answer changes the phase.
        _ = surface.read(2, .shouldBegin(interaction: 2, source: 3, force: 1), .location(interaction: 2, x: 5, y: 5))
        let declined = try surface.core.answer(2, accept: false)
        #expect(declined.request == .decline(2))
        let press = try surface.core.press(2)
        #expect(press.phase == .declined && press.phase.code == 7 && press.cancelReason == .declined)
        let changed = surface.items.answered(press)
        #expect(changed)
        #expect(surface.items.item(surface.item)?.latestPress?.phase == .declined)
    }

    @Test func onlyAPenWhoseCommitPhaseBeganHasAReleaseToSwallowOnce() throws {
        var surface = OneItem()
        _ = surface.read(1, .shouldBegin(interaction: 1, source: 1, force: 1), .location(interaction: 1, x: 5, y: 5))
        #expect(surface.items.mayTakePenAway, "asking: its preview_ended may be on its way")
        _ = try surface.core.answer(1, accept: true)
        _ = surface.read(1, .preview(interaction: 1, progress: 0.5))
        var swallowed = surface.items.penReleased()
        #expect(!swallowed, "a release in the preview is a lift: not swallowed")
        _ = surface.read(1, .previewEnded(interaction: 1))
        #expect(!surface.items.mayTakePenAway)
        swallowed = surface.items.penReleased()
        #expect(swallowed, "the tip the commit phase took away")
        swallowed = surface.items.penReleased()
        #expect(!swallowed, "once")
        // A touch's commit phase takes no pen away.
        _ = surface.read(2, .shouldBegin(interaction: 2, source: 3, force: 1), .location(interaction: 2, x: 5, y: 5))
        _ = try surface.core.answer(2, accept: true)
        _ = surface.read(2, .preview(interaction: 2, progress: 0.5), .previewEnded(interaction: 2))
        swallowed = surface.items.penReleased()
        #expect(!swallowed)
    }

    @Test func aPressPushedOutWhileTheAppAnsweredStillHearsItsCancel() throws {
        var surface = OneItem()
        _ = surface.read(1, .shouldBegin(interaction: 1, source: 1, force: 1), .location(interaction: 1, x: 5, y: 5))
        // The reader reads a new pen press before the app's yes went through: it ends press 1.
        _ = surface.core.read(.shouldBegin(interaction: 2, source: 1, force: 1))
        #expect(throws: CoreRefusal.pressEnded) { _ = try surface.core.answer(1, accept: true) }
        let changed = surface.items.answered(try surface.core.press(1))
        #expect(!changed)
        #expect(surface.items.itemOf(press: 1) == surface.item, "its cancel is still to be made to its item")
        let calls = surface.read(2, .location(interaction: 2, x: 5, y: 5))
        #expect(calls.map(\.0) == [.cancel(.desynchronised), .shouldBegin])
    }
}
