import CPixman

/// The virtual output's pixels. Damage accumulates between frames; a repaint redraws
/// only the damaged region (background, then every placed texture bottom to top).
public final class Framebuffer {
    public let width: Int32
    public let height: Int32
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
        public init(texture: SurfaceTexture, x: Int32, y: Int32, scale: Int32 = 1) {
            self.texture = texture
            self.x = x
            self.y = y
            self.scale = max(1, scale)
        }
    }

    public init?(width: Int32, height: Int32) {
        guard width > 0, height > 0, let image = pixman_image_create_bits(PIXMAN_x8r8g8b8, width, height, nil, 0)
        else { return nil }
        self.width = width
        self.height = height
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

    public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    public func addDamage(_ rect: Rect) {
        guard let clipped = rect.intersection(bounds) else { return }
        pixman_region32_union_rect(damage, damage, clipped.x, clipped.y, UInt32(clipped.width), UInt32(clipped.height))
    }

    public var hasDamage: Bool { pixman_region32_not_empty(damage) != 0 }

    /// The damaged area's bounding box (nil when nothing is damaged), for logs and tests.
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
            let scale = placement.scale
            if scale != 1 {
                // Downscale HiDPI buffers to the scale-1 output: destination pixel d samples d*scale.
                var transform = pixman_transform()
                pixman_transform_init_scale(&transform, pixman_fixed_t(scale) << 16, pixman_fixed_t(scale) << 16)
                pixman_image_set_transform(texture.image, &transform)
                pixman_image_set_filter(texture.image, PIXMAN_FILTER_BILINEAR, nil, 0)
            }
            pixman_image_composite32(
                PIXMAN_OP_OVER, texture.image, nil, image, 0, 0, 0, 0, placement.x, placement.y,
                texture.width / scale, texture.height / scale)
            if scale != 1 { pixman_image_set_transform(texture.image, nil) }
        }
        pixman_image_set_clip_region32(image, nil)
        pixman_region32_copy(repainted, damage)
        pixman_region32_clear(damage)
        return true
    }

    /// One pixel as 0xAARRGGBB (alpha forced opaque: the output has none).
    public func pixel(x: Int32, y: Int32) -> UInt32 {
        precondition(x >= 0 && y >= 0 && x < width && y < height, "pixel outside the framebuffer")
        let stride = Int(pixman_image_get_stride(image)) / 4
        let data = pixman_image_get_data(image)!
        return data[Int(y) * stride + Int(x)] | 0xff00_0000
    }
}
