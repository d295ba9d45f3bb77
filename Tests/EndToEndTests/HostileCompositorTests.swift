import CWaylandServer
import Foundation
import Synchronization
import SystemLayer
import Testing
import WaylandServer
import _FixtureTestSupport
import _PreviewProtocolTestSupport

// The sample apps under a compositor that sends wire-valid but absurd numbers: a toplevel
// configure of 2147483647 × 2147483647 and an output scale of 2147483647. The apps clamp them
// (their buffers stay drawable) and never trap; minimal-preview-app says why it exits when the
// compositor goes away.

/// A compositor with just what a window needs (surfaces, wl_shm, xdg-shell, one wl_output),
/// on a thread of its own, that sends the numbers it is told to. It records each buffer a
/// client makes and drops the client once it has one.
final class HostileCompositor: @unchecked Sendable {  // the display is only used on its thread
    struct Numbers {
        var configure: (width: Int32, height: Int32) = (0, 0)
        var outputScale: Int32 = 1
    }

    static let numbers = Mutex(Numbers())
    /// The buffers clients made: width, height, stride.
    static let buffers = Mutex<[(Int32, Int32, Int32)]>([])
    /// A client made a buffer: it is dropped after this dispatch (never inside its request).
    static let dropClients = Atomic(false)
    /// Each client's wl_output (bit patterns), for wl_surface.enter.
    static let outputs = Mutex<[UInt: UInt]>([:])

    let socket: String
    private let display: Display
    private var globals: [Global] = []
    private let compositor: MiniCompositor
    private let stopped = Atomic(false)
    private let done = DispatchSemaphore(value: 0)

    init(_ numbers: Numbers) throws {
        _ = TestRuntimeDirectory.path
        Self.numbers.withLock { $0 = numbers }
        Self.buffers.withLock { $0 = [] }
        Self.outputs.withLock { $0 = [:] }
        Self.dropClients.store(false, ordering: .relaxed)
        display = try Display()
        socket = try display.addSocket("hostile-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        compositor = try MiniCompositor(display: display)
        let add = {
            [display]
            (interface: UnsafePointer<wl_interface>, version: Int32, bind: @escaping (Client, UInt32, UInt32) -> Void)
            in
            Global(display: display, interface: interface, version: version, onBind: bind)
        }
        globals = [
            add(cwl_interface_wl_shm(), 1) { client, version, id in
                _ = Plain(client, cwl_interface_wl_shm(), version, id, shmImplementation)
            },
            add(cwl_interface_xdg_wm_base(), 1) { client, version, id in
                _ = Plain(client, cwl_interface_xdg_wm_base(), version, id, wmBaseImplementation)
            },
            add(cwl_interface_wl_output(), 2) { client, version, id in
                guard let output = Plain(client, cwl_interface_wl_output(), version, id, outputImplementation)?.resource
                else { return }
                wl_output_send_geometry(output, 0, 0, 300, 200, 0, "hostile", "hostile", 0)
                wl_output_send_mode(output, 3, 1280, 800, 60_000)
                wl_output_send_scale(output, Self.numbers.withLock { $0.outputScale })
                wl_output_send_done(output)
                Self.outputs.withLock { $0[UInt(bitPattern: client.raw)] = UInt(bitPattern: output) }
            },
        ].compactMap { $0 }
        Thread { [self] in
            while !stopped.load(ordering: .acquiring) {
                display.dispatch(timeoutMilliseconds: 20)
                display.flushClients()
                if Self.dropClients.exchange(false, ordering: .relaxed) {
                    // The client has drawn with the numbers it was given: the compositor goes away.
                    for client in display.clients { client.destroy() }
                }
            }
            display.destroy()
            done.signal()
        }.start()
    }

    func stop() {
        stopped.store(true, ordering: .releasing)
        done.wait()
    }
}

/// A resource whose requests need no state.
final class Plain: ResourceObject {
    init?(
        _ client: Client, _ interface: UnsafePointer<wl_interface>, _ version: UInt32, _ id: UInt32,
        _ implementation: UnsafeRawPointer
    ) {
        super.init(client: client, interface: interface, version: version, id: id, implementation: implementation)
    }
}

private func child(
    _ client: OpaquePointer?, _ resource: OpaquePointer?, _ interface: UnsafePointer<wl_interface>, _ id: UInt32,
    _ implementation: UnsafeRawPointer
) -> OpaquePointer? {
    guard let client, let resource else { return nil }
    return Plain(Client(client), interface, UInt32(wl_resource_get_version(resource)), id, implementation)?.resource
}

nonisolated(unsafe) private let shmImplementation: UnsafeRawPointer = {
    var implementation = cwl_wl_shm_impl()
    implementation.create_pool = { client, resource, id, fd, _ in
        close(fd)  // never read: the test looks at the sizes only
        _ = child(client, resource, cwl_interface_wl_shm_pool(), id, poolImplementation)
    }
    return makeImplementation(implementation)
}()

nonisolated(unsafe) private let poolImplementation: UnsafeRawPointer = {
    var implementation = cwl_wl_shm_pool_impl()
    implementation.create_buffer = { client, resource, id, _, width, height, stride, _ in
        _ = child(client, resource, cwl_interface_wl_buffer(), id, bufferImplementation)
        HostileCompositor.buffers.withLock { $0.append((width, height, stride)) }
        HostileCompositor.dropClients.store(true, ordering: .relaxed)
    }
    implementation.destroy = destroyResourceRequest
    implementation.resize = { _, _, _ in }
    return makeImplementation(implementation)
}()

nonisolated(unsafe) private let bufferImplementation: UnsafeRawPointer = {
    var implementation = cwl_wl_buffer_impl()
    implementation.destroy = destroyResourceRequest
    return makeImplementation(implementation)
}()

nonisolated(unsafe) private let outputImplementation: UnsafeRawPointer = {
    var implementation = cwl_wl_output_impl()
    implementation.release = destroyResourceRequest
    return makeImplementation(implementation)
}()

nonisolated(unsafe) private let wmBaseImplementation: UnsafeRawPointer = {
    var implementation = cwl_xdg_wm_base_impl()
    implementation.destroy = destroyResourceRequest
    implementation.create_positioner = { client, _, _ in
        if let client { cwl_client_post_implementation_error(client, "no positioners here") }
    }
    implementation.get_xdg_surface = { client, resource, id, surface in
        _ = child(client, resource, cwl_interface_xdg_surface(), id, xdgSurfaceImplementation)
        // The window is on the output (and so at its scale) before its first configure.
        let output = HostileCompositor.outputs.withLock { $0[UInt(bitPattern: client)] }
        if let surface, let output, let pointer = OpaquePointer(bitPattern: output) {
            wl_surface_send_enter(surface, pointer)
        }
    }
    implementation.pong = { _, _, _ in }
    return makeImplementation(implementation)
}()

nonisolated(unsafe) private let xdgSurfaceImplementation: UnsafeRawPointer = {
    var implementation = cwl_xdg_surface_impl()
    implementation.destroy = destroyResourceRequest
    implementation.get_toplevel = { client, resource, id in
        guard let resource,
            let toplevel = child(client, resource, cwl_interface_xdg_toplevel(), id, toplevelImplementation)
        else { return }
        let size = HostileCompositor.numbers.withLock { $0.configure }
        var states = wl_array()
        wl_array_init(&states)
        xdg_toplevel_send_configure(toplevel, size.width, size.height, &states)
        wl_array_release(&states)
        xdg_surface_send_configure(resource, 1)
    }
    implementation.get_popup = { client, _, _, _, _ in
        if let client { cwl_client_post_implementation_error(client, "no popups here") }
    }
    implementation.set_window_geometry = { _, _, _, _, _, _ in }
    implementation.ack_configure = { _, _, _ in }
    return makeImplementation(implementation)
}()

nonisolated(unsafe) private let toplevelImplementation: UnsafeRawPointer = {
    var implementation = cwl_xdg_toplevel_impl()
    implementation.destroy = destroyResourceRequest
    implementation.set_parent = { _, _, _ in }
    implementation.set_title = { _, _, _ in }
    implementation.set_app_id = { _, _, _ in }
    implementation.show_window_menu = { _, _, _, _, _, _ in }
    implementation.move = { _, _, _, _ in }
    implementation.resize = { _, _, _, _, _ in }
    implementation.set_max_size = { _, _, _, _ in }
    implementation.set_min_size = { _, _, _, _ in }
    implementation.set_maximized = { _, _ in }
    implementation.unset_maximized = { _, _ in }
    implementation.set_fullscreen = { _, _, _ in }
    implementation.unset_fullscreen = { _, _ in }
    implementation.set_minimized = { _, _ in }
    return makeImplementation(implementation)
}()

@Suite("The sample apps under a compositor sending absurd numbers", .serialized)
struct HostileCompositorTests {
    /// Runs `tool` on the compositor until it exits (the compositor drops it after its first
    /// buffer); its status, what it printed, and the buffers it made.
    static func run(_ tool: String, _ arguments: [String] = [], numbers: HostileCompositor.Numbers) throws
        -> (exited: Bool, status: Int32, output: String, buffers: [(Int32, Int32, Int32)])
    {
        let compositor = try HostileCompositor(numbers)
        defer { compositor.stop() }
        let run = try ChildProcess.run(
            [tools.directory + "/" + tool] + arguments, environment: ["WAYLAND_DISPLAY": compositor.socket],
            unsetting: ["WAYLAND_SOCKET"], errors: nil, timeout: 60)
        let exited = if case .exited = run.termination { true } else { false }
        let buffers = HostileCompositor.buffers.withLock { $0 }
        return (exited && !run.timedOut, run.timedOut ? -1 : run.status, run.output, buffers)
    }

    @Test("minimal-preview-app: a 2147483647 × 2147483647 configure is clamped; a lost compositor is said")
    func hugeConfigure() throws {
        let result = try Self.run(
            "minimal-preview-app", numbers: .init(configure: (Int32.max, Int32.max)))
        #expect(result.exited, "ended by a signal (a trap?): \(result.output)")
        let buffer = try #require(result.buffers.first, "no buffer drawn: \(result.output)")
        #expect(buffer.0 <= 4096 && buffer.1 <= 4096 && buffer.0 > 160 && buffer.2 >= buffer.0 * 4, "\(buffer)")
        #expect(result.status == 1)
        #expect(result.output.contains("the connection to the compositor was lost"), "\(result.output)")
    }

    @Test("peek-client: an output scale of 2147483647 is clamped")
    func hugeScale() throws {
        let result = try Self.run("peek-client", numbers: .init(configure: (0, 0), outputScale: Int32.max))
        #expect(result.exited, "ended by a signal (a trap?): \(result.output)")
        let buffer = try #require(result.buffers.last, "no buffer drawn: \(result.output)")
        // 800 × 600 at the largest scale it takes (4).
        #expect(buffer.0 == 4 * 800 && buffer.1 == 4 * 600, "\(buffer)")
    }
}
