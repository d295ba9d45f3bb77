import CWaylandServer
import SystemLayer
import WaylandServer

/// Just what a toolkit's window needs beside wl_compositor (wl_shm, xdg_wm_base and, when asked
/// for, one wl_output): buffers are never read, every toplevel is configured at once with the
/// size `Options` says (0 × 0: the client chooses). For toolkit apps (GTK, Qt) under the
/// scripted server, and for the sample apps under a compositor that sends absurd numbers.
public final class WindowGlobals {
    public struct Options {
        /// The size of every toplevel's first configure.
        public var configure: (width: Int32, height: Int32) = (0, 0)
        /// A wl_output of this scale (nil: no output global); every window enters it when its
        /// xdg_surface is made, so it has the output's scale before its first configure.
        public var outputScale: Int32?
        /// Told of every buffer a client makes (width, height, stride), on the display's thread.
        public var onBuffer: ((Int32, Int32, Int32) -> Void)?

        public init(
            configure: (width: Int32, height: Int32) = (0, 0), outputScale: Int32? = nil,
            onBuffer: ((Int32, Int32, Int32) -> Void)? = nil
        ) {
            self.configure = configure
            self.outputScale = outputScale
            self.onBuffer = onBuffer
        }
    }

    private var globals: [Global] = []

    public init(display: Display, options: Options = Options()) {
        let state = WindowState(options)
        let add = {
            (interface: UnsafePointer<wl_interface>, version: Int32, bind: @escaping (Client, UInt32, UInt32) -> Void)
            in
            Global(display: display, interface: interface, version: version, onBind: bind)
        }
        globals = [
            add(cwl_interface_wl_shm(), 1) { client, version, id in
                guard let shm = PlainResource(client, cwl_interface_wl_shm(), version, id, shmImplementation, state)
                else { return }
                wl_shm_send_format(shm.resource, 0)
                wl_shm_send_format(shm.resource, 1)
            },
            add(cwl_interface_xdg_wm_base(), 1) { client, version, id in
                _ = PlainResource(client, cwl_interface_xdg_wm_base(), version, id, wmBaseImplementation, state)
            },
        ].compactMap { $0 }
        if let scale = options.outputScale {
            let output = add(cwl_interface_wl_output(), 2) { client, version, id in
                guard
                    let output = PlainResource(
                        client, cwl_interface_wl_output(), version, id, outputImplementation, state)?.resource
                else { return }
                wl_output_send_geometry(output, 0, 0, 300, 200, 0, "test", "test", 0)
                wl_output_send_mode(output, 3, 1280, 800, 60_000)
                wl_output_send_scale(output, scale)
                wl_output_send_done(output)
                state.outputs[UInt(bitPattern: client.raw)] = UInt(bitPattern: output)
            }
            if let output { globals.append(output) }
        }
    }
}

/// What the globals' resources share: the options, and each client's wl_output (bit patterns).
final class WindowState {
    let options: WindowGlobals.Options
    var outputs: [UInt: UInt] = [:]

    init(_ options: WindowGlobals.Options) { self.options = options }
}

/// A resource whose requests need no state of their own.
final class PlainResource: ResourceObject {
    let state: WindowState

    init?(
        _ client: Client, _ interface: UnsafePointer<wl_interface>, _ version: UInt32, _ id: UInt32,
        _ implementation: UnsafeRawPointer, _ state: WindowState
    ) {
        self.state = state
        super.init(client: client, interface: interface, version: version, id: id, implementation: implementation)
    }

    static func state(of resource: OpaquePointer?) -> WindowState? {
        resource.flatMap { ResourceObject.owner(of: $0, as: PlainResource.self)?.state }
    }
}

/// A new resource made by a request of `resource`, sharing its state.
private func child(
    _ client: OpaquePointer?, _ resource: OpaquePointer?, _ interface: UnsafePointer<wl_interface>, _ id: UInt32,
    _ implementation: UnsafeRawPointer
) -> OpaquePointer? {
    guard let client, let resource, let state = PlainResource.state(of: resource) else { return nil }
    return PlainResource(
        Client(client), interface, UInt32(wl_resource_get_version(resource)), id, implementation, state)?.resource
}

nonisolated(unsafe) private let shmImplementation: UnsafeRawPointer = {
    var implementation = cwl_wl_shm_impl()
    implementation.create_pool = { client, resource, id, fd, _ in
        _ = Descriptor(adopting: fd)  // never read: closed at once
        _ = child(client, resource, cwl_interface_wl_shm_pool(), id, poolImplementation)
    }
    return makeImplementation(implementation)
}()

nonisolated(unsafe) private let poolImplementation: UnsafeRawPointer = {
    var implementation = cwl_wl_shm_pool_impl()
    implementation.create_buffer = { client, resource, id, _, width, height, stride, _ in
        _ = child(client, resource, cwl_interface_wl_buffer(), id, bufferImplementation)
        PlainResource.state(of: resource)?.options.onBuffer?(width, height, stride)
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
        let output = PlainResource.state(of: resource)?.outputs[UInt(bitPattern: client)]
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
        guard let resource, let state = PlainResource.state(of: resource),
            let toplevel = child(client, resource, cwl_interface_xdg_toplevel(), id, toplevelImplementation)
        else { return }
        let size = state.options.configure
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
