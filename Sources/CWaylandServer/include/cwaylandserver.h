#pragma once
/*
 * The libwayland-server bridge. Swift code reaches libwayland-server only through this
 * module (and only WaylandServer and the protocol/compositor layers import it).
 *
 * - WL_HIDE_DEPRECATED keeps struct wl_resource opaque, so Swift cannot poke into it.
 * - Everything Swift cannot call (macros, variadic functions, wl_container_of) has a
 *   small function here.
 * - Listeners: Swift never does pointer arithmetic. A cwl_listener embeds the wl_listener
 *   plus a context pointer and a callback; the C trampoline recovers the container.
 *
 * Import rule: a Swift file may import CWaylandServer and CWaylandClient together; both
 * include cwaylandprotocols.h (wayland-util) first. Protocol enums and interface
 * variables are declared by both sides' generated headers: use the cwl_interface_*
 * getters and the raw values, never `&foo_interface` from Swift.
 */
#define WL_HIDE_DEPRECATED 1
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "cwaylandprotocols.h"
#include <wayland-server.h>

#include "preview-interaction-v1-server-protocol.h"
#include "tablet-unstable-v2-server-protocol.h"
#include "xdg-shell-server-protocol.h"
#include "xdg-decoration-unstable-v1-server-protocol.h"

/* MARK: listeners */

typedef void (*cwl_notify_func_t)(void *context, void *data);

/* A wl_listener with a context: the one way Swift listens to a wl_signal. */
struct cwl_listener {
    struct wl_listener listener;
    void *context;
    cwl_notify_func_t notify;
};

/* Prepares an unlinked listener; removing it before it was ever added is safe. */
void cwl_listener_init(struct cwl_listener *listener, cwl_notify_func_t notify, void *context);
/* Unlinks the listener if linked; idempotent. */
void cwl_listener_remove(struct cwl_listener *listener);
bool cwl_listener_is_linked(const struct cwl_listener *listener);

void cwl_signal_init(struct wl_signal *signal);
void cwl_signal_add(struct wl_signal *signal, struct cwl_listener *listener);
void cwl_signal_emit(struct wl_signal *signal, void *data);

void cwl_resource_add_destroy_listener(struct wl_resource *resource, struct cwl_listener *listener);
void cwl_client_add_destroy_listener(struct wl_client *client, struct cwl_listener *listener);
/* Fires for every resource the client creates, with its wl_resource * as data. */
void cwl_client_add_resource_created_listener(struct wl_client *client, struct cwl_listener *listener);
void cwl_display_add_destroy_listener(struct wl_display *display, struct cwl_listener *listener);
void cwl_event_loop_add_destroy_listener(struct wl_event_loop *loop, struct cwl_listener *listener);
/* Fires with the new struct wl_client * as data. */
void cwl_display_add_client_created_listener(struct wl_display *display, struct cwl_listener *listener);

/* MARK: errors (wl_resource_post_error is variadic) */

/* Sends wl_display.error for the resource and marks its client for disconnection. */
void cwl_resource_post_error(struct wl_resource *resource, uint32_t code, const char *message);

/* wl_display.error(implementation): the compositor's own bug, reported to the client it hurts. */
void cwl_client_post_implementation_error(struct wl_client *client, const char *message);

/* wl_shm_pool.create_buffer with a stride that cannot hold `width` pixels is invalid_stride
 * (libwayland's own wl_shm checks only that the buffer fits its pool). Runs as a protocol
 * logger, before libwayland handles the request; destroy it with wl_protocol_logger_destroy. */
struct wl_protocol_logger *cwl_display_add_shm_stride_check(struct wl_display *display);

/* MARK: events without a generated helper */

/* wl_resource_post_event_array wants a non-const wl_argument pointer; one place does the cast. */
void cwl_resource_post_event_array(struct wl_resource *resource, uint32_t opcode, union wl_argument *args);

/* MARK: clients */

pid_t cwl_client_pid(struct wl_client *client);

/* MARK: request vtables
 * The generated `struct foo_interface` (the server's request vtable) shares its name with
 * the `foo_interface` wl_interface variable, which Swift cannot tell apart; these
 * typedefs give the vtables usable names. */
typedef struct wl_compositor_interface cwl_wl_compositor_impl;
typedef struct wl_surface_interface cwl_wl_surface_impl;
typedef struct wl_region_interface cwl_wl_region_impl;
typedef struct wl_subcompositor_interface cwl_wl_subcompositor_impl;
typedef struct wl_subsurface_interface cwl_wl_subsurface_impl;
typedef struct wl_shm_interface cwl_wl_shm_impl;
typedef struct wl_shm_pool_interface cwl_wl_shm_pool_impl;
typedef struct wl_buffer_interface cwl_wl_buffer_impl;
typedef struct wl_output_interface cwl_wl_output_impl;
typedef struct wl_seat_interface cwl_wl_seat_impl;
typedef struct wl_pointer_interface cwl_wl_pointer_impl;
typedef struct wl_keyboard_interface cwl_wl_keyboard_impl;
typedef struct wl_touch_interface cwl_wl_touch_impl;
typedef struct wl_data_device_manager_interface cwl_wl_data_device_manager_impl;
typedef struct wl_data_device_interface cwl_wl_data_device_impl;
typedef struct wl_data_source_interface cwl_wl_data_source_impl;
typedef struct wl_data_offer_interface cwl_wl_data_offer_impl;
typedef struct spi_preview_interaction_manager_v1_interface cwl_spi_preview_interaction_manager_v1_impl;
typedef struct spi_preview_interaction_v1_interface cwl_spi_preview_interaction_v1_impl;
typedef struct xdg_wm_base_interface cwl_xdg_wm_base_impl;
typedef struct xdg_positioner_interface cwl_xdg_positioner_impl;
typedef struct xdg_surface_interface cwl_xdg_surface_impl;
typedef struct xdg_toplevel_interface cwl_xdg_toplevel_impl;
typedef struct xdg_popup_interface cwl_xdg_popup_impl;
typedef struct zwp_tablet_manager_v2_interface cwl_zwp_tablet_manager_v2_impl;
typedef struct zwp_tablet_seat_v2_interface cwl_zwp_tablet_seat_v2_impl;
typedef struct zwp_tablet_tool_v2_interface cwl_zwp_tablet_tool_v2_impl;
typedef struct zwp_tablet_v2_interface cwl_zwp_tablet_v2_impl;
typedef struct zwp_tablet_pad_v2_interface cwl_zwp_tablet_pad_v2_impl;
typedef struct zwp_tablet_pad_ring_v2_interface cwl_zwp_tablet_pad_ring_v2_impl;
typedef struct zwp_tablet_pad_strip_v2_interface cwl_zwp_tablet_pad_strip_v2_impl;
typedef struct zwp_tablet_pad_group_v2_interface cwl_zwp_tablet_pad_group_v2_impl;
typedef struct zxdg_decoration_manager_v1_interface cwl_zxdg_decoration_manager_v1_impl;
typedef struct zxdg_toplevel_decoration_v1_interface cwl_zxdg_toplevel_decoration_v1_impl;

/* MARK: client sockets */

/* The bytes waiting in a client's socket send queue (TIOCOUTQ) and the queue's capacity
 * (SO_SNDBUF), for telling a stalled client: 0, or -1 with errno set. */
int cwl_client_send_queue(struct wl_client *client, int *queued, int *capacity);
