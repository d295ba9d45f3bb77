import CCairo
import Glibc
import Testing

@testable import PeekUI

// Renders states to images (saved under .build/peek-client-screenshots for people to look at) and
// checks the properties that make it read as peek and pop.

@Suite struct RenderTests {
    static let size = Size(width: 800, height: 600)
    static let pressed = 5

    /// A model in the preview phase at `progress` over item `pressed`.
    static func preview(_ progress: Double, size: Size = size, items: Int = 12, pressed: Int = Self.pressed)
        -> PeekModel
    {
        var model = PeekModel(items: Item.samples(count: items), size: size)
        let tile = model.grid.tile(at: pressed)
        let at = Point(x: tile.midX, y: tile.midY)
        _ = model.shouldBegin(at: at, now: 0)
        _ = model.previewUpdated(progress: progress, ended: false, at: at, now: 0)
        return model
    }

    /// A model half-way through the commit phase with the pen over `action`.
    static func commit(
        _ progress: Double, over action: QuickAction?, size: Size = size, items: Int = 12, pressed: Int = pressed
    ) -> PeekModel {
        var model = preview(1, size: size, items: items, pressed: pressed)
        let tile = model.grid.tile(at: pressed)
        _ = model.previewUpdated(progress: 1, ended: true, at: Point(x: tile.midX, y: tile.midY), now: 0)
        let frame = model.peek.actionFrames(appearance: 1).first { $0.0 == action }?.1
        let at = frame.map { Point(x: $0.midX, y: $0.midY) } ?? Point(x: model.peek.card.midX, y: model.peek.card.midY)
        _ = model.commitUpdated(progress: progress, ended: false, at: at, now: 0)
        return model
    }

    static func detail(size: Size = size, items: Int = 12, pressed: Int = Self.pressed) -> PeekModel {
        var model = commit(0.9, over: nil, size: size, items: items, pressed: pressed)
        _ = model.commitUpdated(
            progress: 1, ended: true, at: Point(x: model.peek.card.midX, y: model.peek.card.midY), now: 0)
        _ = model.advance(to: 1)
        return model
    }

    /// The photo of a grid tile, inset so that lift and rounded corners stay outside.
    static func photo(_ index: Int, in model: PeekModel) -> Rect {
        model.grid.photo(in: model.grid.tile(at: index)).insetBy(14, 14)
    }

    static func count(_ image: Image, in rect: Rect, where matches: ((r: Int, g: Int, b: Int)) -> Bool) -> Int {
        var n = 0
        for y in Int(rect.y)..<Int(rect.maxY) {
            for x in Int(rect.x)..<Int(rect.maxX) where matches(image.pixel(x, y)) { n += 1 }
        }
        return n
    }

    @Test func previewBlursEverythingButThePressedItemMoreAsProgressGrows() {
        let steps = [0.0, 0.25, 0.5, 1.0]
        let images = steps.map { Image(Self.preview($0)) }
        images[2].save("preview-50")
        images[3].save("preview-100")
        let model = Self.preview(0)
        let neighbours = [0, 3, 4, 6, 9].map { Self.photo($0, in: model) }
        let background = images.map { image in neighbours.map { image.sharpness($0) }.reduce(0, +) }
        let pressed = images.map { $0.sharpness(Self.photo(Self.pressed, in: model)) }
        for (a, b) in zip(background, background.dropFirst()) {
            #expect(b < a * 0.85, "each step blurs more: \(background)")
        }
        #expect(background[3] < background[0] * 0.35, "fully blurred at the end of the preview: \(background)")
        for value in pressed { #expect(value > pressed[0] * 0.8, "the pressed item stays sharp: \(pressed)") }
    }

    @Test func theVeilDimsTheDarkThemeAndLightensTheLightOne() {
        let model = Self.preview(0)
        let region = Rect(x: 0, y: 0, width: 800, height: 600)
        func luminance(_ theme: Theme, _ progress: Double) -> Double {
            let m = Image(Self.preview(progress), theme: theme).mean(region)
            return 0.2126 * m.r + 0.7152 * m.g + 0.0722 * m.b
        }
        _ = model
        #expect(luminance(.dark, 1) < luminance(.dark, 0) - 8)
        #expect(luminance(.light, 1) > luminance(.light, 0) + 4)
    }

    @Test func goingBackUndoesThePreview() {
        let renderer = PeekRenderer(theme: .light)
        var model = Self.preview(0.8)
        let tile = model.grid.tile(at: Self.pressed)
        let surface = PeekRenderer.makeSurface(size: Self.size, scale: 1)
        renderer.render(model, at: 0, into: surface, scale: 1)
        _ = model.previewUpdated(progress: 0.2, ended: false, at: Point(x: tile.midX, y: tile.midY), now: 0.1)
        renderer.render(model, at: 0.1, into: surface, scale: 1)
        let scrubbedBack = Image(surface: surface)
        let fresh = Image(Self.preview(0.2))
        let difference = scrubbedBack.difference(from: fresh)!
        #expect(difference.meanError < 0.01, "\(difference)")
    }

    @Test func midCommitShowsThePopoverAndHighlightsTheActionUnderThePen() {
        let model = Self.commit(0.5, over: .nope)
        let image = Image(model)
        image.save("commit-50")
        let peek = model.peek
        let frames = Dictionary(uniqueKeysWithValues: peek.actionFrames(appearance: 1).map { ($0.0.rawValue, $0.1) })
        // The popover's photo is sharp over a blurred background.
        let cardPhoto = peek.photo.insetBy(20, 20)
        #expect(image.sharpness(cardPhoto) > 2 * image.sharpness(Self.photo(0, in: model)))
        // The highlighted half of the rating group is darker than its neighbour (light theme).
        let nope = image.mean(frames["nope"]!.insetBy(4, 4))
        let love = image.mean(frames["love"]!.insetBy(4, 4))
        #expect(nope.r < love.r - 20, "nope highlighted: \(nope) vs \(love)")
        // Delete is drawn in red.
        let red = Self.count(image, in: frames["delete"]!) { $0.r > 200 && $0.g < 110 && $0.b < 110 }
        #expect(red > 40, "red pixels in the destructive action: \(red)")
        let redElsewhere = Self.count(image, in: frames["copy"]!) { $0.r > 200 && $0.g < 110 && $0.b < 110 }
        #expect(redElsewhere == 0)
    }

    @Test func thePopoverGrowsWithCommitProgress() {
        let early = Image(Self.commit(0.1, over: nil))
        let late = Image(Self.commit(0.9, over: nil))
        early.save("commit-10")
        let peek = Self.commit(0.9, over: nil).peek
        // Where the full-size card's corner is, only the grown popover covers the blurred grid.
        let corner = Rect(x: peek.card.x + 6, y: peek.card.y + 6, width: 12, height: 12)
        #expect(early.mean(corner) != late.mean(corner))
        // The platter has not faded in early on.
        let platter = peek.platter.insetBy(10, 10)
        #expect(late.sharpness(platter) > early.sharpness(platter) * 1.5)
    }

    @Test func completionShowsTheDetailView() {
        let model = Self.detail()
        let image = Image(model)
        image.save("detail")
        let back = DetailLayout(size: Self.size).back
        let tint = Self.count(image, in: back) { $0.b > 200 && $0.r < 60 }
        #expect(tint > 20, "the blue back button: \(tint)")
        let photo = DetailLayout(size: Self.size).photo.insetBy(20, 20)
        #expect(image.sharpness(photo) > 0.5, "a sharp photo, not a blurred grid")
    }

    @Test func scaleTwoIsTheSamePictureInFinerPixels() {
        let model = Self.commit(0.5, over: .love)
        let one = Image(model, scale: 1)
        let two = Image(model, scale: 2)
        two.save("commit-50-scale2")
        #expect(two.width == 1600 && two.height == 1200)
        let reduced = Image(surface: PeekRenderer.makeSurface(size: Self.size, scale: 1))
        let cr = cairo_create(reduced.surface)
        cairo_scale(cr, 0.5, 0.5)
        cairo_set_source_surface(cr, two.surface, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        cairo_paint(cr)
        cairo_destroy(cr)
        cairo_surface_flush(reduced.surface)
        let difference = reduced.difference(from: one, pixelTolerance: 48)!
        #expect(difference.meanError < 4, "\(difference)")
        #expect(difference.differingShare < 0.03, "\(difference)")
    }

    @Test func darkThemeIsDark() {
        let model = PeekModel(items: Item.samples(count: 12), size: Self.size)
        let bar = Rect(x: 0, y: 0, width: 800, height: 50)
        #expect(Image(model, theme: .dark).mean(bar).g < 40)
        #expect(Image(model, theme: .light).mean(bar).g > 220)
        Image(Self.commit(0.5, over: .delete), theme: .dark).save("commit-50-dark")
    }

    // MARK: Reference images

    /// Three columns; the pressed tile (row 2, column 2) is fully visible, so should-begin accepts it.
    static let referenceSize = Size(width: 640, height: 480)
    static let referencePressed = 4

    static let references: [(String, PeekModel, Theme)] = [
        ("grid", PeekModel(items: Item.samples(count: 9), size: referenceSize), .light),
        ("preview-60", preview(0.6, size: referenceSize, items: 9, pressed: referencePressed), .light),
        ("commit-50-love", commit(0.5, over: .love, size: referenceSize, items: 9, pressed: referencePressed), .light),
        (
            "commit-70-delete-dark",
            commit(0.7, over: .delete, size: referenceSize, items: 9, pressed: referencePressed),
            .dark
        ),
        ("detail", detail(size: referenceSize, items: 9, pressed: referencePressed), .light),
    ]

    /// The references once were five pictures of the idle grid (the pressed tile was off screen, so
    /// should-begin declined): each model must be in the state its name says.
    @Test func eachReferenceIsInTheStateItIsNamedAfter() {
        let item = Item.ID(Self.referencePressed + 1)
        let states = Dictionary(uniqueKeysWithValues: Self.references.map { ($0.0, $0.1.state) })
        #expect(states["grid"] == .idle)
        #expect(states["preview-60"] == .preview(item, progress: 0.6))
        #expect(states["commit-50-love"] == .commit(item, progress: 0.5, highlighted: .love))
        #expect(states["commit-70-delete-dark"] == .commit(item, progress: 0.7, highlighted: .delete))
        #expect(states["detail"] == .detail(item))
        let pictures = Self.references.map { Image($0.1, theme: $0.2) }
        for (i, a) in pictures.enumerated() {
            for b in pictures.dropFirst(i + 1) {
                #expect(a.difference(from: b)!.differingShare > 0.05, "references must differ from each other")
            }
        }
    }

    /// Set PEEK_UPDATE_REFERENCES=1 to rewrite the references after an intended visual change
    /// (then look at them before committing).
    @Test(arguments: references.map(\.0))
    func matchesTheReferenceImage(_ name: String) throws {
        let (_, model, theme) = Self.references.first { $0.0 == name }!
        let image = Image(model, theme: theme)
        let saved = image.save("reference-\(name)")
        let path = Screenshots.fixtures + "/\(name).png"
        if getenv("PEEK_UPDATE_REFERENCES") != nil {
            cairo_surface_write_to_png(image.surface, path)
            return
        }
        let reference = try #require(Image.load(png: path), "missing \(path); render it with PEEK_UPDATE_REFERENCES=1")
        let difference = try #require(image.difference(from: reference), "size differs from \(path)")
        #expect(difference.differingShare < 0.005, "\(name): \(difference); see \(saved)")
        #expect(difference.meanError < 1.5, "\(name): \(difference); see \(saved)")
    }
}

@Suite struct BlurTests {
    @Test func spreadsASquareSymmetricallyAndKeepsItsLight() {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 64, 64)!
        let cr = cairo_create(surface)!
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_paint(cr)
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_rectangle(cr, 28, 28, 8, 8)
        cairo_fill(cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        let image = Image(surface: surface)
        let before = image.mean(Rect(x: 0, y: 0, width: 64, height: 64)).r
        let scratch = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 64, 64)!
        defer { cairo_surface_destroy(scratch) }
        let kernel = BlurPyramid.gaussian(sigma: 3)
        #expect(kernel.reduce(0, +) == 65536, "weights sum to one")
        BlurPyramid.convolve(surface, into: scratch, kernel: kernel, horizontal: true)
        BlurPyramid.convolve(scratch, into: surface, kernel: kernel, horizontal: false)
        cairo_surface_mark_dirty(surface)
        let after = image.mean(Rect(x: 0, y: 0, width: 64, height: 64)).r
        #expect(abs(after - before) < 0.5, "light is conserved: \(before) → \(after)")
        #expect(image.pixel(31, 31).r < 255 && image.pixel(31, 31).r > 100, "the centre softened")
        #expect(image.pixel(20, 31).r > 0, "light spread outwards")
        #expect(image.pixel(20, 31) == image.pixel(43, 31), "left and right alike")
        #expect(image.pixel(31, 20) == image.pixel(31, 43), "up and down alike")
        #expect(image.pixel(2, 2).r == 0, "far corners untouched")
    }
}
