import CPixman

/// A surface's pixels, copied out of the client's shm buffer at commit time, so the
/// buffer can be released at once and a client that truncates its pool cannot hurt
/// composition later (libwayland guards the copy itself with SIGBUS handling).
///
/// Only the part of the buffer that can be shown is held (`held`, in buffer pixels): a client
/// may commit a buffer far larger than the output (GTK 3 sizes a window to its content, so a
/// long label gives a 1280×8317 buffer), and the work of a commit stays bounded by the output.
public final class SurfaceTexture {
    /// The whole buffer's size: the surface's size comes from it, not from what is held.
    public let width: Int32
    public let height: Int32
    public let format: PixelFormat
    /// The part of the buffer whose pixels are held (buffer coordinates; nil: none is shown).
    public let held: Rect?
    /// `held`'s pixels, its top left at `held`'s origin (nil when nothing is held).
    let image: OpaquePointer?

    /// The whole buffer held. Nil when pixman cannot allocate.
    public convenience init?(width: Int32, height: Int32, format: PixelFormat) {
        self.init(width: width, height: height, format: format, holding: Rect(x: 0, y: 0, width: width, height: height))
    }

    /// A `width`×`height` buffer of which only `shown` (buffer coordinates, clipped to the
    /// buffer; nil or outside: nothing) is held. Nil when pixman cannot allocate.
    public init?(width: Int32, height: Int32, format: PixelFormat, holding shown: Rect?) {
        guard width > 0, height > 0 else { return nil }
        let held = shown?.intersection(Rect(x: 0, y: 0, width: width, height: height))
        if let held {
            guard let image = pixman_image_create_bits(format.pixman, held.width, held.height, nil, 0) else {
                return nil
            }
            self.image = image
        } else {
            image = nil
        }
        self.width = width
        self.height = height
        self.format = format
        self.held = held
    }

    deinit { if let image { pixman_image_unref(image) } }

    /// Copies `rect` (buffer coordinates, clipped to what is held) from client memory: a
    /// `width`×`height` buffer of `stride` bytes per row.
    public func upload(from data: UnsafeRawPointer, stride: Int32, rect: Rect) {
        guard let held, let image, let clipped = rect.intersection(held) else { return }
        let source = pixman_image_create_bits_no_clear(
            format.pixman, width, height, UnsafeMutablePointer(mutating: data.assumingMemoryBound(to: UInt32.self)),
            stride)
        defer { pixman_image_unref(source) }
        pixman_image_composite32(
            PIXMAN_OP_SRC, source, nil, image, clipped.x, clipped.y, 0, 0, clipped.x - held.x, clipped.y - held.y,
            clipped.width, clipped.height)
    }

    /// Fills what is held with one colour (a8r8g8b8), for tests and placeholders.
    public func fill(argb: UInt32) {
        guard let held, let image else { return }
        var colour = pixman_color_t(argb: argb)
        let solid = pixman_image_create_solid_fill(&colour)
        defer { pixman_image_unref(solid) }
        pixman_image_composite32(PIXMAN_OP_SRC, solid, nil, image, 0, 0, 0, 0, 0, 0, held.width, held.height)
    }
}

extension pixman_color_t {
    /// pixman colours are 16 bits per channel.
    init(argb: UInt32) {
        func channel(_ shift: UInt32) -> UInt16 { UInt16((argb >> shift) & 0xff) * 0x101 }
        self.init(red: channel(16), green: channel(8), blue: channel(0), alpha: channel(24))
    }
}
