import CPixman
internal import CWaylandClient
import SystemLayer

/// Our framebuffer presented through wl_shm buffers on the parent's surface. Each buffer
/// remembers what it lacks (the damage of every frame since it was last written), so a frame
/// copies only what changed into the buffer it reuses, and the parent is told only the frame's
/// damage (`damage_buffer`): a blinking caret costs a few hundred bytes, not a whole window.
/// Two buffers in the steady state (one shown, one written); a third when the parent holds
/// both, never more.
final class ShmSwapchain {
    final class Buffer {
        let proxy: OpaquePointer
        let width: Int32
        let height: Int32
        let image: OpaquePointer
        /// What this buffer lacks compared with the framebuffer.
        let stale: UnsafeMutablePointer<pixman_region32_t>
        /// The pixels' memory, shared with the parent; unmapped with the buffer.
        private let memory: SharedMemory.Region
        /// Attached and not yet released by the parent: must not be written.
        var busy = false

        init?(shm: OpaquePointer, width: Int32, height: Int32) {
            let stride = width * 4
            guard let memory = try? SharedMemory.Region(length: Int(stride) * Int(height)),
                let proxy = cwlc_shm_buffer_create(
                    shm, memory.file.rawValue, Int32(memory.mapping.length), width, height, stride,
                    WL_SHM_FORMAT_XRGB8888.rawValue),
                let image = pixman_image_create_bits(
                    PIXMAN_x8r8g8b8, width, height, memory.mapping.base.assumingMemoryBound(to: UInt32.self), stride)
            else { return nil }
            self.proxy = proxy
            self.width = width
            self.height = height
            self.image = image
            self.memory = memory
            stale = .allocate(capacity: 1)
            pixman_region32_init_rect(stale, 0, 0, UInt32(width), UInt32(height))
        }

        func destroy() {
            wl_buffer_destroy(proxy)
            pixman_image_unref(image)
            pixman_region32_fini(stale)
            stale.deallocate()
        }
    }

    private let shm: OpaquePointer
    private(set) var buffers: [Buffer] = []
    /// Damage not yet sent to the parent (frames painted while every buffer was held).
    private let unsent: UnsafeMutablePointer<pixman_region32_t>
    /// The size of the buffer last attached (a new size damages everything).
    private var attachedSize: (Int32, Int32)?
    static let maximumBuffers = 3
    /// Bytes copied into buffers so far (tests check that a small change copies little).
    private(set) var bytesCopied = 0
    /// Called with a buffer's proxy to add the release listener (the listener lives with the window).
    var onBufferCreated: ((OpaquePointer) -> Void)?

    init(shm: OpaquePointer) {
        self.shm = shm
        unsent = .allocate(capacity: 1)
        pixman_region32_init(unsent)
    }

    deinit {
        destroyAll()
        pixman_region32_fini(unsent)
        unsent.deallocate()
    }

    func destroyAll() {
        for buffer in buffers { buffer.destroy() }
        buffers.removeAll()
    }

    /// The parent released a buffer.
    func released(_ proxy: OpaquePointer) {
        guard let buffer = buffers.first(where: { $0.proxy == proxy }) else { return }
        buffer.busy = false
    }

    /// Records a painted frame's damage (output pixels): every buffer lacks it now.
    func framePainted(damage: UnsafeMutablePointer<pixman_region32_t>) {
        pixman_region32_union(unsent, unsent, damage)
        for buffer in buffers { pixman_region32_union(buffer.stale, buffer.stale, damage) }
    }

    /// Brings a free buffer up to date with `framebuffer` and attaches it to `surface` with the
    /// unsent damage. Returns false when every buffer is held by the parent (try again at the
    /// next release or frame).
    func attach(_ framebuffer: FramePixels, to surface: OpaquePointer) -> Bool {
        let width = framebuffer.width
        let height = framebuffer.height
        // Buffers of an old size go once free (after a resize or a scale change).
        buffers.removeAll { buffer in
            guard !buffer.busy, buffer.width != width || buffer.height != height else { return false }
            buffer.destroy()
            return true
        }
        var chosen = buffers.first { !$0.busy && $0.width == width && $0.height == height }
        if chosen == nil, buffers.count < Self.maximumBuffers, let made = Buffer(shm: shm, width: width, height: height)
        {
            onBufferCreated?(made.proxy)
            buffers.append(made)
            chosen = made
        }
        guard let buffer = chosen else { return false }
        copy(from: framebuffer, into: buffer)
        wl_surface_attach(surface, buffer.proxy, 0, 0)
        if attachedSize.map({ $0 != (width, height) }) ?? true {
            wl_surface_damage_buffer(surface, 0, 0, width, height)
        } else {
            forEachBox(of: unsent) { box in
                wl_surface_damage_buffer(surface, box.x1, box.y1, box.x2 - box.x1, box.y2 - box.y1)
            }
        }
        attachedSize = (width, height)
        pixman_region32_clear(unsent)
        buffer.busy = true
        return true
    }

    private func copy(from framebuffer: FramePixels, into buffer: Buffer) {
        guard pixman_region32_not_empty(buffer.stale) != 0 else { return }
        forEachBox(of: buffer.stale) { box in bytesCopied += Int(box.x2 - box.x1) * Int(box.y2 - box.y1) * 4 }
        pixman_image_set_clip_region32(buffer.image, buffer.stale)
        pixman_image_composite32(
            PIXMAN_OP_SRC, framebuffer.image, nil, buffer.image, 0, 0, 0, 0, 0, 0, buffer.width, buffer.height)
        pixman_image_set_clip_region32(buffer.image, nil)
        pixman_region32_clear(buffer.stale)
    }

    private func forEachBox(of region: UnsafeMutablePointer<pixman_region32_t>, _ body: (pixman_box32_t) -> Void) {
        var count: Int32 = 0
        guard let boxes = pixman_region32_rectangles(region, &count) else { return }
        for index in 0..<Int(count) { body(boxes[index]) }
    }
}

/// The pixels of one painted frame: a pixman x8r8g8b8 image and its size in pixels.
public struct FramePixels {
    public var image: OpaquePointer
    public var width: Int32
    public var height: Int32

    public init(image: OpaquePointer, width: Int32, height: Int32) {
        self.image = image
        self.width = width
        self.height = height
    }
}
