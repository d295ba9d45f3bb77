import CCairo

/// A PNG read back through cairo: size and RGB pixels (the alpha dropped), for the tests that
/// look at screenshots.
public struct Picture: Equatable, Sendable {
    public var width: Int
    public var height: Int
    public var pixels: [UInt32]

    public init?(path: String) {
        let surface = cairo_image_surface_create_from_png(path)
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else { return nil }
        width = Int(cairo_image_surface_get_width(surface))
        height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface) else { return nil }
        var pixels: [UInt32] = []
        pixels.reserveCapacity(width * height)
        for y in 0..<height {
            let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width { pixels.append(row[x] & 0xFF_FFFF) }
        }
        self.pixels = pixels
    }

    /// Mean absolute per-channel difference (0...255) inside a rectangle.
    public func difference(from other: Picture, x: Int = 0, y: Int = 0, width w: Int? = nil, height h: Int? = nil)
        -> Double
    {
        let w = min(w ?? width, width - x, other.width - x)
        let h = min(h ?? height, height - y, other.height - y)
        guard w > 0, h > 0 else { return 0 }
        var total = 0
        for row in y..<(y + h) {
            for column in x..<(x + w) {
                let a = pixels[row * width + column]
                let b = other.pixels[row * other.width + column]
                for shift: UInt32 in [0, 8, 16] {
                    total += abs(Int((a >> shift) & 0xFF) - Int((b >> shift) & 0xFF))
                }
            }
        }
        return Double(total) / Double(w * h * 3)
    }

    /// Mean brightness (0...255) inside a rectangle.
    public func brightness(x: Int = 0, y: Int = 0, width w: Int? = nil, height h: Int? = nil) -> Double {
        let w = min(w ?? width, width - x)
        let h = min(h ?? height, height - y)
        guard w > 0, h > 0 else { return 0 }
        var total = 0
        for row in y..<(y + h) {
            for column in x..<(x + w) {
                let pixel = pixels[row * width + column]
                total += Int((pixel >> 16) & 0xFF) + Int((pixel >> 8) & 0xFF) + Int(pixel & 0xFF)
            }
        }
        return Double(total) / Double(w * h * 3)
    }

    /// How many pixels are within `tolerance` per channel of `rgb`.
    public func count(near rgb: UInt32, tolerance: Int = 12) -> Int {
        var matches = 0
        for pixel in pixels {
            var close = true
            for shift: UInt32 in [0, 8, 16]
            where abs(Int((pixel >> shift) & 0xFF) - Int((rgb >> shift) & 0xFF)) > tolerance {
                close = false
            }
            if close { matches += 1 }
        }
        return matches
    }
}
