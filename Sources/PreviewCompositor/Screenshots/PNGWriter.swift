import CPNG
import CPixman

public struct ScreenshotError: Error, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "cannot write screenshot \(path): \(reason)" }
}

extension Framebuffer {
    /// Writes the current pixels as an opaque PNG. libpng's simplified API reports errors
    /// through the image struct instead of longjmp, which Swift cannot survive.
    public func writePNG(to path: String) throws(ScreenshotError) {
        var png = png_image()
        png.version = cpng_image_version()
        png.width = UInt32(width)
        png.height = UInt32(height)
        // x8r8g8b8 little-endian is B,G,R,X in memory; the X byte is written as alpha,
        // so force it opaque in a copy rather than trusting pixman left 0xff there.
        png.format = cpng_format_bgra()
        // Speed over size: phase screenshots are taken while clients wait for the compositor.
        png.flags = UInt32(PNG_IMAGE_FLAG_FAST)
        let stride = Int(pixman_image_get_stride(image))
        let count = stride / 4 * Int(height)
        let source = pixman_image_get_data(image)!
        var pixels = [UInt32](unsafeUninitializedCapacity: count) { buffer, initialised in
            for index in 0..<count { buffer[index] = source[index] | 0xff00_0000 }
            initialised = count
        }
        let ok = pixels.withUnsafeMutableBytes { bytes in
            png_image_write_to_file(&png, path, 0, bytes.baseAddress, Int32(stride), nil)
        }
        if ok == 0 {
            let message = withUnsafeBytes(of: png.message) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            png_image_free(&png)
            throw ScreenshotError(path: path, reason: message.isEmpty ? "libpng failed" : message)
        }
    }
}
