import CCairo
import CPangoCairo

// Text through Pango: shaping, ellipsizing and font fallback (colour emoji for the rating actions).

struct TextStyle {
    enum Weight {
        case regular
        case bold
    }
    enum Alignment {
        case left
        case center
        case right
    }

    var size: Double
    var weight: Weight = .regular
    var color: Color
    var alignment: Alignment = .left

    static let family = "DejaVu Sans"
}

enum Text {
    /// Draws `text` in one line with its top-left at (x, y), ellipsized to `width` and aligned in it.
    /// Returns the logical height of the line.
    @discardableResult
    static func draw(
        _ cr: Cairo, _ text: String, x: Double, y: Double, width: Double, style: TextStyle, alpha: Double = 1
    )
        -> Double
    {
        guard width > 1, let layout = pango_cairo_create_layout(cr) else { return 0 }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        configure(layout, text, width: width, style: style)
        var ink = PangoRectangle()
        var logical = PangoRectangle()
        pango_layout_get_pixel_extents(layout, &ink, &logical)
        style.color.set(on: cr, alpha: alpha)
        cairo_move_to(cr, x, y)
        pango_cairo_show_layout(cr, layout)
        return Double(logical.height)
    }

    /// The natural width and height of `text` on one line.
    static func measure(_ cr: Cairo, _ text: String, style: TextStyle) -> Size {
        guard let layout = pango_cairo_create_layout(cr) else { return Size(width: 0, height: 0) }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        configure(layout, text, width: nil, style: style)
        var ink = PangoRectangle()
        var logical = PangoRectangle()
        pango_layout_get_pixel_extents(layout, &ink, &logical)
        return Size(width: Double(logical.width), height: Double(logical.height))
    }

    private static func configure(_ layout: OpaquePointer, _ text: String, width: Double?, style: TextStyle) {
        let description = pango_font_description_new()
        defer { pango_font_description_free(description) }
        pango_font_description_set_family(description, TextStyle.family)
        pango_font_description_set_weight(description, style.weight == .bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
        pango_font_description_set_absolute_size(description, style.size * Double(PANGO_SCALE))
        pango_layout_set_font_description(layout, description)
        pango_layout_set_single_paragraph_mode(layout, 1)
        if let width {
            pango_layout_set_width(layout, Int32(width * Double(PANGO_SCALE)))
            pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
        }
        let alignment: PangoAlignment =
            switch style.alignment {
            case .left: PANGO_ALIGN_LEFT
            case .center: PANGO_ALIGN_CENTER
            case .right: PANGO_ALIGN_RIGHT
            }
        pango_layout_set_alignment(layout, alignment)
        pango_layout_set_text(layout, text, -1)
    }
}
