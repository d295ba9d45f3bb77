import CWaylandServer
import WaylandServer

/// wl_output: the one virtual output (mode, scale 1, name, done).
final class OutputResource: ResourceObject {
    init?(compositor: Compositor, client: Client, version: UInt32, id: UInt32) {
        super.init(
            client: client, interface: cwl_interface_wl_output(), version: version, id: id,
            implementation: OutputResource.implementation)
        guard let resource else { return }
        let configuration = compositor.configuration
        // Physical size from 96 dpi, so clients computing dpi get a sane value.
        let millimetres = { (pixels: Int32) in Int32(Double(pixels) * 25.4 / 96) }
        wl_output_send_geometry(
            resource, 0, 0, millimetres(configuration.outputWidth), millimetres(configuration.outputHeight),
            Int32(WL_OUTPUT_SUBPIXEL_NONE.rawValue), "swift-preview-interaction", "headless", Int32(WL_OUTPUT_TRANSFORM_NORMAL.rawValue))
        wl_output_send_mode(
            resource, WL_OUTPUT_MODE_CURRENT.rawValue | WL_OUTPUT_MODE_PREFERRED.rawValue, configuration.outputWidth,
            configuration.outputHeight, configuration.refreshMilliHertz)
        if version >= 2 { wl_output_send_scale(resource, 1) }
        if version >= 4 {
            wl_output_send_name(resource, "HEADLESS-1")
            wl_output_send_description(resource, "preview-compositor virtual output")
        }
        if version >= 2 { wl_output_send_done(resource) }
        compositor.outputBound(self)
    }

    nonisolated(unsafe) static let implementation: UnsafeRawPointer = {
        var impl = cwl_wl_output_impl()
        impl.release = destroyResourceRequest
        return makeImplementation(impl)
    }()
}
