import CCairo
import CWaylandClient
import SystemLayer

/// One wl_shm buffer with a cairo image surface over the same memory.
final class ShmBuffer {
    let width: Int32
    let height: Int32
    let buffer: OpaquePointer
    let cairoSurface: OpaquePointer
    /// The pixels' memory, shared with the compositor; unmapped with the buffer.
    private let memory: SharedMemory.Region
    /// Attached and not yet released by the compositor: must not be drawn into.
    var busy = false

    init?(shm: OpaquePointer, width: Int32, height: Int32, listenerData: UnsafeMutableRawPointer) {
        let stride = cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, width)
        // Cairo's ARGB32 is premultiplied native-endian ARGB: wl_shm's ARGB8888 on little-endian.
        guard let memory = try? SharedMemory.Region(length: Int(stride) * Int(height)),
            let buffer = cwlc_shm_buffer_create(
                shm, memory.file.rawValue, Int32(memory.mapping.length), width, height, stride,
                UInt32(WL_SHM_FORMAT_ARGB8888.rawValue))
        else { return nil }
        wl_buffer_add_listener(buffer, &bufferListener, listenerData)
        self.width = width
        self.height = height
        self.buffer = buffer
        self.cairoSurface = cairo_image_surface_create_for_data(
            memory.mapping.base.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, width, height, stride)
        self.memory = memory
    }

    func destroy() {
        cairo_surface_destroy(cairoSurface)
        wl_buffer_destroy(buffer)
    }
}

/// Double buffering: at most two buffers; one is drawn while the compositor holds the other.
struct BufferPool {
    private(set) var buffers: [ShmBuffer] = []

    /// A free buffer of this size, made if needed; nil while both are held by the compositor.
    mutating func acquire(
        shm: OpaquePointer, width: Int32, height: Int32, listenerData: UnsafeMutableRawPointer
    ) -> ShmBuffer? {
        // Buffers of an old size are dropped once free (after a resize or a scale change).
        buffers.removeAll { buffer in
            guard !buffer.busy, buffer.width != width || buffer.height != height else { return false }
            buffer.destroy()
            return true
        }
        if let free = buffers.first(where: { !$0.busy }) { return free }
        guard buffers.count < 2,
            let made = ShmBuffer(shm: shm, width: width, height: height, listenerData: listenerData)
        else { return nil }
        buffers.append(made)
        return made
    }

    func buffer(for proxy: OpaquePointer?) -> ShmBuffer? { buffers.first { $0.buffer == proxy } }

    mutating func destroyAll() {
        for buffer in buffers { buffer.destroy() }
        buffers.removeAll()
    }
}
