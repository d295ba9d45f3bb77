import CWaylandServer
import WaylandServer

/// wl_output: the one output (geometry, mode, scale, name, done), told again when its mode
/// changes (a window output resized or moved to another scale).
final class OutputResource: ResourceObject {
    init?(host: SurfaceHost, client: Client, version: UInt32, id: UInt32) {
        super.init(
            client: client, interface: cwl_interface_wl_output(), version: version, id: id,
            implementation: OutputResource.implementation)
        guard let resource else { return }
        if version >= 4 {
            wl_output_send_name(resource, "HEADLESS-1")
            wl_output_send_description(resource, "preview-compositor output")
        }
        host.outputBound(self)  // the mode, now and at every change; the windows on it
    }

    func sendMode(_ mode: OutputMode) {
        guard let resource else { return }
        // Physical size from 96 dpi, so clients computing dpi get a sane value.
        let millimetres = { (pixels: Int32) in Int32(Double(pixels) * 25.4 / 96) }
        wl_output_send_geometry(
            resource, 0, 0, millimetres(mode.width), millimetres(mode.height), Int32(WL_OUTPUT_SUBPIXEL_NONE.rawValue),
            "swift-preview-interaction", "preview-compositor", Int32(WL_OUTPUT_TRANSFORM_NORMAL.rawValue))
        // The mode is in pixels (logical size × scale), as wl_output.mode says.
        wl_output_send_mode(
            resource, WL_OUTPUT_MODE_CURRENT.rawValue | WL_OUTPUT_MODE_PREFERRED.rawValue, mode.width * mode.scale,
            mode.height * mode.scale, mode.refreshMilliHertz)
        if version >= 2 {
            wl_output_send_scale(resource, mode.scale)
            wl_output_send_done(resource)
        }
    }

    nonisolated(unsafe) static let implementation: UnsafeRawPointer = {
        var impl = cwl_wl_output_impl()
        impl.release = destroyResourceRequest
        return makeImplementation(impl)
    }()
}
