import CCairo

// Small helpers over cairo's C API so drawing code reads like a description of the picture.

typealias Cairo = OpaquePointer

extension Color {
    func set(on cr: Cairo, alpha: Double = 1) { cairo_set_source_rgba(cr, r, g, b, a * alpha) }
}

func roundedRect(_ cr: Cairo, _ rect: Rect, radius: Double) {
    let r = max(0, min(radius, rect.width / 2, rect.height / 2))
    let degrees = Double.pi / 180
    cairo_new_sub_path(cr)
    cairo_arc(cr, rect.maxX - r, rect.y + r, r, -90 * degrees, 0)
    cairo_arc(cr, rect.maxX - r, rect.maxY - r, r, 0, 90 * degrees)
    cairo_arc(cr, rect.x + r, rect.maxY - r, r, 90 * degrees, 180 * degrees)
    cairo_arc(cr, rect.x + r, rect.y + r, r, 180 * degrees, 270 * degrees)
    cairo_close_path(cr)
}

func fillRoundedRect(_ cr: Cairo, _ rect: Rect, radius: Double, _ color: Color, alpha: Double = 1) {
    roundedRect(cr, rect, radius: radius)
    color.set(on: cr, alpha: alpha)
    cairo_fill(cr)
}

func fillRect(_ cr: Cairo, _ rect: Rect, _ color: Color, alpha: Double = 1) {
    cairo_rectangle(cr, rect.x, rect.y, rect.width, rect.height)
    color.set(on: cr, alpha: alpha)
    cairo_fill(cr)
}

/// A soft drop shadow: stacked translucent rounded rectangles, growing outwards. Cheap enough to
/// draw every frame, and soft enough at the sizes used here that no real blur is needed.
func dropShadow(_ cr: Cairo, _ rect: Rect, radius: Double, spread: Double, offsetY: Double, _ color: Color) {
    guard spread > 0.5, color.a > 0 else { return }
    let steps = 8
    for i in 0..<steps {
        let f = Double(i + 1) / Double(steps)
        let grow = spread * f
        let r = rect.offsetBy(0, offsetY).insetBy(-grow, -grow)
        roundedRect(cr, r, radius: radius + grow)
        cairo_set_source_rgba(cr, color.r, color.g, color.b, color.a / Double(steps) * (1.15 - f))
        cairo_fill(cr)
    }
}

func withSaved(_ cr: Cairo, _ body: () -> Void) {
    cairo_save(cr)
    body()
    cairo_restore(cr)
}
