import CPixman
import Foundation
import PreviewCompositor
import PreviewEngine
import SystemLayer
import Testing
import WaylandWindow
import _FixtureTestSupport

/// The nested window's frames against a real parent (our compositor in-process): each frame is
/// one wl_shm buffer, written only where the frame changed, paced by the parent's frame callbacks.
@Suite("The window's wl_shm buffers: small damage, small copy")
struct ShmSwapchainTests {
    /// Reads the parent's events until `condition` holds (at most 10 s).
    static func pump(_ connection: ParentConnection, until condition: () -> Bool) -> Bool {
        let deadline = MonotonicTime.microseconds() + 10_000_000
        while MonotonicTime.microseconds() < deadline {
            if condition() { return true }
            connection.flush()
            var poller = pollfd(fd: connection.fileDescriptor, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 100) > 0 { connection.readEvents() }
        }
        return false
    }

    @Test("After the first frames, a 10×10 change copies 10×10 pixels into the next buffer, not the window")
    func smallDamageCopiesLittle() throws {
        _ = TestRuntimeDirectory.path
        var configuration = CompositorConfiguration()
        configuration.socketName = "wayland-swapchain-test-\(CurrentProcess.id)"
        let parent = try CompositorThread(configuration: configuration)
        defer { parent.stop() }
        let connection = try ParentConnection(display: parent.socketName, clock: { Timestamp(microseconds: 0) })
        defer { connection.destroy() }
        let window = try ParentWindow(connection: connection, preferredSize: (320, 200), title: "swapchain test")
        defer { window.destroy() }
        // The parent tiles its one window over its whole output.
        #expect(window.size == (1280, 800))
        let (width, height) = window.size
        let image = try #require(pixman_image_create_bits(PIXMAN_x8r8g8b8, width, height, nil, 0))
        defer { pixman_image_unref(image) }
        let damage = UnsafeMutablePointer<pixman_region32_t>.allocate(capacity: 1)
        pixman_region32_init(damage)
        defer {
            pixman_region32_fini(damage)
            damage.deallocate()
        }

        func frame(_ x: Int32, _ y: Int32, _ w: Int32, _ h: Int32) -> Int {
            let before = window.bytesCopied
            pixman_region32_fini(damage)
            pixman_region32_init_rect(damage, x, y, UInt32(w), UInt32(h))
            window.framePainted(damage: damage)
            let pixels = FramePixels(image: image, width: width, height: height)
            #expect(Self.pump(connection) { window.present(pixels) }, "no free buffer or no frame callback")
            return window.bytesCopied - before
        }

        let full = Int(width * height * 4)
        #expect(frame(0, 0, width, height) == full, "the first buffer is written whole")
        // Our compositor copies and releases a buffer at commit: the same buffer comes back
        // lacking only what changed since it was written.
        let small = frame(100, 100, 10, 10)
        #expect(small == 10 * 10 * 4, "copied \(small) bytes for a 10×10 change (the window is \(full))")
        let moved = frame(300, 200, 20, 5)
        #expect(moved == 20 * 5 * 4, "copied \(moved) bytes for a 20×5 change")
        #expect(window.waitingForParentFrame, "each frame waits for the parent's frame callback")
    }
}
