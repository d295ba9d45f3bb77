/*
 * scripts/perf-compare client-library's app: an xdg-shell window whose pen presses go through
 * libpreview-interaction-client, and which also listens to the pen's tablet-v2 events (doing
 * nothing with them but counting frames), for preview-compositor --replay ... --run. Its loop
 * reads the connection itself, then dispatches, each through a function of its own that
 * callgrind collects alone:
 *
 *   dispatch_library_queue   the queue the library's objects live on (--on-queue): libwayland's
 *                            dispatch of the library's events, its dispatcher, the client core,
 *                            its acknowledgements, the descriptor's wakeup
 *   dispatch_empty_probe     the same on the empty queue, 1,000 times before the loop: what one
 *                            call costs that dispatches nothing (the loop makes one per wake;
 *                            an app whose default queue holds the library's objects makes none
 *                            of its own, so the script subtracts them)
 *   preview_interaction_client_dispatch   the callbacks (the app's own callback code is
 *                            subtracted by the script)
 *   dispatch_app_queue       the app's own queue: libwayland's dispatch of the tablet events (the peer)
 *
 * --on-queue (the default) makes the context with preview_interaction_client_create_on_queue
 * on a queue of the app's; --create with preview_interaction_client_create (the library's
 * reading thread reads, the library's dispatch handles its queue). Exits 0 after N presses
 * ended: pen-app N [--on-queue | --create].
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>

#include "preview-interaction-client.h"
#include "tablet-unstable-v2-client-protocol.h"
#include "xdg-shell-client-protocol.h"

enum { WIDTH = 400, HEIGHT = 300 };

struct app {
	struct wl_compositor *compositor;
	struct wl_shm *shm;
	struct xdg_wm_base *wm_base;
	struct wl_seat *seat;
	struct zwp_tablet_manager_v2 *tablets;
	int configured, drawn, ended, presses, running;
	unsigned long tool_frames, calls;
};

static void ping(void *data, struct xdg_wm_base *wm_base, uint32_t serial) {
	(void)data;
	xdg_wm_base_pong(wm_base, serial);
}
static const struct xdg_wm_base_listener wm_base_listener = {ping};

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
	struct app *app = data;
	(void)version;
	if (strcmp(interface, "wl_compositor") == 0) app->compositor = wl_registry_bind(registry, name, &wl_compositor_interface, 1);
	if (strcmp(interface, "wl_shm") == 0) app->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
	if (strcmp(interface, "wl_seat") == 0 && !app->seat) app->seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
	if (strcmp(interface, "zwp_tablet_manager_v2") == 0)
		app->tablets = wl_registry_bind(registry, name, &zwp_tablet_manager_v2_interface, 1);
	if (strcmp(interface, "xdg_wm_base") == 0) {
		app->wm_base = wl_registry_bind(registry, name, &xdg_wm_base_interface, 1);
		xdg_wm_base_add_listener(app->wm_base, &wm_base_listener, app);
	}
}
static void global_remove(void *data, struct wl_registry *registry, uint32_t name) {
	(void)data, (void)registry, (void)name;
}
static const struct wl_registry_listener registry_listener = {global, global_remove};

/* The pen's tablet-v2 events: counted, nothing else. Every event but frame does nothing: one
 * empty function for all (the SysV calling convention lets it ignore their arguments). */
static void tool_ignored(void) {}
static void tool_frame(void *data, struct zwp_tablet_tool_v2 *tool, uint32_t time) {
	(void)tool, (void)time;
	((struct app *)data)->tool_frames++;
}
static struct zwp_tablet_tool_v2_listener tool_listener;
static void tool_added(void *data, struct zwp_tablet_seat_v2 *seat, struct zwp_tablet_tool_v2 *tool) {
	(void)seat;
	void (**slots)(void) = (void (**)(void))&tool_listener;
	for (size_t i = 0; i < sizeof tool_listener / sizeof *slots; i++) slots[i] = tool_ignored;
	tool_listener.frame = tool_frame;
	zwp_tablet_tool_v2_add_listener(tool, &tool_listener, data);
}
static void tablet_or_pad_added(void *data, struct zwp_tablet_seat_v2 *seat, void *object) {
	(void)data, (void)seat, (void)object;
}
static const struct zwp_tablet_seat_v2_listener tablet_seat_listener = {
	(void (*)(void *, struct zwp_tablet_seat_v2 *, struct zwp_tablet_v2 *))tablet_or_pad_added, tool_added,
	(void (*)(void *, struct zwp_tablet_seat_v2 *, struct zwp_tablet_pad_v2 *))tablet_or_pad_added};

static void surface_configure(void *data, struct xdg_surface *surface, uint32_t serial) {
	xdg_surface_ack_configure(surface, serial);
	((struct app *)data)->configured = 1;
}
static const struct xdg_surface_listener surface_listener = {surface_configure};
static void toplevel_configure(void *data, struct xdg_toplevel *toplevel, int32_t w, int32_t h, struct wl_array *states) {
	(void)data, (void)toplevel, (void)w, (void)h, (void)states;
}
static void toplevel_close(void *data, struct xdg_toplevel *toplevel) {
	(void)toplevel;
	((struct app *)data)->running = 0;
}
static const struct xdg_toplevel_listener toplevel_listener = {toplevel_configure, toplevel_close, NULL, NULL};

static struct wl_buffer *make_buffer(struct wl_shm *shm) {
	int size = WIDTH * HEIGHT * 4;
	int fd = memfd_create("pen-app", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, size) != 0) return NULL;
	uint32_t *pixels = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (pixels == MAP_FAILED) return NULL;
	for (int i = 0; i < WIDTH * HEIGHT; i++) pixels[i] = 0xFF303034;
	munmap(pixels, size);
	struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, size);
	struct wl_buffer *buffer = wl_shm_pool_create_buffer(pool, 0, WIDTH, HEIGHT, WIDTH * 4, WL_SHM_FORMAT_ARGB8888);
	wl_shm_pool_destroy(pool);
	close(fd);
	return buffer;
}

/* The callbacks count; the app's own work, which the script subtracts. */
static enum preview_interaction_client_answer should_begin(void *data,
	struct preview_interaction_client_interaction *interaction, const struct preview_interaction_client_press *press) {
	(void)interaction, (void)press;
	((struct app *)data)->calls++;
	return PREVIEW_INTERACTION_CLIENT_ANSWER_ACCEPT;
}
static void progress(void *data, struct preview_interaction_client_interaction *interaction,
	const struct preview_interaction_client_press *press, double value, bool ended) {
	struct app *app = data;
	(void)interaction, (void)value;
	app->calls++;
	if (ended && press->phase == PREVIEW_INTERACTION_CLIENT_PHASE_COMPLETED) app->ended++;
}
static void cancelled(void *data, struct preview_interaction_client_interaction *interaction,
	const struct preview_interaction_client_press *press, enum preview_interaction_client_cancel_reason reason) {
	(void)interaction, (void)press, (void)reason;
	((struct app *)data)->ended++;
}
static const struct preview_interaction_client_interaction_callbacks callbacks = {
	.size = sizeof callbacks, .should_begin = should_begin, .preview = progress, .commit = progress, .cancelled = cancelled};

__attribute__((noinline)) int dispatch_library_queue(struct wl_display *display, struct wl_event_queue *queue) {
	return queue ? wl_display_dispatch_queue_pending(display, queue) : 0;
}
__attribute__((noinline)) int dispatch_app_queue(struct wl_display *display) {
	return wl_display_dispatch_pending(display);
}
__attribute__((noinline)) int dispatch_empty_probe(struct wl_display *display, struct wl_event_queue *queue) {
	return queue ? wl_display_dispatch_queue_pending(display, queue) : 0;
}

int main(int argc, char **argv) {
	struct app app = {.presses = argc > 1 ? atoi(argv[1]) : 1, .running = 1};
	bool legacy = argc > 2 && strcmp(argv[2], "--create") == 0;
	struct wl_display *display = wl_display_connect(NULL);
	if (!display) {
		fprintf(stderr, "pen-app: cannot connect: %s\n", strerror(errno));
		return 1;
	}
	struct wl_registry *registry = wl_display_get_registry(display);
	wl_registry_add_listener(registry, &registry_listener, &app);
	wl_display_roundtrip(display);
	if (!app.compositor || !app.shm || !app.wm_base || !app.seat || !app.tablets) {
		fprintf(stderr, "pen-app: the compositor lacks wl_compositor, wl_shm, xdg_wm_base, wl_seat or tablets\n");
		return 1;
	}
	struct zwp_tablet_seat_v2 *tablet_seat = zwp_tablet_manager_v2_get_tablet_seat(app.tablets, app.seat);
	zwp_tablet_seat_v2_add_listener(tablet_seat, &tablet_seat_listener, &app);
	struct wl_surface *surface = wl_compositor_create_surface(app.compositor);
	struct xdg_surface *xdg_surface = xdg_wm_base_get_xdg_surface(app.wm_base, surface);
	xdg_surface_add_listener(xdg_surface, &surface_listener, &app);
	struct xdg_toplevel *toplevel = xdg_surface_get_toplevel(xdg_surface);
	xdg_toplevel_add_listener(toplevel, &toplevel_listener, &app);

	struct wl_event_queue *library_queue = legacy ? NULL : wl_display_create_queue(display);
	struct preview_interaction_client *context = NULL;
	struct preview_interaction_client_interaction *interaction = NULL;
	int fd = -1;
	int created = legacy ? preview_interaction_client_create(display, NULL, &app, &context)
			     : preview_interaction_client_create_on_queue(display, library_queue, NULL, &app, &context);
	if (created != PREVIEW_INTERACTION_CLIENT_OK ||
		preview_interaction_client_interaction_attach(context, surface, &callbacks, &app, &interaction) !=
			PREVIEW_INTERACTION_CLIENT_OK ||
		preview_interaction_client_get_fd(context, &fd) != PREVIEW_INTERACTION_CLIENT_OK) {
		fprintf(stderr, "pen-app: the preview interaction library failed\n");
		return 1;
	}
	wl_surface_commit(surface);
	struct wl_buffer *buffer = make_buffer(app.shm);
	/* Nothing is read before the loop: the library's queue is empty. */
	int probed = 0;
	for (int i = 0; i < 1000; i++) probed += dispatch_empty_probe(display, library_queue);

	int status = 0;
	unsigned long empty_dispatches = 0;
	while (app.running && app.ended < app.presses) {
		if (app.configured && !app.drawn && buffer) {
			wl_surface_attach(surface, buffer, 0, 0);
			wl_surface_damage(surface, 0, 0, WIDTH, HEIGHT);
			wl_surface_commit(surface);
			app.drawn = 1;
		}
		while (wl_display_prepare_read(display) != 0) dispatch_app_queue(display);
		wl_display_flush(display);
		struct pollfd fds[2] = {{.fd = wl_display_get_fd(display), .events = POLLIN}, {.fd = fd, .events = POLLIN}};
		if (poll(fds, 2, 1000) > 0 && fds[0].revents) {
			wl_display_read_events(display);
		} else {
			wl_display_cancel_read(display);
		}
		/* The protocol's order: the library's events before the core input read with them. Its
		 * descriptor, turned readable by them, is seen at the next poll (which returns at once). */
		int dispatched = dispatch_library_queue(display, library_queue);
		empty_dispatches += dispatched == 0;
		if (dispatched < 0 ||
			(fds[1].revents &&
				preview_interaction_client_dispatch(context) == PREVIEW_INTERACTION_CLIENT_ERROR_DISCONNECTED) ||
			dispatch_app_queue(display) < 0) {
			fprintf(stderr, "pen-app: the connection to the compositor was lost\n");
			status = 1;
			break;
		}
	}
	printf("tool frames %lu calls %lu presses %d\n", app.tool_frames, app.calls, app.ended);
	printf("library queue: %lu empty dispatches, %d events in the probe\n", empty_dispatches, probed);
	preview_interaction_client_destroy(context);
	if (library_queue) wl_event_queue_destroy(library_queue);
	if (buffer) wl_buffer_destroy(buffer);
	xdg_toplevel_destroy(toplevel);
	xdg_surface_destroy(xdg_surface);
	wl_surface_destroy(surface);
	zwp_tablet_seat_v2_destroy(tablet_seat);
	xdg_wm_base_destroy(app.wm_base);
	wl_shm_destroy(app.shm);
	wl_compositor_destroy(app.compositor);
	wl_registry_destroy(registry);
	wl_display_roundtrip(display);
	wl_display_disconnect(display);
	return status;
}
