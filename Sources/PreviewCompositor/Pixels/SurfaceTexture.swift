import CPixman

/// A surface's pixels, copied out of the client's shm buffer at commit time, so the
/// buffer can be released at once and a client that truncates its pool cannot hurt
/// composition later (libwayland guards the copy itself with SIGBUS handling).
public final class SurfaceTexture {
    public let width: Int32
    public let height: Int32
    public let format: PixelFormat
    let image: OpaquePointer

    /// Nil when pixman cannot allocate (absurd sizes from a client).
    public init?(width: Int32, height: Int32, format: PixelFormat) {
        guard width > 0, height > 0, let image = pixman_image_create_bits(format.pixman, width, height, nil, 0) else {
            return nil
        }
        self.width = width
        self.height = height
        self.format = format
        self.image = image
    }

    deinit { pixman_image_unref(image) }

    /// Copies `rect` (buffer coordinates, clipped to the buffer) from client memory.
    public func upload(from data: UnsafeRawPointer, stride: Int32, rect: Rect) {
        guard let clipped = rect.intersection(Rect(x: 0, y: 0, width: width, height: height)) else { return }
        let source = pixman_image_create_bits_no_clear(
            format.pixman, width, height, UnsafeMutablePointer(mutating: data.assumingMemoryBound(to: UInt32.self)),
            stride)
        defer { pixman_image_unref(source) }
        pixman_image_composite32(
            PIXMAN_OP_SRC, source, nil, image, clipped.x, clipped.y, 0, 0, clipped.x, clipped.y, clipped.width,
            clipped.height)
    }

    /// Fills the whole texture with one colour (a8r8g8b8), for tests and placeholders.
    public func fill(argb: UInt32) {
        var colour = pixman_color_t(argb: argb)
        let solid = pixman_image_create_solid_fill(&colour)
        defer { pixman_image_unref(solid) }
        pixman_image_composite32(PIXMAN_OP_SRC, solid, nil, image, 0, 0, 0, 0, 0, 0, width, height)
    }
}

extension pixman_color_t {
    /// pixman colours are 16 bits per channel.
    init(argb: UInt32) {
        func channel(_ shift: UInt32) -> UInt16 { UInt16((argb >> shift) & 0xff) * 0x101 }
        self.init(red: channel(16), green: channel(8), blue: channel(0), alpha: channel(24))
    }
}
