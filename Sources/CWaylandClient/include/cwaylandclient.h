#pragma once
/*
 * The libwayland-client bridge, for the sample client and for tests that talk to our
 * servers as real clients. Generated client headers for every protocol we speak, plus
 * what Swift cannot call directly. Interface tables: cwl_interface_* (CWaylandProtocols).
 *
 * Import rule: may be imported together with CWaylandServer (see cwaylandserver.h).
 */
#include <stdbool.h>
#include <stdint.h>

#include "cwaylandprotocols.h"
#include <wayland-client.h>

#include "preview-interaction-v1-client-protocol.h"
#include "tablet-unstable-v2-client-protocol.h"
#include "xdg-shell-client-protocol.h"
#include "xdg-decoration-unstable-v1-client-protocol.h"

/* wl_registry_bind through a getter-provided interface, typed as a generic proxy. */
void *cwlc_registry_bind(struct wl_registry *registry, uint32_t name, const struct wl_interface *interface,
                         uint32_t version);

/* Non-blocking read of whatever the socket holds, then dispatch: returns events dispatched or -1.
 * For tests that must not block on a quiet server. */
int cwlc_display_dispatch_pending_nonblocking(struct wl_display *display);

/* A wl_buffer of `width` x `height` pixels over the first `size` bytes of the shared-memory file
 * `fd` (the caller keeps and closes `fd`): a pool of its own, destroyed at once (the buffer
 * keeps the memory). NULL when the pool or the buffer cannot be made. */
struct wl_buffer *cwlc_shm_buffer_create(struct wl_shm *shm, int fd, int32_t size, int32_t width, int32_t height,
                                         int32_t stride, uint32_t format);
