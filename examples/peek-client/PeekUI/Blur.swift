import CCairo

// A real blur for the peek background: three box-blur passes (close to a gaussian) over cairo's
// premultiplied ARGB32 pixels, horizontally then vertically. Large radii are blurred at half or
// quarter resolution and scaled back up with bilinear filtering: indistinguishable at those radii
// and four to sixteen times cheaper. Whole frames at 800x600 take 8-21 ms at scale 1 (numbers
// and the next optimisation in BENCHMARKS.md).

final class Blur {
    private var scratch: OpaquePointer?
    private var scratchSize = (width: 0, height: 0)
    private var rowSums: [Int] = []
    private var line: [UInt32] = []
    private var ring: [UInt32] = []

    deinit { if let scratch { cairo_surface_destroy(scratch) } }

    /// Paints `source` (an ARGB32 image of `width`x`height` pixels) blurred by `radius` pixels into
    /// `cr` at the origin, in device pixels.
    func paint(_ source: OpaquePointer, width: Int, height: Int, radius: Double, into cr: Cairo) {
        let factor = radius >= 24 ? 4 : radius >= 8 ? 2 : 1
        let w = (width + factor - 1) / factor
        let h = (height + factor - 1) / factor
        let small = scratchSurface(width: w, height: h)
        let scr = cairo_create(small)!
        cairo_set_operator(scr, CAIRO_OPERATOR_SOURCE)
        cairo_scale(scr, 1 / Double(factor), 1 / Double(factor))
        cairo_set_source_surface(scr, source, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(scr), CAIRO_FILTER_GOOD)
        cairo_paint(scr)
        cairo_destroy(scr)
        cairo_surface_flush(small)
        Self.boxBlur(
            cairo_image_surface_get_data(small)!, width: w, height: h,
            stride: Int(cairo_image_surface_get_stride(small)), radius: Int((radius / Double(factor)).rounded()),
            sums: &rowSums, line: &line, ring: &ring)
        cairo_surface_mark_dirty(small)
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_scale(cr, Double(factor), Double(factor))
        cairo_set_source_surface(cr, small, 0, 0)
        let pattern = cairo_get_source(cr)
        cairo_pattern_set_filter(pattern, factor == 1 ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_BILINEAR)
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
        cairo_rectangle(cr, 0, 0, Double(width) / Double(factor), Double(height) / Double(factor))
        cairo_fill(cr)
        cairo_restore(cr)
    }

    private func scratchSurface(width: Int, height: Int) -> OpaquePointer {
        if let scratch, scratchSize == (width, height) { return scratch }
        if let scratch { cairo_surface_destroy(scratch) }
        let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
        scratch = s
        scratchSize = (width, height)
        return s
    }

    /// Blurs premultiplied ARGB32 pixels in place: 3 horizontal and 3 vertical box passes.
    static func boxBlur(
        _ data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, radius: Int, sums: inout [Int],
        line: inout [UInt32], ring: inout [UInt32]
    ) {
        guard radius > 0, width > 0, height > 0 else { return }
        let pixels = UnsafeMutableRawPointer(data)
        if line.count < max(width, height) { line = [UInt32](repeating: 0, count: max(width, height)) }
        if sums.count < width * 4 { sums = [Int](repeating: 0, count: width * 4) }
        if ring.count < (radius + 1) * width { ring = [UInt32](repeating: 0, count: (radius + 1) * width) }
        let window = 2 * radius + 1
        // sum * multiplier >> 24 divides by the window size without a division per channel.
        let multiplier = (1 << 24) / window + 1
        line.withUnsafeMutableBufferPointer { lineBuffer in
            sums.withUnsafeMutableBufferPointer { sumBuffer in
                ring.withUnsafeMutableBufferPointer { ringBuffer in
                for _ in 0..<3 {
                    for y in 0..<height {
                        let row = (pixels + y * stride).assumingMemoryBound(to: UInt32.self)
                        horizontal(row, width: width, radius: radius, multiplier: multiplier, scratch: lineBuffer)
                    }
                    vertical(
                        pixels, width: width, height: height, stride: stride, radius: radius, multiplier: multiplier,
                        sums: sumBuffer, ring: ringBuffer)
                }
                }
            }
        }
    }

    @inline(__always)
    private static func channels(_ p: UInt32) -> (Int, Int, Int, Int) {
        (Int(p >> 24), Int((p >> 16) & 0xff), Int((p >> 8) & 0xff), Int(p & 0xff))
    }

    @inline(__always)
    private static func pack(_ a: Int, _ r: Int, _ g: Int, _ b: Int, _ m: Int) -> UInt32 {
        UInt32((a * m) >> 24) << 24 | UInt32((r * m) >> 24) << 16 | UInt32((g * m) >> 24) << 8 | UInt32((b * m) >> 24)
    }

    private static func horizontal(
        _ row: UnsafeMutablePointer<UInt32>, width: Int, radius: Int, multiplier: Int,
        scratch: UnsafeMutableBufferPointer<UInt32>
    ) {
        let last = width - 1
        for x in 0..<width { scratch[x] = row[x] }
        var (sa, sr, sg, sb) = (0, 0, 0, 0)
        for i in -radius...radius {
            let (a, r, g, b) = channels(scratch[min(max(i, 0), last)])
            sa += a
            sr += r
            sg += g
            sb += b
        }
        for x in 0..<width {
            row[x] = pack(sa, sr, sg, sb, multiplier)
            let (a1, r1, g1, b1) = channels(scratch[min(x + radius + 1, last)])
            let (a0, r0, g0, b0) = channels(scratch[max(x - radius, 0)])
            sa += a1 - a0
            sr += r1 - r0
            sg += g1 - g0
            sb += b1 - b0
        }
    }

    /// Sweeps rows top to bottom with one running sum per column and channel, so memory is read
    /// in rows (cache friendly) rather than down columns. Rows are blurred in place, so the original
    /// of each row is kept in a ring of `radius + 1` rows until it leaves the window.
    private static func vertical(
        _ pixels: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int, radius: Int, multiplier: Int,
        sums: UnsafeMutableBufferPointer<Int>, ring: UnsafeMutableBufferPointer<UInt32>
    ) {
        let last = height - 1
        @inline(__always) func row(_ y: Int) -> UnsafeMutablePointer<UInt32> {
            (pixels + min(max(y, 0), last) * stride).assumingMemoryBound(to: UInt32.self)
        }
        for i in 0..<(width * 4) { sums[i] = 0 }
        for i in -radius...radius {
            let r = row(i)
            for x in 0..<width {
                let (a, cr, g, b) = channels(r[x])
                sums[4 * x] += a
                sums[4 * x + 1] += cr
                sums[4 * x + 2] += g
                sums[4 * x + 3] += b
            }
        }
        for y in 0..<height {
            let current = row(y)
            let slot = (y % (radius + 1)) * width
            for x in 0..<width {
                ring[slot + x] = current[x]
                current[x] = pack(sums[4 * x], sums[4 * x + 1], sums[4 * x + 2], sums[4 * x + 3], multiplier)
            }
            guard y < last else { break }
            // Row y - radius (clamped to 0) leaves the window; its original is still in the ring.
            let leaving = (max(y - radius, 0) % (radius + 1)) * width
            let entering = row(y + radius + 1)  // below y: still original
            for x in 0..<width {
                let (a1, r1, g1, b1) = channels(entering[x])
                let (a0, r0, g0, b0) = channels(ring[leaving + x])
                sums[4 * x] += a1 - a0
                sums[4 * x + 1] += r1 - r0
                sums[4 * x + 2] += g1 - g0
                sums[4 * x + 3] += b1 - b0
            }
        }
    }
}
