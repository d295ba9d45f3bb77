import CPixman
import WaylandWindow

/// The virtual output's pixels. Damage accumulates between frames; a repaint redraws
/// only the damaged region (background, then every placed texture bottom to top).
/// Positions and damage are in the output's logical coordinates; the pixels are `scale` times
/// finer (an output of scale 2 has a 2× image, and a client's scale-2 buffer lands 1:1).
public final class Framebuffer {
    /// The image's size in pixels (logical size × scale).
    public let width: Int32
    public let height: Int32
    /// Pixels per logical unit (wl_output.scale).
    public let scale: Int32
    /// Opaque dark grey, so screenshots show where no surface is.
    public static let background: UInt32 = 0xff20_2020
    let image: OpaquePointer
    private let damage: UnsafeMutablePointer<pixman_region32_t>
    /// What the last repaint redrew: a window output sends only that to its parent.
    let repainted: UnsafeMutablePointer<pixman_region32_t>
    private let background: OpaquePointer

    public struct Placement {
        public var texture: SurfaceTexture
        public var x: Int32
        public var y: Int32
        /// Buffer pixels per output pixel (wl_surface.set_buffer_scale).
        public var scale: Int32
        /// At most this many logical rows from the top are drawn (nil: all), for what grows into view.
        public var shownHeight: Int32?
        public init(texture: SurfaceTexture, x: Int32, y: Int32, scale: Int32 = 1, shownHeight: Int32? = nil) {
            self.texture = texture
            self.x = x
            self.y = y
            self.scale = max(1, scale)
            self.shownHeight = shownHeight
        }
    }

    /// `width`×`height` logical units at `scale` (1...8).
    public init?(width: Int32, height: Int32, scale: Int32 = 1) {
        guard width > 0, height > 0, (1...8).contains(scale), width <= 16384, height <= 16384 else { return nil }
        let (pixelsWide, pixelsHigh) = (width * scale, height * scale)
        guard let image = pixman_image_create_bits(PIXMAN_x8r8g8b8, pixelsWide, pixelsHigh, nil, 0) else { return nil }
        self.width = pixelsWide
        self.height = pixelsHigh
        self.scale = scale
        self.image = image
        var colour = pixman_color_t(argb: Framebuffer.background)
        background = pixman_image_create_solid_fill(&colour)
        damage = .allocate(capacity: 1)
        pixman_region32_init_rect(damage, 0, 0, UInt32(width), UInt32(height))
        repainted = .allocate(capacity: 1)
        pixman_region32_init(repainted)
    }

    deinit {
        pixman_region32_fini(damage)
        damage.deallocate()
        pixman_region32_fini(repainted)
        repainted.deallocate()
        pixman_image_unref(background)
        pixman_image_unref(image)
    }

    /// The output in logical coordinates (what the scene lays out).
    public var bounds: Rect { Rect(x: 0, y: 0, width: width / scale, height: height / scale) }

    /// Damage in logical coordinates.
    public func addDamage(_ rect: Rect) {
        guard let clipped = rect.intersection(bounds) else { return }
        pixman_region32_union_rect(
            damage, damage, clipped.x * scale, clipped.y * scale, UInt32(clipped.width * scale),
            UInt32(clipped.height * scale))
    }

    public var hasDamage: Bool { pixman_region32_not_empty(damage) != 0 }

    /// The damaged area's bounding box in pixels (nil when nothing is damaged), for logs and tests.
    public var damageExtents: Rect? {
        guard hasDamage, let box = pixman_region32_extents(damage)?.pointee else { return nil }
        return Rect(x: box.x1, y: box.y1, width: box.x2 - box.x1, height: box.y2 - box.y1)
    }

    /// Redraws the damaged region from `placements` (bottom to top) and clears the damage.
    /// Returns false when there was nothing to redraw.
    @discardableResult
    public func repaint(_ placements: [Placement]) -> Bool {
        guard hasDamage else { return false }
        pixman_image_set_clip_region32(image, damage)
        pixman_image_composite32(PIXMAN_OP_SRC, background, nil, image, 0, 0, 0, 0, 0, 0, width, height)
        for placement in placements {
            let texture = placement.texture
            guard let held = texture.held, let pixels = texture.image else { continue }
            let bufferScale = placement.scale
            if bufferScale != scale {
                // A buffer of another scale than the output's: destination pixel d samples
                // d × bufferScale / scale (a scale-2 buffer on a scale-1 output is halved).
                var transform = pixman_transform()
                let factor = pixman_fixed_t(Int64(bufferScale) << 16 / Int64(scale))
                pixman_transform_init_scale(&transform, factor, factor)
                pixman_image_set_transform(pixels, &transform)
                pixman_image_set_filter(pixels, PIXMAN_FILTER_BILINEAR, nil, 0)
            }
            // The held part sits at its offset inside the buffer.
            var height = held.height * scale / bufferScale
            if let shown = placement.shownHeight {
                height = max(0, min(height, shown * scale - held.y * scale / bufferScale))
            }
            pixman_image_composite32(
                PIXMAN_OP_OVER, pixels, nil, image, 0, 0, 0, 0, placement.x * scale + held.x * scale / bufferScale,
                placement.y * scale + held.y * scale / bufferScale, held.width * scale / bufferScale, height)
            if bufferScale != scale { pixman_image_set_transform(pixels, nil) }
        }
        pixman_image_set_clip_region32(image, nil)
        pixman_region32_copy(repainted, damage)
        pixman_region32_clear(damage)
        return true
    }

    /// The image, for an output that shows it elsewhere (a window copies it into its buffers).
    var pixels: FramePixels { FramePixels(image: image, width: width, height: height) }

    /// What the last repaint redrew, in pixels (nil: nothing): an output that shows the frame
    /// elsewhere copies only that.
    public var repaintedExtents: Rect? {
        guard pixman_region32_not_empty(repainted) != 0, let box = pixman_region32_extents(repainted)?.pointee
        else { return nil }
        return Rect(x: box.x1, y: box.y1, width: box.x2 - box.x1, height: box.y2 - box.y1)
    }

    /// The pixels, for an output backend that shows them elsewhere: `height` rows of `stride`
    /// XRGB8888 pixels (the top byte is not alpha), readable only inside `body`.
    public func withRows<R>(_ body: (_ pixels: UnsafeBufferPointer<UInt32>, _ stride: Int) throws -> R) rethrows -> R {
        let stride = Int(pixman_image_get_stride(image)) / 4
        return try body(UnsafeBufferPointer(start: pixman_image_get_data(image), count: stride * Int(height)), stride)
    }

    /// One pixel as 0xAARRGGBB (alpha forced opaque: the output has none).
    public func pixel(x: Int32, y: Int32) -> UInt32 {
        precondition(x >= 0 && y >= 0 && x < width && y < height, "pixel outside the framebuffer")
        let stride = Int(pixman_image_get_stride(image)) / 4
        let data = pixman_image_get_data(image)!
        return data[Int(y) * stride + Int(x)] | 0xff00_0000
    }
}
