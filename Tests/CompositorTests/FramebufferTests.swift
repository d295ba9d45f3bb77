import CPNG
import Glibc
import PreviewCompositor
import Testing

@Suite struct FramebufferTests {
    @Test func repaintDrawsBackgroundThenSurfacesAndClearsDamage() throws {
        let framebuffer = try #require(Framebuffer(width: 64, height: 48))
        #expect(framebuffer.hasDamage, "a new output is fully damaged")
        let red = try #require(SurfaceTexture(width: 10, height: 10, format: .xrgb8888))
        red.fill(argb: 0xffff_0000)
        #expect(framebuffer.repaint([.init(texture: red, x: 5, y: 5)]))
        #expect(!framebuffer.hasDamage)
        #expect(framebuffer.pixel(x: 5, y: 5) == 0xffff_0000)
        #expect(framebuffer.pixel(x: 14, y: 14) == 0xffff_0000)
        #expect(framebuffer.pixel(x: 15, y: 15) == Framebuffer.background)
        #expect(!framebuffer.repaint([]), "nothing damaged, nothing redrawn")
    }

    @Test func aTextureHoldingPartOfItsBufferDrawsThatPartAtItsOffset() throws {
        let framebuffer = try #require(Framebuffer(width: 64, height: 48))
        // A 20×4000 buffer of which rows 100..<120 are held, at buffer scale 1 and 2.
        for scale: Int32 in [1, 2] {
            let texture = try #require(
                SurfaceTexture(
                    width: 20, height: 4000, format: .xrgb8888, holding: Rect(x: -5, y: 100, width: 40, height: 20)))
            #expect(texture.held == Rect(x: 0, y: 100, width: 20, height: 20))
            texture.fill(argb: 0xff00_ff00)
            framebuffer.addDamage(framebuffer.bounds)
            framebuffer.repaint([.init(texture: texture, x: 2, y: -90 / scale, scale: scale)])
            let top = -90 / scale + 100 / scale
            #expect(framebuffer.pixel(x: 3, y: top) == 0xff00_ff00, "scale \(scale)")
            #expect(framebuffer.pixel(x: 3, y: top - 1) == Framebuffer.background, "scale \(scale)")
            #expect(framebuffer.pixel(x: 3, y: top + 20 / scale) == Framebuffer.background, "scale \(scale)")
        }
        let nothing = try #require(
            SurfaceTexture(width: 20, height: 20, format: .xrgb8888, holding: Rect(x: 50, y: 50, width: 5, height: 5)))
        #expect(nothing.held == nil)
        framebuffer.addDamage(framebuffer.bounds)
        framebuffer.repaint([.init(texture: nothing, x: 0, y: 0)])
    }

    @Test func repaintTouchesOnlyTheDamagedRegion() throws {
        let framebuffer = try #require(Framebuffer(width: 64, height: 48))
        let blue = try #require(SurfaceTexture(width: 64, height: 48, format: .argb8888))
        blue.fill(argb: 0xff00_00ff)
        framebuffer.repaint([.init(texture: blue, x: 0, y: 0)])
        // Only 4x4 at (10,10) is damaged: the surface vanishing shows only there.
        framebuffer.addDamage(Rect(x: 10, y: 10, width: 4, height: 4))
        #expect(framebuffer.damageExtents == Rect(x: 10, y: 10, width: 4, height: 4))
        framebuffer.repaint([])
        #expect(framebuffer.pixel(x: 11, y: 11) == Framebuffer.background)
        #expect(framebuffer.pixel(x: 20, y: 20) == 0xff00_00ff)
    }

    @Test func transparentArgbLayerLeavesWhatIsBelow() throws {
        let framebuffer = try #require(Framebuffer(width: 8, height: 8))
        let white = try #require(SurfaceTexture(width: 8, height: 8, format: .xrgb8888))
        white.fill(argb: 0xffff_ffff)
        let clear = try #require(SurfaceTexture(width: 8, height: 8, format: .argb8888))
        clear.fill(argb: 0x0000_0000)
        framebuffer.repaint([.init(texture: white, x: 0, y: 0), .init(texture: clear, x: 0, y: 0)])
        #expect(framebuffer.pixel(x: 3, y: 3) == 0xffff_ffff)
    }

    @Test func bufferScaleTwoIsDrawnAtHalfSize() throws {
        let framebuffer = try #require(Framebuffer(width: 32, height: 32))
        let green = try #require(SurfaceTexture(width: 20, height: 20, format: .xrgb8888))
        green.fill(argb: 0xff00_ff00)
        framebuffer.repaint([.init(texture: green, x: 0, y: 0, scale: 2)])
        #expect(framebuffer.pixel(x: 8, y: 8) == 0xff00_ff00)
        #expect(framebuffer.pixel(x: 12, y: 12) == Framebuffer.background)
    }

    @Test func uploadCopiesOnlyTheDamagedRectangle() throws {
        let texture = try #require(SurfaceTexture(width: 4, height: 4, format: .xrgb8888))
        texture.fill(argb: 0xff00_0000)
        let client = [UInt32](repeating: 0xffff_ffff, count: 16)
        client.withUnsafeBytes {
            texture.upload(from: $0.baseAddress!, stride: 16, rect: Rect(x: 1, y: 1, width: 2, height: 1))
        }
        let framebuffer = try #require(Framebuffer(width: 4, height: 4))
        framebuffer.repaint([.init(texture: texture, x: 0, y: 0)])
        #expect(framebuffer.pixel(x: 1, y: 1) == 0xffff_ffff)
        #expect(framebuffer.pixel(x: 2, y: 1) == 0xffff_ffff)
        #expect(framebuffer.pixel(x: 3, y: 1) == 0xff00_0000)
        #expect(framebuffer.pixel(x: 1, y: 2) == 0xff00_0000)
    }

    @Test func pngRoundTripsThroughLibpng() throws {
        let framebuffer = try #require(Framebuffer(width: 16, height: 8))
        let red = try #require(SurfaceTexture(width: 8, height: 8, format: .xrgb8888))
        red.fill(argb: 0xffff_0000)
        framebuffer.repaint([.init(texture: red, x: 8, y: 0)])
        let path = temporaryPath("roundtrip.png")
        try framebuffer.writePNG(to: path)
        let pixels = try readPNG(path)
        #expect(pixels.width == 16 && pixels.height == 8)
        #expect(pixels.argb(x: 0, y: 0) == Framebuffer.background)
        #expect(pixels.argb(x: 12, y: 4) == 0xffff_0000)
    }

    @Test func unwritablePngPathIsAnErrorNotACrash() throws {
        let framebuffer = try #require(Framebuffer(width: 4, height: 4))
        #expect(throws: ScreenshotError.self) { try framebuffer.writePNG(to: "/nonexistent-dir/x.png") }
    }
}

/// An independent reader (libpng's simplified API) so the test does not trust our writer.
struct DecodedPNG {
    var width: Int
    var height: Int
    var bgra: [UInt8]
    func argb(x: Int, y: Int) -> UInt32 {
        let i = (y * width + x) * 4
        return UInt32(bgra[i + 3]) << 24 | UInt32(bgra[i + 2]) << 16 | UInt32(bgra[i + 1]) << 8 | UInt32(bgra[i])
    }
}

struct PNGReadError: Error { var message: String }

func readPNG(_ path: String) throws -> DecodedPNG {
    var image = png_image()
    image.version = cpng_image_version()
    guard png_image_begin_read_from_file(&image, path) != 0 else { throw PNGReadError(message: "cannot open \(path)") }
    image.format = cpng_format_bgra()
    let width = Int(image.width)
    let height = Int(image.height)
    var buffer = [UInt8](repeating: 0, count: width * height * 4)
    let ok = buffer.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, Int32(width * 4), nil) }
    guard ok != 0 else { throw PNGReadError(message: "cannot decode \(path)") }
    return DecodedPNG(width: width, height: height, bgra: buffer)
}

func temporaryPath(_ name: String) -> String {
    let directory = "/tmp/compositor-tests-\(getpid())"
    mkdir(directory, 0o755)
    return directory + "/" + name
}
