#pragma once
/*
 * What the server and client bridges share: wayland-util (wl_interface, wl_fixed_t,
 * wl_list, wl_array) and one getter per wl_interface table we use.
 *
 * Why getters: Swift must never take `&wl_surface_interface` itself (in -O builds it may
 * hand over the address of a copy, and libwayland compares interface pointers), and the
 * generated headers declare both a `struct xdg_wm_base_interface` (server vtable) and a
 * variable of the same name, which Swift cannot tell apart. Core tables come from
 * whichever of libwayland-server/-client the final binary links (both export them);
 * extension tables from the wayland-scanner private code compiled once in this module.
 *
 * Import rule: this module is the one place these shared declarations belong to; the
 * server and client modules include it first, so a Swift file importing both
 * CWaylandServer and CWaylandClient sees every shared type once.
 */
#include <stdint.h>
#include <wayland-util.h>

/* Core protocol (wayland.xml). */
const struct wl_interface *cwl_interface_wl_display(void);
const struct wl_interface *cwl_interface_wl_registry(void);
const struct wl_interface *cwl_interface_wl_callback(void);
const struct wl_interface *cwl_interface_wl_compositor(void);
const struct wl_interface *cwl_interface_wl_subcompositor(void);
const struct wl_interface *cwl_interface_wl_subsurface(void);
const struct wl_interface *cwl_interface_wl_surface(void);
const struct wl_interface *cwl_interface_wl_region(void);
const struct wl_interface *cwl_interface_wl_shm(void);
const struct wl_interface *cwl_interface_wl_shm_pool(void);
const struct wl_interface *cwl_interface_wl_buffer(void);
const struct wl_interface *cwl_interface_wl_output(void);
const struct wl_interface *cwl_interface_wl_seat(void);
const struct wl_interface *cwl_interface_wl_pointer(void);
const struct wl_interface *cwl_interface_wl_keyboard(void);
const struct wl_interface *cwl_interface_wl_touch(void);
const struct wl_interface *cwl_interface_wl_data_device_manager(void);
const struct wl_interface *cwl_interface_wl_data_device(void);
const struct wl_interface *cwl_interface_wl_data_source(void);
const struct wl_interface *cwl_interface_wl_data_offer(void);

/* Our extension (protocol/preview-interaction-v1.xml). */
const struct wl_interface *cwl_interface_spi_preview_interaction_manager_v1(void);
const struct wl_interface *cwl_interface_spi_preview_interaction_v1(void);

/* xdg-shell (stable). */
const struct wl_interface *cwl_interface_xdg_wm_base(void);
const struct wl_interface *cwl_interface_xdg_positioner(void);
const struct wl_interface *cwl_interface_xdg_surface(void);
const struct wl_interface *cwl_interface_xdg_toplevel(void);
const struct wl_interface *cwl_interface_xdg_popup(void);

/* tablet-unstable-v2. */
const struct wl_interface *cwl_interface_zwp_tablet_manager_v2(void);
const struct wl_interface *cwl_interface_zwp_tablet_seat_v2(void);
const struct wl_interface *cwl_interface_zwp_tablet_tool_v2(void);
const struct wl_interface *cwl_interface_zwp_tablet_v2(void);
const struct wl_interface *cwl_interface_zwp_tablet_pad_v2(void);
const struct wl_interface *cwl_interface_zwp_tablet_pad_ring_v2(void);
const struct wl_interface *cwl_interface_zwp_tablet_pad_strip_v2(void);
const struct wl_interface *cwl_interface_zwp_tablet_pad_group_v2(void);

/* xdg-decoration-unstable-v1 (server-side decorations of the nested window, where the parent offers them). */
const struct wl_interface *cwl_interface_zxdg_decoration_manager_v1(void);
const struct wl_interface *cwl_interface_zxdg_toplevel_decoration_v1(void);

/* wl_fixed_t conversions as plain functions (the inline ones are fine too; these read better). */
static inline double cwl_fixed_to_double(wl_fixed_t value) { return wl_fixed_to_double(value); }
static inline wl_fixed_t cwl_fixed_from_double(double value) { return wl_fixed_from_double(value); }
