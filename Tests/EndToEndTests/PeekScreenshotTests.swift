import DemoReport
import Foundation
import PeekUI
import PreviewEngine
import PreviewTrace
import Testing
import _FixtureTestSupport

/// preview-compositor + peek-client + the Dell Canvas pen recording (a full peek and pop), as a
/// person would look at it: the compositor's screenshots at the moments that matter, compared
/// with reference images and checked for what makes them read as peek and pop.
@Suite(.serialized) struct PeekScreenshotTests {
    /// One run for every test here (about two seconds). The peek and pop is the recording's
    /// second interaction: libinput's pressure thresholds make a 47 ms stroke of the pressure dip
    /// before it.
    static let dellCanvas = Result {
        try PeekRun.run(recording: Fixtures.path("dell-canvas-isdv4-pen.yml"), interaction: 2, name: "dell-canvas")
    }

    static let size = PeekRun.outputSize
    static let grid = GridLayout(size: size)
    static let peek = PeekLayout(size: size)
    static let detail = DetailLayout(size: size)

    /// The photo tile the pen pressed (from the photographed interaction's first location:
    /// surface-local, and the window fills the output).
    static func pressedTile(_ run: PeekRun) throws -> Rect {
        let records = try TraceReader.read(path: run.trace)
        let first = try #require(records.first { $0.interaction == InteractionID(UInt32(run.interaction)) })
        let at = PeekUI.Point(x: first.location.x, y: first.location.y)
        let index = try #require(grid.index(at: at, count: 12), "the pen starts over a photo: \(at)")
        return grid.tile(at: index)
    }

    @Test(
        "The run lifts a short stroke, completes the peek and pop and writes its every moment, each on the client's commit"
    )
    func theRunWritesEveryMoment() throws {
        let run = try Self.dellCanvas.get()
        #expect(run.status == 0, "\(run.log.suffix(2000))")
        let stories = InteractionStory.stories(of: try TraceReader.read(path: run.trace))
        #expect(stories.map(\.outcome) == [.cancelled(.lifted), .completed])
        for moment in ["commit", "commit-half", "completed", "settled"] {
            #expect(run.shots[moment] != nil, "no \(moment) screenshot: \(run.shots.keys.sorted())")
        }
        #expect(run.shots["preview"] != nil || run.shots["commit"] != nil)
        #expect(run.log.contains("result=opened") || run.log.contains("completed"), "\(run.log.suffix(2000))")
        let fallbacks = run.log.split(separator: "\n").filter { $0.contains("screenshot") && $0.contains("fallback") }
        #expect(fallbacks.isEmpty, "\(fallbacks)")
    }

    /// peek-client's grid as the user saw it before pressing (default 12 photos), in-process.
    static let idle = Shot(rendering: PeekModel(items: Item.samples(count: 12), size: size))

    /// Where the pressed photo can be in a picture between mid-preview and mid-commit: the
    /// lifted tile, or the card growing out of it, with the platter below.
    static func peekArea(_ tile: Rect) -> [Rect] {
        [
            tile.insetBy(-20, -20),
            Rect(
                x: min(tile.x, peek.card.x) - 20, y: min(tile.y, peek.card.y) - 20,
                width: max(tile.maxX, peek.card.maxX) - min(tile.x, peek.card.x) + 40,
                height: peek.platter.maxY - min(tile.y, peek.card.y) + 40),
        ]
    }

    @Test("preview-half: the pressed photo is sharp, everything else blurred and veiled")
    func previewHalfKeepsThePressedPhotoSharp() throws {
        let run = try Self.dellCanvas.get()
        let shot = try #require(run.shot("preview-half"), "\(run.shots.keys.sorted())")
        let tile = try Self.pressedTile(run)
        // This pen goes from 0.1 to 1 in 27 ms, faster than a frame: the client's first picture
        // after the half-way frame may already be in the commit phase. Either way the pressed
        // photo is sharp where it is drawn (the lifted tile, or the card it grows into).
        var card = PeekModel(items: Item.samples(count: 12), size: Self.size)
        let at = PeekUI.Point(x: tile.midX, y: tile.midY)
        _ = card.shouldBegin(at: at, now: 0)
        _ = card.previewUpdated(progress: 1, ended: true, at: at, now: 0)
        _ = card.commitUpdated(progress: 1, ended: false, at: at, now: 0)
        let tilePhoto = Self.grid.photo(in: tile).insetBy(20, 20)
        let cardPhoto = Self.peek.photo.insetBy(30, 30)
        let pressed = max(
            shot.sharpness(tilePhoto) / Self.idle.sharpness(tilePhoto),
            shot.sharpness(cardPhoto) / Shot(rendering: card).sharpness(cardPhoto))
        // High-frequency energy of the other photos relative to the sharp grid.
        let area = Self.peekArea(tile)
        let others = (0..<12).map { Self.grid.photo(in: Self.grid.tile(at: $0)).insetBy(16, 16) }
            .filter { photo in !area.contains { $0.intersects(photo) } }
        #expect(others.count >= 4, "\(others)")
        let background = others.map { shot.sharpness($0) / Self.idle.sharpness($0) }.reduce(0, +) / Double(others.count)
        #expect(pressed > 0.8, "pressed photo kept \(pressed) of its detail: \(shot.path)")
        #expect(background < 0.5, "background kept \(background) of its detail: \(shot.path)")
        #expect(pressed > 2 * background, "pressed \(pressed) vs background \(background): \(shot.path)")
    }

    @Test("commit-half: the popover with its quick actions is on screen")
    func commitHalfShowsThePopoverAndItsQuickActions() throws {
        let run = try Self.dellCanvas.get()
        let shot = try #require(run.shot("commit-half"))
        // The card: the pressed photo, grown past half way and sharp, where the full card is.
        let tile = try Self.pressedTile(run)
        var full = PeekModel(items: Item.samples(count: 12), size: Self.size)
        let at = PeekUI.Point(x: tile.midX, y: tile.midY)
        _ = full.shouldBegin(at: at, now: 0)
        _ = full.previewUpdated(progress: 1, ended: true, at: at, now: 0)
        _ = full.commitUpdated(progress: 1, ended: false, at: at, now: 0)
        let card = Self.peek.photo.insetBy(30, 30)
        let kept = shot.sharpness(card) / Shot(rendering: full).sharpness(card)
        #expect(kept > 0.6, "card photo kept \(kept) of its detail: \(shot.path)")
        // The platter: light rows with dark titles, and Delete in red.
        let platter = Self.peek.platter.insetBy(4, 4)
        #expect(shot.brightness(platter) > 200, "platter \(shot.brightness(platter)): \(shot.path)")
        let rows = Self.peek.actionFrames(appearance: 1)
        for (action, frame) in rows {
            let ink =
                shot.count(near: (0, 0, 0), tolerance: 90, in: frame.insetBy(8, 8))
                + shot.count(near: (255, 59, 48), tolerance: 60, in: frame.insetBy(8, 8))
            #expect(ink > 30, "no title drawn for \(action) in \(frame): \(shot.path)")
        }
        let delete = try #require(rows.first { $0.0 == .delete }?.1)
        #expect(shot.count(near: (255, 59, 48), tolerance: 60, in: delete) > 30, "Delete is not red: \(shot.path)")
    }

    @Test("completed and settled: the pop grows into the photo's detail view")
    func completionPopsIntoTheDetailView() throws {
        let run = try Self.dellCanvas.get()
        let settled = try #require(run.shot("settled"))
        // Settled is exactly the pressed photo's detail view, as peek-client draws it.
        let tile = try Self.pressedTile(run)
        let index = try #require(Self.grid.index(at: PeekUI.Point(x: tile.midX, y: tile.midY), count: 12))
        var model = PeekModel(items: Item.samples(count: 12), size: Self.size)
        _ = model.key(.down, now: 0)
        for _ in 0..<index { _ = model.key(.right, now: 0) }
        _ = model.key(.enter, now: 0)
        _ = model.advance(to: 10)
        let expected = Shot(rendering: model)
        let difference = try #require(settled.difference(from: expected))
        #expect(
            difference.mean < 2,
            "settled is not \(Item.samples(count: 12)[index].title)'s detail view: \(difference), \(settled.path)")
        // The back button is there, tinted.
        #expect(
            settled.count(near: (0, 122, 255), tolerance: 70, in: Self.detail.back) > 20, "no ‹ Photos: \(settled.path)"
        )
        // Completion is the start of the pop, not already its end.
        let completed = try #require(run.shot("completed"))
        let popping = try #require(completed.difference(from: settled))
        #expect(popping.mean > 5, "completed already equals settled: the pop did not animate")
    }

    @Test(
        "Each moment matches its reference image (half size, with a tolerance)",
        arguments: [
            "preview-half", "commit-half", "completed", "settled",
        ])
    func matchesTheReference(_ moment: String) throws {
        let run = try Self.dellCanvas.get()
        let shot = try #require(run.shot(moment), "\(run.shots.keys.sorted())").halfSize()
        let name = "e2e-dell-canvas-\(moment)"
        if References.updating { #expect(shot.writePNG(to: References.path(name))) }
        let reference = try #require(
            Shot(path: References.path(name)), "missing \(References.path(name)); run with PEEK_UPDATE_REFERENCES=1")
        // preview-half of this 27 ms press shows anything from mid-preview to early commit (see
        // above): only its background is compared, with room for the blur level to differ.
        let holes = moment == "preview-half" ? Self.peekArea(try Self.pressedTile(run)).map(\.halved) : []
        let difference = try #require(shot.difference(from: reference, excluding: holes), "size differs from \(name)")
        // Elsewhere timing moves which progress value a moment shows by a frame or two: a few
        // levels of blur or a few pixels of growth, never a different picture.
        // `completed` is the first frame of the pop: a client that draws it a frame later shows the
        // card a little further on its way to the detail view.
        let limit =
            switch moment {
            case "preview-half": (mean: 10.0, share: 0.1)
            case "completed": (mean: 12.0, share: 0.15)
            default: (mean: 6.0, share: 0.08)
            }
        #expect(
            difference.mean < limit.mean, "\(moment): \(difference) against \(name), see \(run.shots[moment] ?? "")")
        #expect(
            difference.share < limit.share, "\(moment): \(difference) against \(name), see \(run.shots[moment] ?? "")")
    }
}

/// The way to every quick action without pressure, through the real compositor and wl_keyboard.
@Suite struct PeekKeyboardTests {
    @Test("Arrows, the Menu key and Enter perform a quick action (HIG: peek is never the only way)")
    func theKeyboardReachesAQuickAction() throws {
        let run = try runIsolated([
            tools.compositor, "--backend", "headless", "--replay",
            Fixtures.path("handwritten-usb-keyboard-quick-actions.yml"), "--exit-when-done",
            "--run", shellQuote(tools.client) + " --log",
        ])
        #expect(run.status == 0, "\(run.output)")
        // Right, Right, Down: the second photo of the second row (7 columns at 1280 px).
        let item = Item.samples(count: 12)[1 + GridLayout(size: PeekRun.outputSize).columns]
        #expect(run.output.contains("result=performed action=love item=\(item.id.rawValue)"), "\(run.output)")
    }
}

extension Rect {
    func intersects(_ other: Rect) -> Bool { x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY }
    /// In the coordinates of a half-size picture.
    var halved: Rect { Rect(x: x / 2, y: y / 2, width: width / 2, height: height / 2) }
}
