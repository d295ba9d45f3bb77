#include "cwaylandclient.h"

#include <errno.h>
#include <poll.h>

void *cwlc_registry_bind(struct wl_registry *registry, uint32_t name, const struct wl_interface *interface,
                         uint32_t version) {
    return wl_registry_bind(registry, name, interface, version);
}

int cwlc_display_dispatch_pending_nonblocking(struct wl_display *display) {
    while (wl_display_prepare_read(display) != 0) {
        if (wl_display_dispatch_pending(display) < 0) return -1;
    }
    if (wl_display_flush(display) < 0 && errno != EAGAIN) {
        wl_display_cancel_read(display);
        return -1;
    }
    struct pollfd pfd = {.fd = wl_display_get_fd(display), .events = POLLIN};
    if (poll(&pfd, 1, 0) > 0) {
        if (wl_display_read_events(display) < 0) return -1;
    } else {
        wl_display_cancel_read(display);
    }
    return wl_display_dispatch_pending(display);
}

struct wl_buffer *cwlc_shm_buffer_create(struct wl_shm *shm, int fd, int32_t size, int32_t width, int32_t height,
                                         int32_t stride, uint32_t format) {
    struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, size);
    if (pool == NULL) return NULL;
    struct wl_buffer *buffer = wl_shm_pool_create_buffer(pool, 0, width, height, stride, format);
    wl_shm_pool_destroy(pool);
    return buffer;
}
