import CCairo

/// An sRGB colour, 0...1 per channel.
public struct Colour: Hashable, Sendable {
    public var red, green, blue, alpha: Double
    public init(hex: UInt32, alpha: Double = 1) {
        red = Double((hex >> 16) & 0xFF) / 255
        green = Double((hex >> 8) & 0xFF) / 255
        blue = Double(hex & 0xFF) / 255
        self.alpha = alpha
    }
    public func with(alpha: Double) -> Colour {
        var copy = self
        copy.alpha = alpha
        return copy
    }
}

/// A cairo image surface with the few drawing verbs a plot needs. Owns its cairo objects.
final class Canvas {
    enum Align { case left, centre, right }
    let width: Int
    let height: Int
    private let surface: OpaquePointer
    private let cairo: OpaquePointer

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
        cairo = cairo_create(surface)
        cairo_select_font_face(cairo, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
    }

    deinit {
        cairo_destroy(cairo)
        cairo_surface_destroy(surface)
    }

    private func set(_ colour: Colour) {
        cairo_set_source_rgba(cairo, colour.red, colour.green, colour.blue, colour.alpha)
    }

    func fill(x: Double, y: Double, width: Double, height: Double, _ colour: Colour) {
        set(colour)
        cairo_rectangle(cairo, x, y, width, height)
        cairo_fill(cairo)
    }

    func stroke(x: Double, y: Double, width: Double, height: Double, _ colour: Colour, lineWidth: Double = 1) {
        set(colour)
        cairo_set_line_width(cairo, lineWidth)
        cairo_rectangle(cairo, x, y, width, height)
        cairo_stroke(cairo)
    }

    /// A polyline; `dash` in pixels (on, off) or nil for solid.
    func line(_ points: [(Double, Double)], _ colour: Colour, width: Double = 1, dash: (Double, Double)? = nil) {
        guard let first = points.first else { return }
        set(colour)
        cairo_set_line_width(cairo, width)
        cairo_set_line_join(cairo, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_cap(cairo, CAIRO_LINE_CAP_ROUND)
        if let dash {
            let pattern = [dash.0, dash.1]
            cairo_set_dash(cairo, pattern, 2, 0)
        }
        cairo_move_to(cairo, first.0, first.1)
        for point in points.dropFirst() { cairo_line_to(cairo, point.0, point.1) }
        cairo_stroke(cairo)
        cairo_set_dash(cairo, nil, 0, 0)
    }

    func circle(x: Double, y: Double, radius: Double, fill: Colour, stroke: Colour? = nil, lineWidth: Double = 1.5) {
        cairo_new_sub_path(cairo)
        cairo_arc(cairo, x, y, radius, 0, 2 * Double.pi)
        set(fill)
        if let stroke {
            cairo_fill_preserve(cairo)
            set(stroke)
            cairo_set_line_width(cairo, lineWidth)
            cairo_stroke(cairo)
        } else {
            cairo_fill(cairo)
        }
    }

    /// Text with its baseline at `y`; returns its width.
    @discardableResult
    func text(
        _ string: String, x: Double, y: Double, size: Double, _ colour: Colour, align: Align = .left, bold: Bool = false
    ) -> Double {
        cairo_select_font_face(
            cairo, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cairo, size)
        var extents = cairo_text_extents_t()
        cairo_text_extents(cairo, string, &extents)
        let left: Double
        switch align {
        case .left: left = x
        case .centre: left = x - extents.x_advance / 2
        case .right: left = x - extents.x_advance
        }
        set(colour)
        cairo_move_to(cairo, left, y)
        cairo_show_text(cairo, string)
        return extents.x_advance
    }

    /// Text turned 90° anticlockwise, centred on (x, y) (a y-axis title).
    func verticalText(_ string: String, x: Double, y: Double, size: Double, _ colour: Colour) {
        cairo_save(cairo)
        cairo_translate(cairo, x, y)
        cairo_rotate(cairo, -Double.pi / 2)
        text(string, x: 0, y: 0, size: size, colour, align: .centre)
        cairo_restore(cairo)
    }

    func clip(x: Double, y: Double, width: Double, height: Double) {
        cairo_save(cairo)
        cairo_rectangle(cairo, x, y, width, height)
        cairo_clip(cairo)
    }

    func unclip() { cairo_restore(cairo) }

    /// Writes a PNG (cairo's own libpng writer); a readable reason on failure.
    func writePNG(to path: String) throws(ReportError) {
        cairo_surface_flush(surface)
        let status = cairo_surface_write_to_png(surface, path)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw ReportError("cannot write \(path): \(String(cString: cairo_status_to_string(status)))")
        }
    }
}

/// A report that could not be made, with a one-line reason.
public struct ReportError: Error, CustomStringConvertible, Equatable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
