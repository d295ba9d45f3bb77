import CWaylandServer
import WaylandServer

/// The globals the compositor advertises, and libwayland's wl_shm with its stride check: kept
/// until the compositor goes.
final class WaylandGlobals {
    private let display: Display
    private var globals: [Global] = []
    /// wl_shm_pool.create_buffer's stride check (a protocol logger on the display).
    private var shmStrideCheck: OpaquePointer?

    init(display: Display) { self.display = display }

    /// Advertises `interface` at `version`; `bind` makes the client's resource.
    func add(
        _ interface: UnsafePointer<wl_interface>, _ version: Int32, _ bind: @escaping (Client, UInt32, UInt32) -> Void
    ) {
        if let global = Global(display: display, interface: interface, version: version, onBind: bind) {
            globals.append(global)
        }
    }

    /// libwayland's own wl_shm (pools, buffers, SIGBUS protection; ARGB8888 and XRGB8888), and
    /// a check that a buffer's stride holds its width (libwayland checks only that it fits).
    func addShm() {
        wl_display_init_shm(display.raw)
        shmStrideCheck = cwl_display_add_shm_stride_check(display.raw)
    }

    func removeAll() {
        globals.removeAll()
        if let shmStrideCheck { wl_protocol_logger_destroy(shmStrideCheck) }
        shmStrideCheck = nil
    }
}
