import CWaylandClient
import CWaylandCursor
import SystemLayer

/// The arrow over the window: without wl_pointer.set_cursor the pointer image over a surface is
/// undefined (often invisible). From the user's cursor theme (XCURSOR_THEME/XCURSOR_SIZE), at
/// the window's buffer scale; libwayland-cursor falls back to a built-in arrow.
final class Cursor {
    private let shm: OpaquePointer
    private let surface: OpaquePointer
    private var theme: OpaquePointer?
    private var themeScale: Int32 = 0

    init?(compositor: OpaquePointer, shm: OpaquePointer) {
        guard let surface = wl_compositor_create_surface(compositor) else { return nil }
        self.shm = shm
        self.surface = surface
    }

    /// Shows the arrow for the pointer that just entered with `serial`.
    func show(on pointer: OpaquePointer, serial: UInt32, scale: Int32) {
        if theme == nil || themeScale != scale {
            if let theme { wl_cursor_theme_destroy(theme) }
            let size = Int32(Environment.value("XCURSOR_SIZE").flatMap { Int32($0) } ?? 24)
            theme = wl_cursor_theme_load(Environment.value("XCURSOR_THEME"), size * scale, shm)
            themeScale = scale
        }
        guard let theme,
            let cursor = wl_cursor_theme_get_cursor(theme, "left_ptr") ?? wl_cursor_theme_get_cursor(theme, "default"),
            cursor.pointee.image_count > 0, let image = cursor.pointee.images[0],
            let buffer = wl_cursor_image_get_buffer(image)
        else { return }
        wl_surface_set_buffer_scale(surface, scale)
        wl_surface_attach(surface, buffer, 0, 0)
        wl_surface_damage_buffer(surface, 0, 0, Int32(image.pointee.width), Int32(image.pointee.height))
        wl_surface_commit(surface)
        wl_pointer_set_cursor(
            pointer, serial, surface, Int32(image.pointee.hotspot_x) / scale, Int32(image.pointee.hotspot_y) / scale)
    }

    func destroy() {
        if let theme { wl_cursor_theme_destroy(theme) }
        theme = nil
        wl_surface_destroy(surface)
    }
}
