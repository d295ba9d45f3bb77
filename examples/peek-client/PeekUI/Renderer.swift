import CCairo

// Draws the model at a point in time into a cairo ARGB32 image: the grid (cached while it does not
// change), the blurred and veiled background, the lifted tile or growing popover with its quick
// actions, the detail view and the toast. Everything is drawn in logical pixels; `scale` only
// multiplies the device resolution (wl_surface.set_buffer_scale).

public final class PeekRenderer {
    static let tileRadius = 12.0
    static let cardRadius = 16.0
    static let liftScale = 0.05

    public let theme: Theme
    private var palette: Palette { theme.palette }
    /// The blurred levels of the cached grid, made once per grid (so once per interaction).
    private var pyramid: BlurPyramid?
    private var grid: (key: GridKey, surface: OpaquePointer)?
    /// The detail view of one item, drawn once: the pop cross-fades into it, then it is shown as is.
    private var detail: (key: DetailKey, surface: OpaquePointer)?

    private struct DetailKey: Equatable {
        var item: Item
        var size: Size
        var scale: Int
        var zoom: Int
    }

    private struct GridKey: Equatable {
        var items: [Item]
        var size: Size
        var scale: Int
        var focus: Item.ID?
        var scroll: Double
    }

    public init(theme: Theme) { self.theme = theme }

    deinit {
        if let grid { cairo_surface_destroy(grid.surface) }
        if let detail { cairo_surface_destroy(detail.surface) }
    }

    /// A new image surface of the model's size at `scale`; the caller destroys it.
    public static func makeSurface(size: Size, scale: Int) -> OpaquePointer {
        cairo_image_surface_create(
            CAIRO_FORMAT_ARGB32, Int32((size.width * Double(scale)).rounded(.up)),
            Int32((size.height * Double(scale)).rounded(.up)))!
    }

    /// Makes the grid's blur levels now, while the app is idle (after a quiet frame), so the
    /// first frame of the next peek only composites (about 25 ms saved on that frame at 1280x800).
    public func prepareBlur(for model: PeekModel, scale: Int) {
        guard case .idle = model.state else { return }
        let width = Int((model.size.width * Double(scale)).rounded(.up))
        let height = Int((model.size.height * Double(scale)).rounded(.up))
        let background = gridSurface(model, scale: scale, width: width, height: height)
        if pyramid == nil { pyramid = BlurPyramid(source: background, width: width, height: height, scale: scale) }
        pyramid!.prepareAll()
    }

    /// Destroys a surface from `makeSurface` (for callers that do not import cairo).
    public static func destroySurface(_ surface: OpaquePointer) { cairo_surface_destroy(surface) }

    public func render(_ model: PeekModel, at now: Double, into surface: OpaquePointer, scale: Int) {
        let cr = cairo_create(surface)!
        defer {
            cairo_destroy(cr)
            cairo_surface_flush(surface)
        }
        let width = Int(cairo_image_surface_get_width(surface))
        let height = Int(cairo_image_surface_get_height(surface))
        cairo_scale(cr, Double(scale), Double(scale))

        if case .detail(let id) = model.state, let item = model.item(id) {
            paintDetail(cr, item, model: model, scale: scale, alpha: 1)
            drawStrokes(cr, model.strokes)
            drawToast(cr, model, now: now)
            return
        }
        let background = gridSurface(model, scale: scale, width: width, height: height)
        let visual = model.visual(at: now)
        let blurAmount = visual?.blur ?? 0
        if blurAmount > 0.001 {
            if pyramid == nil {
                pyramid = BlurPyramid(source: background, width: width, height: height, scale: scale)
            }
            pyramid!.paint(amount: blurAmount, into: cr)
            fillRect(
                cr, Rect(x: 0, y: 0, width: model.size.width, height: model.size.height), palette.veil,
                alpha: blurAmount)
        } else {
            withSaved(cr) {
                cairo_identity_matrix(cr)
                cairo_set_source_surface(cr, background, 0, 0)
                cairo_paint(cr)
            }
        }
        if let visual, let index = model.index(of: visual.item) {
            drawPeek(cr, model.items[index], index: index, visual: visual, model: model)
        }
        drawToast(cr, model, now: now)
    }

    // MARK: Grid

    private func gridSurface(_ model: PeekModel, scale: Int, width: Int, height: Int) -> OpaquePointer {
        let key = GridKey(
            items: model.items, size: model.size, scale: scale, focus: model.showsFocus ? model.focused : nil,
            scroll: model.scrollOffset)
        if let grid, grid.key == key { return grid.surface }
        if let grid { cairo_surface_destroy(grid.surface) }
        pyramid = nil  // made from the old grid (whose address a new surface may reuse)
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
        let cr = cairo_create(surface)!
        cairo_scale(cr, Double(scale), Double(scale))
        drawGrid(cr, model, focus: key.focus)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        grid = (key, surface)
        return surface
    }

    private func drawGrid(_ cr: Cairo, _ model: PeekModel, focus: Item.ID?) {
        let size = model.size
        fillRect(cr, Rect(x: 0, y: 0, width: size.width, height: size.height), palette.background)
        let layout = model.grid
        for (index, item) in model.items.enumerated() {
            let tile = layout.tile(at: index)
            if tile.y >= size.height { break }
            guard layout.isVisible(tile) else { continue }
            drawTile(cr, item, tile, photoHeight: layout.photo(in: tile).height, shadow: 0)
            if item.id == focus {
                roundedRect(cr, tile.insetBy(-3, -3), radius: Self.tileRadius + 3)
                palette.focusRing.set(on: cr)
                cairo_set_line_width(cr, 3)
                cairo_stroke(cr)
            }
        }
        drawScrollIndicator(cr, layout, count: model.items.count)
        if model.items.isEmpty {
            Text.draw(
                cr, "No Photos", x: 0, y: size.height / 2 - 12, width: size.width,
                style: TextStyle(size: 20, weight: .bold, color: palette.secondaryLabel, alignment: .center))
        }
        drawBar(cr, size: size) {
            Text.draw(
                cr, "Photos", x: 20, y: 15, width: size.width / 2,
                style: TextStyle(size: 22, weight: .bold, color: palette.label))
            let count = model.items.count == 1 ? "1 photo" : "\(model.items.count) photos"
            Text.draw(
                cr, "\(count) · press firmly to peek", x: size.width / 2, y: 21, width: size.width / 2 - 20,
                style: TextStyle(size: 13, color: palette.secondaryLabel, alignment: .right))
        }
    }

    /// A thin overlay scroll indicator at the right edge, only when the grid is taller than the view.
    private func drawScrollIndicator(_ cr: Cairo, _ layout: GridLayout, count: Int) {
        let maxScroll = layout.maxScroll(count: count)
        guard maxScroll > 0 else { return }
        let track = Rect(
            x: layout.size.width - 7, y: GridLayout.barHeight + 4, width: 4,
            height: layout.size.height - GridLayout.barHeight - 8)
        let visible = track.height / (track.height + maxScroll)
        let length = max(24, track.height * visible)
        let y = track.y + (track.height - length) * (layout.scroll / maxScroll)
        fillRoundedRect(
            cr, Rect(x: track.x, y: y, width: track.width, height: length), radius: 2,
            palette.secondaryLabel.withAlpha(0.45))
    }

    private func drawBar(_ cr: Cairo, size: Size, content: () -> Void) {
        fillRect(cr, Rect(x: 0, y: 0, width: size.width, height: GridLayout.barHeight), palette.bar)
        fillRect(cr, Rect(x: 0, y: GridLayout.barHeight - 0.5, width: size.width, height: 0.5), palette.separator)
        content()
    }

    /// A tile or the card it grows into: photo above, caption below, inside a rounded platter.
    /// `t` interpolates the caption from the tile's (0) to the card's (1).
    private func drawTile(
        _ cr: Cairo, _ item: Item, _ rect: Rect, photoHeight: Double, shadow: Double, t: Double = 0,
        radius: Double? = nil,
        opacity: Double = 1
    ) {
        let radius = radius ?? lerp(Self.tileRadius, Self.cardRadius, t)
        if opacity < 1 { cairo_push_group(cr) }
        if shadow > 0 {
            dropShadow(
                cr, rect, radius: radius, spread: 20 * shadow, offsetY: 8 * shadow,
                palette.shadow.withAlpha(palette.shadow.a * shadow))
        }
        withSaved(cr) {
            roundedRect(cr, rect, radius: radius)
            cairo_clip(cr)
            fillRect(cr, rect, palette.tile)
            Artwork.draw(
                cr, index: item.artwork, in: Rect(x: rect.x, y: rect.y, width: rect.width, height: photoHeight))
            let titleSize = lerp(13, 17, t)
            let pad = lerp(10, 16, t)
            let top = rect.y + photoHeight + lerp(6, 10, t)
            Text.draw(
                cr, item.title, x: rect.x + pad, y: top, width: rect.width - 2 * pad,
                style: TextStyle(size: titleSize, weight: .bold, color: palette.label))
            Text.draw(
                cr, t > 0.5 ? "\(item.place) · \(item.date)" : item.place, x: rect.x + pad, y: top + titleSize * 1.35,
                width: rect.width - 2 * pad, style: TextStyle(size: lerp(11, 13, t), color: palette.secondaryLabel))
            if let rating = item.rating {
                let d = lerp(26, 34, t)
                let badge = Rect(x: rect.maxX - d - 8, y: rect.y + 8, width: d, height: d)
                fillRoundedRect(cr, badge, radius: d / 2, Color(1, 1, 1, 0.85))
                Text.draw(
                    cr, rating == .love ? "❤️" : "💀", x: badge.x, y: badge.y + d * 0.16, width: d,
                    style: TextStyle(size: d * 0.52, color: palette.label, alignment: .center))
            }
        }
        if opacity < 1 {
            cairo_pop_group_to_source(cr)
            cairo_paint_with_alpha(cr, opacity)
        }
    }

    // MARK: Peek

    private func drawPeek(_ cr: Cairo, _ item: Item, index: Int, visual: PeekVisual, model: PeekModel) {
        let layout = model.grid
        let tile = layout.tile(at: index)
        let lifted = tile.scaled(by: 1 + Self.liftScale * visual.lift)
        guard let growth = visual.growth else {
            drawTile(
                cr, item, lifted, photoHeight: layout.photo(in: tile).height * (1 + Self.liftScale * visual.lift),
                shadow: visual.lift, opacity: visual.opacity)
            return
        }
        let peek = model.peek
        var card = lerp(lifted, peek.card, growth)
        var photoHeight = lerp(layout.photo(in: lifted).height, peek.photo.height, growth)
        var radius = lerp(Self.tileRadius, Self.cardRadius, growth)
        // A tile low in the grid would sweep over the platter on its way up: the growing card
        // never reaches below where the full-size card ends.
        if card.maxY > peek.card.maxY { card = card.offsetBy(0, peek.card.maxY - card.maxY) }
        if visual.pop > 0 {
            let target = DetailLayout(size: model.size).photo
            card = lerp(
                card, Rect(x: target.x, y: target.y, width: target.width, height: model.size.height - target.y),
                visual.pop)
            photoHeight = lerp(photoHeight, target.height, visual.pop)
            radius = lerp(radius, 0, visual.pop)
        }
        let appearance = PeekLayout.platterAppearance(growth: growth) * visual.opacity * (1 - visual.pop)
        if appearance > 0.001 {
            drawPlatter(cr, peek, item: item, highlighted: visual.highlighted, appearance: appearance)
        }
        drawTile(
            cr, item, card, photoHeight: photoHeight, shadow: 1 - visual.pop, t: growth, radius: radius,
            opacity: visual.opacity)
        if visual.pop > 0.5 {
            // The last part of the pop cross-fades into the detail view.
            paintDetail(
                cr, item, model: model, scale: detailScale(cr), alpha: Ease.inOutCubic((visual.pop - 0.5) / 0.5))
        }
    }

    private func drawPlatter(_ cr: Cairo, _ peek: PeekLayout, item: Item, highlighted: QuickAction?, appearance: Double)
    {
        let frames = peek.actionFrames(appearance: appearance)
        let dy = frames.first.map { $0.1.y - peek.platter.y } ?? 0
        let platter = peek.platter.offsetBy(0, dy)
        cairo_push_group(cr)
        dropShadow(cr, platter, radius: 14, spread: 14, offsetY: 6, palette.shadow.withAlpha(palette.shadow.a * 0.7))
        withSaved(cr) {
            roundedRect(cr, platter, radius: 14)
            cairo_clip(cr)
            fillRect(cr, platter, palette.platter)
            for (action, frame) in frames {
                if action == highlighted {
                    fillRect(
                        cr, frame,
                        action.style == .destructive ? palette.destructive.withAlpha(0.18) : palette.platterHighlight)
                }
                let colour = action.style == .destructive ? palette.destructive : palette.label
                let isGroup = QuickAction.rows.first { $0.contains(action) }!.count > 1
                let selected = (action == .love && item.rating == .love) || (action == .nope && item.rating == .nope)
                let style = TextStyle(
                    size: 16, weight: action == highlighted ? .bold : .regular, color: colour,
                    alignment: isGroup ? .center : .left)
                let title = selected ? "✓ \(action.title)" : action.title
                Text.draw(
                    cr, title, x: frame.x + 16, y: frame.y + 13, width: frame.width - 32 - (isGroup ? 0 : 24),
                    style: style)
                if let symbol = action.symbol {
                    Text.draw(
                        cr, symbol, x: frame.maxX - 44, y: frame.y + 12, width: 28,
                        style: TextStyle(size: 17, color: colour, alignment: .right))
                }
                // Hairlines between rows and between the two halves of a group.
                if frame.y > platter.y + 1 {
                    fillRect(cr, Rect(x: frame.x, y: frame.y, width: frame.width, height: 0.5), palette.separator)
                }
                if isGroup && frame.x > platter.x + 1 {
                    fillRect(cr, Rect(x: frame.x, y: frame.y, width: 0.5, height: frame.height), palette.separator)
                }
            }
        }
        cairo_pop_group_to_source(cr)
        cairo_paint_with_alpha(cr, appearance)
    }

    // MARK: Detail and toast

    /// The device scale of `cr` (its user-to-device x scale).
    private func detailScale(_ cr: Cairo) -> Int {
        var matrix = cairo_matrix_t()
        cairo_get_matrix(cr, &matrix)
        return max(1, Int(matrix.xx.rounded()))
    }

    /// Paints the item's detail view from its cache (drawn on first use), at `alpha`.
    private func paintDetail(_ cr: Cairo, _ item: Item, model: PeekModel, scale: Int, alpha: Double) {
        let key = DetailKey(item: item, size: model.size, scale: scale, zoom: model.zoom)
        if detail?.key != key {
            if let detail { cairo_surface_destroy(detail.surface) }
            let surface = Self.makeSurface(size: model.size, scale: scale)
            let dcr = cairo_create(surface)!
            cairo_scale(dcr, Double(scale), Double(scale))
            drawDetail(dcr, item, model: model)
            cairo_destroy(dcr)
            cairo_surface_flush(surface)
            detail = (key, surface)
        }
        withSaved(cr) {
            cairo_identity_matrix(cr)
            cairo_set_source_surface(cr, detail!.surface, 0, 0)
            if alpha >= 1 { cairo_paint(cr) } else { cairo_paint_with_alpha(cr, alpha) }
        }
    }

    private func drawDetail(_ cr: Cairo, _ item: Item, model: PeekModel) {
        let size = model.size
        let layout = DetailLayout(size: size)
        fillRect(cr, Rect(x: 0, y: 0, width: size.width, height: size.height), palette.background)
        // The zoom magnifies the photo about its centre, inside its frame.
        withSaved(cr) {
            let photo = layout.photo
            cairo_rectangle(cr, photo.x, photo.y, photo.width, photo.height)
            cairo_clip(cr)
            Artwork.draw(cr, index: item.artwork, in: photo.scaled(by: model.zoomFactor))
        }
        drawZoomBadge(cr, layout.zoomBadge, factor: model.zoomFactor)
        let pad = DetailLayout.padding
        Text.draw(
            cr, item.title, x: pad, y: layout.titleY, width: layout.list.width,
            style: TextStyle(size: 26, weight: .bold, color: palette.label))
        // An inset grouped list, as in a Photos info panel.
        let rows: [(String, String)] = [
            ("Place", item.place), ("Taken", item.date),
            ("Rating", item.rating.map { $0 == .love ? "❤️ Loved" : "💀 Not for you" } ?? "Not rated"),
        ]
        let rowHeight = DetailLayout.rowHeight
        let list = layout.list
        fillRoundedRect(cr, list, radius: 10, palette.tile)
        for (i, row) in rows.enumerated() {
            let top = list.y + Double(i) * rowHeight
            if i > 0 {
                fillRect(cr, Rect(x: list.x + 16, y: top, width: list.width - 16, height: 0.5), palette.separator)
            }
            Text.draw(
                cr, row.0, x: list.x + 16, y: top + 10, width: 120, style: TextStyle(size: 15, color: palette.label))
            Text.draw(
                cr, row.1, x: list.x + 120, y: top + 10, width: list.width - 136,
                style: TextStyle(size: 15, color: palette.secondaryLabel, alignment: .right))
        }
        if let markup = layout.markup {
            fillRoundedRect(cr, markup, radius: 10, palette.tile)
            roundedRect(cr, markup.insetBy(0.5, 0.5), radius: 10)
            palette.separator.set(on: cr)
            cairo_set_line_width(cr, 1)
            cairo_stroke(cr)
            Text.draw(
                cr, "Markup · draw here", x: markup.x + 16, y: markup.y + 10,
                width: markup.width - 32, style: TextStyle(size: 13, color: palette.secondaryLabel))
        }
        // The hint only where it fits below the list (a short window keeps the list whole).
        if list.maxY + DetailLayout.hintHeight <= size.height {
            Text.draw(
                cr, "Esc or ‹ Photos to go back · press the photo firmly to zoom", x: pad, y: size.height - 28,
                width: size.width - 2 * pad,
                style: TextStyle(size: 12, color: palette.secondaryLabel, alignment: .center))
        }
        drawBar(cr, size: size) {
            Text.draw(
                cr, "‹ Photos", x: layout.back.x + 8, y: 17, width: layout.back.width,
                style: TextStyle(size: 17, color: palette.tint))
            Text.draw(
                cr, item.title, x: layout.back.maxX, y: 17, width: size.width - 2 * layout.back.maxX,
                style: TextStyle(size: 17, weight: .bold, color: palette.label, alignment: .center))
        }
    }

    /// The zoom level on a dark pill over the photo ("1×", "1.5×", ...).
    private func drawZoomBadge(_ cr: Cairo, _ badge: Rect, factor: Double) {
        fillRoundedRect(cr, badge, radius: badge.height / 2, Color(0, 0, 0, 0.55))
        let text = factor == factor.rounded() ? "\(Int(factor))×" : "\(factor)×"
        Text.draw(
            cr, "🔍 " + text, x: badge.x, y: badge.y + 6, width: badge.width,
            style: TextStyle(size: 14, weight: .bold, color: Color(1, 1, 1, 1), alignment: .center))
    }

    /// The markup strokes in the tint colour, each segment as wide as the pen pressed there.
    private func drawStrokes(_ cr: Cairo, _ strokes: [[InkPoint]]) {
        guard !strokes.isEmpty else { return }
        withSaved(cr) {
            palette.tint.set(on: cr)
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
            for stroke in strokes {
                guard let first = stroke.first else { continue }
                // A single point is a dot.
                var previous = InkPoint(Point(x: first.point.x - 0.01, y: first.point.y), pressure: first.pressure)
                for ink in stroke {
                    cairo_set_line_width(cr, Self.inkWidth(ink.pressure))
                    cairo_move_to(cr, previous.point.x, previous.point.y)
                    cairo_line_to(cr, ink.point.x, ink.point.y)
                    cairo_stroke(cr)
                    previous = ink
                }
            }
        }
    }

    /// A line's width for a pen's pressure: 1 to 9 points; 4 without pressure (mouse, finger).
    static func inkWidth(_ pressure: Double?) -> Double { pressure.map { 1 + 8 * $0 } ?? 4 }

    private func drawToast(_ cr: Cairo, _ model: PeekModel, now: Double) {
        guard let toast = model.toast else { return }
        let opacity = model.toastOpacity(at: now)
        guard opacity > 0.001 else { return }
        let style = TextStyle(size: 15, weight: .bold, color: palette.toastLabel, alignment: .center)
        let text = Text.measure(cr, toast.text, style: style)
        let width = min(model.size.width - 40, text.width + 40)
        let pill = Rect(
            x: (model.size.width - width) / 2, y: model.size.height - 64, width: width, height: text.height + 20)
        cairo_push_group(cr)
        dropShadow(cr, pill, radius: pill.height / 2, spread: 8, offsetY: 3, palette.shadow)
        fillRoundedRect(cr, pill, radius: pill.height / 2, palette.toast)
        Text.draw(cr, toast.text, x: pill.x + 20, y: pill.y + 10, width: pill.width - 40, style: style)
        cairo_pop_group_to_source(cr)
        cairo_paint_with_alpha(cr, opacity)
    }
}
