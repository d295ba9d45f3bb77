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
