// WLCS loads this library and reads `wlcs_server_integration`: the structs it calls through
// are filled here, and every call goes on to the Swift side (PreviewCompositorWLCS) with an
// integer handle, so no Swift object crosses the C boundary.
#include <stdint.h>
#include <stdlib.h>
#include <wayland-client-core.h>
#include <wlcs/display_server.h>
#include <wlcs/pointer.h>
#include <wlcs/touch.h>

#include "cwaylandwlcs.h"

// Implemented in Swift (@_cdecl), PreviewCompositorWLCS/Entry.swift.
extern uint64_t pcwlcs_server_create(void);
extern void pcwlcs_server_destroy(uint64_t server);
extern void pcwlcs_server_start(uint64_t server);
extern void pcwlcs_server_stop(uint64_t server);
extern int pcwlcs_server_client_socket(uint64_t server);
extern void pcwlcs_server_position_window(uint64_t server, int client_fd, uint32_t surface_id, int x, int y);
extern uint32_t pcwlcs_device_add(uint64_t server, int touch);
extern void pcwlcs_device_remove(uint64_t server, uint32_t device);
extern void pcwlcs_pointer_move(uint64_t server, uint32_t device, int absolute, double x, double y);
extern void pcwlcs_pointer_button(uint64_t server, uint32_t device, int button, int pressed);
extern void pcwlcs_touch(uint64_t server, uint32_t device, int phase, double x, double y);

typedef struct {
    WlcsDisplayServer base;
    uint64_t handle;
} Server;

typedef struct {
    WlcsPointer base;
    uint64_t server;
    uint32_t device;
} Pointer;

typedef struct {
    WlcsTouch base;
    uint64_t server;
    uint32_t device;
} Touch;

// The extensions the compositor supports (docs/conformance.md says why each is here or not).
static const WlcsExtensionDescriptor extensions[] = {
    {"wl_compositor", 4},
    {"wl_subcompositor", 1},
    {"wl_shm", 1},
    {"wl_output", 4},
    {"wl_seat", 7},
    {"xdg_wm_base", 2},
    {"zwp_tablet_manager_v2", 1},
    {"spi_preview_interaction_manager_v1", 1},
};

static const WlcsIntegrationDescriptor descriptor = {
    .version = 1,
    .num_extensions = sizeof extensions / sizeof extensions[0],
    .supported_extensions = extensions,
};

static uint64_t server_of(WlcsDisplayServer const *server) { return ((Server const *)server)->handle; }

static void start(WlcsDisplayServer *server) { pcwlcs_server_start(server_of(server)); }
static void stop(WlcsDisplayServer *server) { pcwlcs_server_stop(server_of(server)); }
static int client_socket(WlcsDisplayServer *server) { return pcwlcs_server_client_socket(server_of(server)); }

static void position_window(WlcsDisplayServer *server, struct wl_display *client, struct wl_surface *surface, int x, int y) {
    pcwlcs_server_position_window(
        server_of(server), wl_display_get_fd(client), wl_proxy_get_id((struct wl_proxy *)surface), x, y);
}

static void pointer_move_absolute(WlcsPointer *pointer, wl_fixed_t x, wl_fixed_t y) {
    Pointer *p = (Pointer *)pointer;
    pcwlcs_pointer_move(p->server, p->device, 1, wl_fixed_to_double(x), wl_fixed_to_double(y));
}

static void pointer_move_relative(WlcsPointer *pointer, wl_fixed_t dx, wl_fixed_t dy) {
    Pointer *p = (Pointer *)pointer;
    pcwlcs_pointer_move(p->server, p->device, 0, wl_fixed_to_double(dx), wl_fixed_to_double(dy));
}

static void pointer_button_up(WlcsPointer *pointer, int button) {
    Pointer *p = (Pointer *)pointer;
    pcwlcs_pointer_button(p->server, p->device, button, 0);
}

static void pointer_button_down(WlcsPointer *pointer, int button) {
    Pointer *p = (Pointer *)pointer;
    pcwlcs_pointer_button(p->server, p->device, button, 1);
}

static void pointer_destroy(WlcsPointer *pointer) {
    Pointer *p = (Pointer *)pointer;
    pcwlcs_device_remove(p->server, p->device);
    free(p);
}

static WlcsPointer *create_pointer(WlcsDisplayServer *server) {
    Pointer *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->base.version = WLCS_POINTER_VERSION;
    p->base.move_absolute = pointer_move_absolute;
    p->base.move_relative = pointer_move_relative;
    p->base.button_up = pointer_button_up;
    p->base.button_down = pointer_button_down;
    p->base.destroy = pointer_destroy;
    p->server = server_of(server);
    p->device = pcwlcs_device_add(p->server, 0);
    return &p->base;
}

enum { TOUCH_DOWN, TOUCH_MOVE, TOUCH_UP };

// touch.h says wl_fixed_t, but WLCS (1.5 to 1.8 at least) passes whole pixels here, unlike
// the pointer's move_absolute: read the values as integers.
static void touch_down(WlcsTouch *touch, wl_fixed_t x, wl_fixed_t y) {
    Touch *t = (Touch *)touch;
    pcwlcs_touch(t->server, t->device, TOUCH_DOWN, (double)x, (double)y);
}

static void touch_move(WlcsTouch *touch, wl_fixed_t x, wl_fixed_t y) {
    Touch *t = (Touch *)touch;
    pcwlcs_touch(t->server, t->device, TOUCH_MOVE, (double)x, (double)y);
}

static void touch_up(WlcsTouch *touch) {
    Touch *t = (Touch *)touch;
    pcwlcs_touch(t->server, t->device, TOUCH_UP, 0, 0);
}

static void touch_destroy(WlcsTouch *touch) {
    Touch *t = (Touch *)touch;
    pcwlcs_device_remove(t->server, t->device);
    free(t);
}

static WlcsTouch *create_touch(WlcsDisplayServer *server) {
    Touch *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->base.version = WLCS_TOUCH_VERSION;
    t->base.touch_down = touch_down;
    t->base.touch_move = touch_move;
    t->base.touch_up = touch_up;
    t->base.destroy = touch_destroy;
    t->server = server_of(server);
    t->device = pcwlcs_device_add(t->server, 1);
    return &t->base;
}

static WlcsIntegrationDescriptor const *get_descriptor(WlcsDisplayServer const *server) {
    (void)server;
    return &descriptor;
}

static WlcsDisplayServer *create_server(int argc, char const **argv) {
    (void)argc;
    (void)argv;
    Server *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->base.version = 2;
    s->base.start = start;
    s->base.stop = stop;
    s->base.create_client_socket = client_socket;
    s->base.position_window_absolute = position_window;
    s->base.create_pointer = create_pointer;
    s->base.create_touch = create_touch;
    s->base.get_descriptor = get_descriptor;
    s->handle = pcwlcs_server_create();
    return &s->base;
}

static void destroy_server(WlcsDisplayServer *server) {
    pcwlcs_server_destroy(server_of(server));
    free(server);
}

const WlcsServerIntegration wlcs_server_integration = {
    .version = 1,
    .create_server = create_server,
    .destroy_server = destroy_server,
};
