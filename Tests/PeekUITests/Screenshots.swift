import CCairo
import Glibc
import PeekUI

// Test support: render a model to an image, save it where a person can look at it, read PNGs back
// through cairo and compare them with a tolerance.

enum Screenshots {
    /// .build/peek-client-screenshots in the package, so the pictures survive the test run.
    static let directory: String = {
        let file = #filePath  // …/Tests/PeekUITests/Screenshots.swift
        let root = file.split(separator: "/").dropLast(3).joined(separator: "/")
        let dir = "/" + root + "/.build/peek-client-screenshots"
        mkdir(dir)
        return dir
    }()

    static let fixtures: String = {
        let file = #filePath
        return "/" + file.split(separator: "/").dropLast(2).joined(separator: "/") + "/Fixtures/peek-client"
    }()

    private static func mkdir(_ path: String) {
        var partial = ""
        for component in path.split(separator: "/") {
            partial += "/" + component
            _ = Glibc.mkdir(partial, 0o755)
        }
    }
}

/// An ARGB32 image owned by Swift, with pixel access in device pixels.
final class Image {
    let surface: OpaquePointer
    var width: Int { Int(cairo_image_surface_get_width(surface)) }
    var height: Int { Int(cairo_image_surface_get_height(surface)) }

    init(surface: OpaquePointer) { self.surface = surface }

    /// Renders `model` at `now` with a fresh renderer.
    convenience init(_ model: PeekModel, at now: Double = 0, theme: Theme = .light, scale: Int = 1) {
        let surface = PeekRenderer.makeSurface(size: model.size, scale: scale)
        PeekRenderer(theme: theme).render(model, at: now, into: surface, scale: scale)
        self.init(surface: surface)
    }

    /// Reads a PNG back through cairo; nil if it is missing or unreadable.
    static func load(png path: String) -> Image? {
        guard let surface = cairo_image_surface_create_from_png(path),
            cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
        else { return nil }
        // PNGs without alpha load as RGB24; compare in one format.
        let image = Image(
            surface: cairo_image_surface_create(
                CAIRO_FORMAT_ARGB32, cairo_image_surface_get_width(surface), cairo_image_surface_get_height(surface)))
        let cr = cairo_create(image.surface)
        cairo_set_source_surface(cr, surface, 0, 0)
        cairo_paint(cr)
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
        cairo_surface_flush(image.surface)
        return image
    }

    deinit { cairo_surface_destroy(surface) }

    @discardableResult
    func save(_ name: String) -> String {
        let path = Screenshots.directory + "/" + name + ".png"
        cairo_surface_write_to_png(surface, path)
        return path
    }

    /// (r, g, b) of the pixel at device coordinates, 0...255, un-premultiplied (images are opaque).
    func pixel(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        let p = UnsafeRawPointer(data + y * stride + x * 4).load(as: UInt32.self)
        return (Int((p >> 16) & 0xff), Int((p >> 8) & 0xff), Int(p & 0xff))
    }

    func luminance(_ x: Int, _ y: Int) -> Double {
        let p = pixel(x, y)
        return 0.2126 * Double(p.r) + 0.7152 * Double(p.g) + 0.0722 * Double(p.b)
    }

    /// Mean absolute difference of luminance between horizontally adjacent pixels in a rectangle
    /// (device pixels): high for sharp content, low once blurred.
    func sharpness(_ rect: Rect, scale: Int = 1) -> Double {
        let x0 = max(0, Int(rect.x * Double(scale)))
        let y0 = max(0, Int(rect.y * Double(scale)))
        let x1 = min(width - 1, Int(rect.maxX * Double(scale)))
        let y1 = min(height - 1, Int(rect.maxY * Double(scale)))
        var total = 0.0
        var count = 0
        for y in y0..<y1 {
            for x in x0..<(x1 - 1) {
                total += abs(luminance(x + 1, y) - luminance(x, y)) + abs(luminance(x, y + 1) - luminance(x, y))
                count += 1
            }
        }
        return count == 0 ? 0 : total / Double(count)
    }

    /// Mean colour of a rectangle in logical pixels.
    func mean(_ rect: Rect, scale: Int = 1) -> (r: Double, g: Double, b: Double) {
        let x0 = max(0, Int(rect.x * Double(scale)))
        let y0 = max(0, Int(rect.y * Double(scale)))
        let x1 = min(width, Int(rect.maxX * Double(scale)))
        let y1 = min(height, Int(rect.maxY * Double(scale)))
        var (r, g, b, n) = (0.0, 0.0, 0.0, 0.0)
        for y in y0..<y1 {
            for x in x0..<x1 {
                let p = pixel(x, y)
                r += Double(p.r)
                g += Double(p.g)
                b += Double(p.b)
                n += 1
            }
        }
        return n == 0 ? (0, 0, 0) : (r / n, g / n, b / n)
    }

    struct Difference {
        var meanError: Double
        /// Share of pixels whose largest channel difference exceeds the per-pixel tolerance.
        var differingShare: Double
    }

    /// Compares with a reference image of the same size: per-pixel tolerance absorbs antialiasing
    /// and font-rasteriser differences; the share of differing pixels catches real changes.
    func difference(from other: Image, pixelTolerance: Int = 24) -> Difference? {
        guard width == other.width, height == other.height else { return nil }
        var total = 0
        var differing = 0
        for y in 0..<height {
            for x in 0..<width {
                let a = pixel(x, y)
                let b = other.pixel(x, y)
                let d = max(abs(a.r - b.r), abs(a.g - b.g), abs(a.b - b.b))
                total += abs(a.r - b.r) + abs(a.g - b.g) + abs(a.b - b.b)
                if d > pixelTolerance { differing += 1 }
            }
        }
        let n = Double(width * height)
        return Difference(meanError: Double(total) / (3 * n), differingShare: Double(differing) / n)
    }
}
