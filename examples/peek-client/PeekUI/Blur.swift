import CCairo
import CPixman
import Glibc

// The peek background's blur, made cheap per frame. The grid does not change during an
// interaction, so it is blurred once: a quarter-resolution copy, then gaussian levels of a
// quarter, half, three quarters and all of the maximum blur, each made on first use (pixman's
// convolution filter, two separable passes, in C). A frame at blur amount b only cross-fades the
// two levels around b, upscaled with bilinear filtering: two image paints, whatever b is. At a
// quarter of the resolution a blur this strong looks the same as a full-resolution one.

final class BlurPyramid {
    static let levels = 4
    /// The standard deviation at full blur, in logical pixels.
    static let maxSigma = 10.0

    /// The sharp source (the cached grid) this pyramid was made from; not owned.
    let source: OpaquePointer
    private let factor: Int
    private let small: (width: Int, height: Int)
    private let base: OpaquePointer
    private let scratch: OpaquePointer
    private var made: [OpaquePointer?] = Array(repeating: nil, count: levels)
    private let sigmaSmall: Double

    /// `source`: a `width`x`height` ARGB32 image drawn at `scale` device pixels per logical pixel.
    init(source: OpaquePointer, width: Int, height: Int, scale: Int) {
        self.source = source
        factor = 4 * max(1, scale)
        small = ((width + factor - 1) / factor, (height + factor - 1) / factor)
        sigmaSmall = Self.maxSigma * Double(max(1, scale)) / Double(factor)
        base = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(small.width), Int32(small.height))!
        scratch = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(small.width), Int32(small.height))!
        let cr = cairo_create(base)!
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_scale(cr, 1 / Double(factor), 1 / Double(factor))
        cairo_set_source_surface(cr, source, 0, 0)
        // GOOD downscales with a box filter: every source pixel counts.
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
        cairo_paint(cr)
        cairo_destroy(cr)
        cairo_surface_flush(base)
    }

    deinit {
        cairo_surface_destroy(base)
        cairo_surface_destroy(scratch)
        for case let level? in made { cairo_surface_destroy(level) }
    }

    /// Paints the source blurred by `amount` (0...1 of the maximum) over the whole target.
    func paint(amount: Double, into cr: Cairo) {
        let position = min(1, max(0, amount)) * Double(Self.levels)
        let lower = Int(position.rounded(.down))
        let t = position - Double(lower)
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        if lower == 0 {
            cairo_set_source_surface(cr, source, 0, 0)
            cairo_paint(cr)
        } else {
            paintLevel(lower, into: cr, alpha: 1)
        }
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        if lower < Self.levels && t > 0.002 { paintLevel(lower + 1, into: cr, alpha: t) }
        cairo_restore(cr)
    }

    /// Makes every level now (e.g. while the app is idle right after should-begin).
    func prepareAll() {
        for level in 1...Self.levels { _ = self.level(level) }
    }

    private func paintLevel(_ k: Int, into cr: Cairo, alpha: Double) {
        cairo_save(cr)
        cairo_scale(cr, Double(factor), Double(factor))
        cairo_set_source_surface(cr, level(k), 0, 0)
        let pattern = cairo_get_source(cr)
        cairo_pattern_set_filter(pattern, CAIRO_FILTER_BILINEAR)
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
        if alpha >= 1 { cairo_paint(cr) } else { cairo_paint_with_alpha(cr, alpha) }
        cairo_restore(cr)
    }

    /// Level `k` (1...levels): the quarter-resolution copy with a gaussian of k/levels of the maximum.
    private func level(_ k: Int) -> OpaquePointer {
        if let surface = made[k - 1] { return surface }
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(small.width), Int32(small.height))!
        // Downscaling and bilinear upscaling already soften by about half a small pixel.
        let wanted = sigmaSmall * Double(k) / Double(Self.levels)
        let sigma = max(0.3, max(0, wanted * wanted - 0.25).squareRoot())
        let kernel = Self.gaussian(sigma: sigma)
        Self.convolve(base, into: scratch, kernel: kernel, horizontal: true)
        Self.convolve(scratch, into: surface, kernel: kernel, horizontal: false)
        made[k - 1] = surface
        return surface
    }

    /// A normalised 1-D gaussian in pixman's 16.16 fixed point, odd width, weights summing to 1.
    static func gaussian(sigma: Double) -> [pixman_fixed_t] {
        let radius = max(1, Int((3 * sigma).rounded(.up)))
        var weights = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = weights.reduce(0, +)
        weights = weights.map { $0 / total }
        var fixed = weights.map { pixman_fixed_t(($0 * 65536).rounded()) }
        // Rounding must not brighten or darken: put the remainder on the centre tap.
        fixed[radius] += 65536 - fixed.reduce(0, +)
        return fixed
    }

    /// One separable pass: `destination` = `source` convolved with `kernel` along one axis,
    /// edges padded (so the window's border does not darken).
    static func convolve(
        _ source: OpaquePointer, into destination: OpaquePointer, kernel: [pixman_fixed_t], horizontal: Bool
    ) {
        cairo_surface_flush(source)
        cairo_surface_flush(destination)
        let width = cairo_image_surface_get_width(source)
        let height = cairo_image_surface_get_height(source)
        let src = pixmanImage(source)
        let dst = pixmanImage(destination)
        let taps = pixman_fixed_t(kernel.count) << 16
        var params: [pixman_fixed_t] = horizontal ? [taps, 1 << 16] : [1 << 16, taps]
        params += kernel
        _ = params.withUnsafeBufferPointer {
            pixman_image_set_filter(src, PIXMAN_FILTER_CONVOLUTION, $0.baseAddress, Int32($0.count))
        }
        pixman_image_set_repeat(src, PIXMAN_REPEAT_PAD)
        pixman_image_composite32(PIXMAN_OP_SRC, src, nil, dst, 0, 0, 0, 0, 0, 0, width, height)
        pixman_image_unref(src)
        pixman_image_unref(dst)
        cairo_surface_mark_dirty(destination)
    }

    private static func pixmanImage(_ surface: OpaquePointer) -> OpaquePointer {
        let data = UnsafeMutableRawPointer(cairo_image_surface_get_data(surface)!).assumingMemoryBound(to: UInt32.self)
        return pixman_image_create_bits(
            PIXMAN_a8r8g8b8, cairo_image_surface_get_width(surface), cairo_image_surface_get_height(surface), data,
            cairo_image_surface_get_stride(surface))!
    }
}
