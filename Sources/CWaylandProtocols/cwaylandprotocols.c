#include "cwaylandprotocols.h"

/* The tables themselves: core ones live in libwayland, the others in the generated
 * *-protocol.c files of this module (hidden visibility, linked statically). */
extern const struct wl_interface wl_display_interface;
extern const struct wl_interface wl_registry_interface;
extern const struct wl_interface wl_callback_interface;
extern const struct wl_interface wl_compositor_interface;
extern const struct wl_interface wl_subcompositor_interface;
extern const struct wl_interface wl_subsurface_interface;
extern const struct wl_interface wl_surface_interface;
extern const struct wl_interface wl_region_interface;
extern const struct wl_interface wl_shm_interface;
extern const struct wl_interface wl_shm_pool_interface;
extern const struct wl_interface wl_buffer_interface;
extern const struct wl_interface wl_output_interface;
extern const struct wl_interface wl_seat_interface;
extern const struct wl_interface wl_pointer_interface;
extern const struct wl_interface wl_keyboard_interface;
extern const struct wl_interface wl_touch_interface;
extern const struct wl_interface wl_data_device_manager_interface;
extern const struct wl_interface wl_data_device_interface;
extern const struct wl_interface wl_data_source_interface;
extern const struct wl_interface wl_data_offer_interface;
extern const struct wl_interface spi_preview_interaction_manager_v1_interface;
extern const struct wl_interface spi_preview_interaction_v1_interface;
extern const struct wl_interface xdg_wm_base_interface;
extern const struct wl_interface xdg_positioner_interface;
extern const struct wl_interface xdg_surface_interface;
extern const struct wl_interface xdg_toplevel_interface;
extern const struct wl_interface xdg_popup_interface;
extern const struct wl_interface zwp_tablet_manager_v2_interface;
extern const struct wl_interface zwp_tablet_seat_v2_interface;
extern const struct wl_interface zwp_tablet_tool_v2_interface;
extern const struct wl_interface zwp_tablet_v2_interface;
extern const struct wl_interface zwp_tablet_pad_v2_interface;
extern const struct wl_interface zwp_tablet_pad_ring_v2_interface;
extern const struct wl_interface zwp_tablet_pad_strip_v2_interface;
extern const struct wl_interface zwp_tablet_pad_group_v2_interface;
extern const struct wl_interface zxdg_decoration_manager_v1_interface;
extern const struct wl_interface zxdg_toplevel_decoration_v1_interface;

const struct wl_interface *cwl_interface_wl_display(void) { return &wl_display_interface; }
const struct wl_interface *cwl_interface_wl_registry(void) { return &wl_registry_interface; }
const struct wl_interface *cwl_interface_wl_callback(void) { return &wl_callback_interface; }
const struct wl_interface *cwl_interface_wl_compositor(void) { return &wl_compositor_interface; }
const struct wl_interface *cwl_interface_wl_subcompositor(void) { return &wl_subcompositor_interface; }
const struct wl_interface *cwl_interface_wl_subsurface(void) { return &wl_subsurface_interface; }
const struct wl_interface *cwl_interface_wl_surface(void) { return &wl_surface_interface; }
const struct wl_interface *cwl_interface_wl_region(void) { return &wl_region_interface; }
const struct wl_interface *cwl_interface_wl_shm(void) { return &wl_shm_interface; }
const struct wl_interface *cwl_interface_wl_shm_pool(void) { return &wl_shm_pool_interface; }
const struct wl_interface *cwl_interface_wl_buffer(void) { return &wl_buffer_interface; }
const struct wl_interface *cwl_interface_wl_output(void) { return &wl_output_interface; }
const struct wl_interface *cwl_interface_wl_seat(void) { return &wl_seat_interface; }
const struct wl_interface *cwl_interface_wl_pointer(void) { return &wl_pointer_interface; }
const struct wl_interface *cwl_interface_wl_keyboard(void) { return &wl_keyboard_interface; }
const struct wl_interface *cwl_interface_wl_touch(void) { return &wl_touch_interface; }
const struct wl_interface *cwl_interface_wl_data_device_manager(void) { return &wl_data_device_manager_interface; }
const struct wl_interface *cwl_interface_wl_data_device(void) { return &wl_data_device_interface; }
const struct wl_interface *cwl_interface_wl_data_source(void) { return &wl_data_source_interface; }
const struct wl_interface *cwl_interface_wl_data_offer(void) { return &wl_data_offer_interface; }
const struct wl_interface *cwl_interface_spi_preview_interaction_manager_v1(void) { return &spi_preview_interaction_manager_v1_interface; }
const struct wl_interface *cwl_interface_spi_preview_interaction_v1(void) { return &spi_preview_interaction_v1_interface; }
const struct wl_interface *cwl_interface_xdg_wm_base(void) { return &xdg_wm_base_interface; }
const struct wl_interface *cwl_interface_xdg_positioner(void) { return &xdg_positioner_interface; }
const struct wl_interface *cwl_interface_xdg_surface(void) { return &xdg_surface_interface; }
const struct wl_interface *cwl_interface_xdg_toplevel(void) { return &xdg_toplevel_interface; }
const struct wl_interface *cwl_interface_xdg_popup(void) { return &xdg_popup_interface; }
const struct wl_interface *cwl_interface_zwp_tablet_manager_v2(void) { return &zwp_tablet_manager_v2_interface; }
const struct wl_interface *cwl_interface_zwp_tablet_seat_v2(void) { return &zwp_tablet_seat_v2_interface; }
const struct wl_interface *cwl_interface_zwp_tablet_tool_v2(void) { return &zwp_tablet_tool_v2_interface; }
const struct wl_interface *cwl_interface_zwp_tablet_v2(void) { return &zwp_tablet_v2_interface; }
const struct wl_interface *cwl_interface_zwp_tablet_pad_v2(void) { return &zwp_tablet_pad_v2_interface; }
const struct wl_interface *cwl_interface_zwp_tablet_pad_ring_v2(void) { return &zwp_tablet_pad_ring_v2_interface; }
const struct wl_interface *cwl_interface_zwp_tablet_pad_strip_v2(void) { return &zwp_tablet_pad_strip_v2_interface; }
const struct wl_interface *cwl_interface_zwp_tablet_pad_group_v2(void) { return &zwp_tablet_pad_group_v2_interface; }
const struct wl_interface *cwl_interface_zxdg_decoration_manager_v1(void) { return &zxdg_decoration_manager_v1_interface; }
const struct wl_interface *cwl_interface_zxdg_toplevel_decoration_v1(void) { return &zxdg_toplevel_decoration_v1_interface; }
