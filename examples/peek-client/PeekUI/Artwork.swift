import CCairo
import Glibc

// Procedural landscape "photos": the sample ships no image files, yet each item must look like a
// distinct photo so that blur, lift and pop read clearly in screenshots.

enum Artwork {
    private struct Scene {
        var skyTop: UInt32
        var skyBottom: UInt32
        var sun: UInt32?
        var sunAt: (x: Double, y: Double, r: Double) = (0.7, 0.3, 0.09)
        var ridges: [UInt32]
        var water: UInt32? = nil
        var stars = false
        var aurora = false
        var smooth = false  // dunes and hills instead of peaks
        var pines = false
        var city = false
    }

    private static let scenes: [Scene] = [
        Scene(
            skyTop: 0x0B1026, skyBottom: 0x1F3A5F, sun: nil, ridges: [0x2C3E50, 0x1B2631, 0x0E1419], stars: true,
            aurora: true),
        Scene(
            skyTop: 0x8EC5FC, skyBottom: 0xF9D7C3, sun: 0xFFF3D6, sunAt: (0.25, 0.35, 0.07),
            ridges: [0x7F8FA6, 0x4B5D73, 0x2F3E4E], water: 0x3E6A8A),
        Scene(
            skyTop: 0xF6A04D, skyBottom: 0xFCE1A8, sun: 0xFFF5D1, sunAt: (0.72, 0.42, 0.1),
            ridges: [0xE3A35B, 0xC97B36, 0xA65A22], smooth: true),
        Scene(
            skyTop: 0x6DD5ED, skyBottom: 0xE0F7FA, sun: 0xFFFFFF, sunAt: (0.8, 0.2, 0.06),
            ridges: [0xDDE6EE, 0x8FA7B8, 0x5C7485], water: 0x2BB5B8),
        Scene(
            skyTop: 0x2E1A47, skyBottom: 0xE07A5F, sun: 0xFFB26B, sunAt: (0.3, 0.5, 0.08), ridges: [], water: 0x2A2240,
            city: true),
        Scene(
            skyTop: 0x9BD1F2, skyBottom: 0xE8F5E9, sun: 0xFFFDE7, sunAt: (0.18, 0.22, 0.07),
            ridges: [0x9CB7A5, 0x4F7F5B, 0x2E5339], smooth: true, pines: true),
        Scene(
            skyTop: 0xA1C4FD, skyBottom: 0xFDE2F3, sun: 0xFFFFFF, sunAt: (0.5, 0.3, 0.06), ridges: [0xB8B5D6],
            water: 0xE8E6F5),
        Scene(
            skyTop: 0x4A90C2, skyBottom: 0xF3C99B, sun: 0xFFF1C1, sunAt: (0.82, 0.25, 0.07),
            ridges: [0xC8553D, 0xA63D2A, 0x7A2A1D]),
        Scene(
            skyTop: 0xB7A8E8, skyBottom: 0xF8E1F4, sun: 0xFFF6E5, sunAt: (0.7, 0.3, 0.08),
            ridges: [0xA78BD9, 0x7D5BB5, 0x5A3E8C], smooth: true),
        Scene(skyTop: 0xC9D6DF, skyBottom: 0xF0F4F7, sun: nil, ridges: [0xAAB7C0, 0x7B8C97, 0x4D5B64, 0x2F3A41]),
        Scene(
            skyTop: 0x48C6EF, skyBottom: 0xB4F0FF, sun: 0xFFFFFF, sunAt: (0.2, 0.2, 0.07), ridges: [0x3FA796],
            water: 0x1E8FB5),
        Scene(
            skyTop: 0x3A1C71, skyBottom: 0xFFAF7B, sun: 0xFFD29D, sunAt: (0.55, 0.5, 0.12),
            ridges: [0x5B3A6B, 0x2D1B36]),
        Scene(
            skyTop: 0xD4FC79, skyBottom: 0x96E6A1, sun: 0xFFFFF0, sunAt: (0.85, 0.18, 0.06),
            ridges: [0x6FBF73, 0x3E8E41, 0x25632A], smooth: true),
        Scene(skyTop: 0x5DADE2, skyBottom: 0xD6EAF8, sun: nil, ridges: [0xAED6F1, 0x85C1E9, 0x2E86C1]),
        Scene(
            skyTop: 0xF7971E, skyBottom: 0xFFD200, sun: 0xFFF8E1, sunAt: (0.3, 0.28, 0.07),
            ridges: [0xD35400, 0x8E3B0B], water: 0x7A4A1A),
        Scene(
            skyTop: 0x020111, skyBottom: 0x20202C, sun: 0xF5F3CE, sunAt: (0.75, 0.25, 0.05),
            ridges: [0x3B2F2F, 0x1E1717], stars: true, smooth: true),
    ]

    /// Draws photo number `index` filling `rect` (clipped to it by the caller's path if needed).
    static func draw(_ cr: Cairo, index: Int, in rect: Rect) {
        let scene = scenes[((index % scenes.count) + scenes.count) % scenes.count]
        var random = SplitMix(seed: UInt64(truncatingIfNeeded: index &* 7919 &+ 17))
        withSaved(cr) {
            cairo_rectangle(cr, rect.x, rect.y, rect.width, rect.height)
            cairo_clip(cr)
            cairo_translate(cr, rect.x, rect.y)
            let w = rect.width
            let h = rect.height
            let horizon = scene.water != nil ? h * 0.62 : h

            let sky = cairo_pattern_create_linear(0, 0, 0, horizon)!
            addStop(sky, 0, scene.skyTop)
            addStop(sky, 1, scene.skyBottom)
            cairo_set_source(cr, sky)
            cairo_paint(cr)
            cairo_pattern_destroy(sky)

            if scene.stars {
                for _ in 0..<40 {
                    let x = random.unit() * w
                    let y = random.unit() * horizon * 0.7
                    cairo_arc(cr, x, y, max(0.4, random.unit() * 1.1) * w / 200, 0, 2 * .pi)
                    cairo_set_source_rgba(cr, 1, 1, 1, 0.4 + random.unit() * 0.5)
                    cairo_fill(cr)
                }
            }
            if scene.aurora {
                for band in 0..<3 {
                    let g = cairo_pattern_create_linear(0, 0, 0, h * 0.6)!
                    cairo_pattern_add_color_stop_rgba(g, 0, 0.3, 1, 0.6, 0)
                    cairo_pattern_add_color_stop_rgba(g, 0.5, 0.35, 1, 0.65, 0.45 - Double(band) * 0.1)
                    cairo_pattern_add_color_stop_rgba(g, 1, 0.2, 0.8, 0.9, 0)
                    cairo_move_to(cr, 0, h * (0.35 + Double(band) * 0.06))
                    var x = 0.0
                    while x <= w {
                        x += w / 12
                        let wave = sin(x / w * 7 + Double(band)) * h * 0.08
                        cairo_line_to(cr, x, h * (0.3 + Double(band) * 0.06) + wave)
                    }
                    cairo_line_to(cr, w, 0)
                    cairo_line_to(cr, 0, 0)
                    cairo_close_path(cr)
                    cairo_set_source(cr, g)
                    cairo_fill(cr)
                    cairo_pattern_destroy(g)
                }
            }
            if let sun = scene.sun {
                let cx = scene.sunAt.x * w
                let cy = scene.sunAt.y * h
                let r = scene.sunAt.r * w
                let glow = cairo_pattern_create_radial(cx, cy, r * 0.5, cx, cy, r * 4)!
                let c = Color(hex: sun)
                cairo_pattern_add_color_stop_rgba(glow, 0, c.r, c.g, c.b, 0.55)
                cairo_pattern_add_color_stop_rgba(glow, 1, c.r, c.g, c.b, 0)
                cairo_set_source(cr, glow)
                cairo_paint(cr)
                cairo_pattern_destroy(glow)
                cairo_arc(cr, cx, cy, r, 0, 2 * .pi)
                c.set(on: cr)
                cairo_fill(cr)
            }
            if scene.city {
                var x = 0.0
                while x < w {
                    let bw = w * (0.04 + random.unit() * 0.06)
                    let bh = horizon * (0.12 + random.unit() * 0.3)
                    cairo_rectangle(cr, x, horizon - bh, bw - 1, bh)
                    Color(hex: 0x1D1530).set(on: cr)
                    cairo_fill(cr)
                    for _ in 0..<Int(bh / 6) {
                        cairo_rectangle(cr, x + random.unit() * (bw - 3), horizon - random.unit() * bh, 1.5, 1.5)
                        cairo_set_source_rgba(cr, 1, 0.85, 0.5, 0.9)
                        cairo_fill(cr)
                    }
                    x += bw
                }
            }
            let layers = scene.ridges.count
            for (i, colour) in scene.ridges.enumerated() {
                let depth = Double(i) / Double(max(1, layers))
                let base = horizon * (0.55 + depth * 0.3) + (scene.water == nil ? h * 0.05 : 0)
                let amplitude = horizon * (scene.smooth ? 0.1 : 0.28) * (1 - depth * 0.4)
                ridge(cr, &random, width: w, base: base, amplitude: amplitude, smooth: scene.smooth, bottom: horizon)
                Color(hex: colour).set(on: cr)
                cairo_fill(cr)
                if scene.pines && i == layers - 1 {
                    for _ in 0..<14 {
                        let px = random.unit() * w
                        let ph = h * (0.08 + random.unit() * 0.1)
                        let py = base + random.unit() * (h - base) * 0.5
                        cairo_move_to(cr, px, py - ph)
                        cairo_line_to(cr, px + ph * 0.3, py)
                        cairo_line_to(cr, px - ph * 0.3, py)
                        cairo_close_path(cr)
                        Color(hex: 0x1B3B24).set(on: cr)
                        cairo_fill(cr)
                    }
                }
            }
            if let water = scene.water {
                let g = cairo_pattern_create_linear(0, horizon, 0, h)!
                let c = Color(hex: water)
                cairo_pattern_add_color_stop_rgba(g, 0, c.r, c.g, c.b, 0.92)
                cairo_pattern_add_color_stop_rgba(g, 1, c.r * 0.7, c.g * 0.7, c.b * 0.7, 1)
                cairo_rectangle(cr, 0, horizon, w, h - horizon)
                cairo_set_source(cr, g)
                cairo_fill(cr)
                cairo_pattern_destroy(g)
                for i in 0..<6 {
                    let y = horizon + (h - horizon) * (0.15 + Double(i) * 0.14)
                    let x = random.unit() * w * 0.6
                    cairo_rectangle(cr, x, y, w * (0.15 + random.unit() * 0.3), max(1, h / 160))
                    cairo_set_source_rgba(cr, 1, 1, 1, 0.25)
                    cairo_fill(cr)
                }
            }
        }
    }

    private static func ridge(
        _ cr: Cairo, _ random: inout SplitMix, width w: Double, base: Double, amplitude: Double, smooth: Bool,
        bottom: Double
    ) {
        let steps = smooth ? 6 : 9
        cairo_move_to(cr, 0, bottom)
        var previous = (x: 0.0, y: base - random.unit() * amplitude)
        cairo_line_to(cr, previous.x, previous.y)
        for i in 1...steps {
            let x = w * Double(i) / Double(steps)
            let y = base - random.unit() * amplitude
            if smooth {
                let mx = (previous.x + x) / 2
                cairo_curve_to(cr, mx, previous.y, mx, y, x, y)
            } else {
                // A peak between two valleys.
                cairo_line_to(cr, (previous.x + x) / 2, min(previous.y, y) - amplitude * random.unit() * 0.6)
                cairo_line_to(cr, x, y)
            }
            previous = (x, y)
        }
        cairo_line_to(cr, w, bottom)
        cairo_close_path(cr)
    }

    private static func addStop(_ pattern: OpaquePointer, _ offset: Double, _ hex: UInt32) {
        let c = Color(hex: hex)
        cairo_pattern_add_color_stop_rgb(pattern, offset, c.r, c.g, c.b)
    }
}

/// A tiny deterministic generator: the same item always gets the same picture.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
