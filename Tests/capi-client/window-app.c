/*
 * A plain C app with an xdg-shell window (one wl_shm buffer) whose presses go through
 * libpreview-interaction-client, for the real compositor: preview-compositor --replay a
 * recorded press --run 'window-app N'. Its main loop polls its own connection and the
 * library's descriptor, the way a toolkit's loop would. Prints one line per callback
 * ("press 2 preview 0.50", "press 2 completed", "press 1 cancelled lifted") and exits 0
 * after N presses ended, 1 with a message if the connection is lost. With --tablet it also
 * listens to the pen's tablet-v2 events on its own queue (doing nothing with them but
 * counting frames), the peer of scripts/perf-compare's client-library cost.
 */
#include <errno.h>
#include <poll.h>
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
	unsigned long tool_frames, preview_calls;
};

static void say(const char *format, ...) __attribute__((format(printf, 1, 2)));
#include <stdarg.h>
static void say(const char *format, ...) {
	va_list args;
	va_start(args, format);
	vprintf(format, args);
	va_end(args);
	putchar('\n');
	fflush(stdout);
}

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
/* ---- the pen's tablet-v2 events: counted, nothing else ---- */

static void tool_ignored(void) {}
static void tool_frame(void *data, struct zwp_tablet_tool_v2 *tool, uint32_t time) {
	struct app *app = data;
	(void)tool, (void)time;
	app->tool_frames++;
}
/* Every event but frame does nothing: one empty function for all (their arguments are
 * ignored, which the SysV calling convention allows). */
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

static void global_remove(void *data, struct wl_registry *registry, uint32_t name) {
	(void)data, (void)registry, (void)name;
}
static const struct wl_registry_listener registry_listener = {global, global_remove};

static void surface_configure(void *data, struct xdg_surface *surface, uint32_t serial) {
	struct app *app = data;
	xdg_surface_ack_configure(surface, serial);
	app->configured = 1;
}
static const struct xdg_surface_listener surface_listener = {surface_configure};

static void toplevel_configure(void *data, struct xdg_toplevel *toplevel, int32_t w, int32_t h, struct wl_array *states) {
	(void)data, (void)toplevel, (void)w, (void)h, (void)states;
}
static void toplevel_close(void *data, struct xdg_toplevel *toplevel) {
	struct app *app = data;
	(void)toplevel;
	app->running = 0;
}
static const struct xdg_toplevel_listener toplevel_listener = {toplevel_configure, toplevel_close, NULL, NULL};

/* One grey buffer for the whole run (the window only has to be there to be pressed). */
static struct wl_buffer *make_buffer(struct wl_shm *shm) {
	int size = WIDTH * HEIGHT * 4;
	int fd = memfd_create("window-app", MFD_CLOEXEC);
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

/* ---- the press callbacks ---- */

static enum preview_interaction_client_answer should_begin(void *data,
	struct preview_interaction_client_interaction *interaction, const struct preview_interaction_client_press *press) {
	(void)data, (void)interaction;
	say("press %u %s %s at %.0f,%.0f: accept", press->id, preview_interaction_client_source_string(press->source),
		press->force == PREVIEW_INTERACTION_CLIENT_FORCE_MEASURED ? "measured" : "simulated", press->x, press->y);
	return PREVIEW_INTERACTION_CLIENT_ANSWER_ACCEPT;
}

static void preview(void *data, struct preview_interaction_client_interaction *interaction,
	const struct preview_interaction_client_press *press, double progress, bool ended) {
	(void)interaction;
	((struct app *)data)->preview_calls++;
	say("press %u preview %.2f%s", press->id, progress, ended ? " ended" : "");
}

static void commit(void *data, struct preview_interaction_client_interaction *interaction,
	const struct preview_interaction_client_press *press, double progress, bool ended) {
	struct app *app = data;
	(void)interaction;
	if (ended) {
		say("press %u completed", press->id);
		app->ended++;
	} else {
		say("press %u commit %.2f", press->id, progress);
	}
}

static void cancelled(void *data, struct preview_interaction_client_interaction *interaction,
	const struct preview_interaction_client_press *press, enum preview_interaction_client_cancel_reason reason) {
	struct app *app = data;
	(void)interaction;
	say("press %u cancelled %s", press->id, preview_interaction_client_cancel_reason_string(reason));
	app->ended++;
}

static const struct preview_interaction_client_interaction_callbacks callbacks = {
	.size = sizeof callbacks, .should_begin = should_begin, .preview = preview, .commit = commit, .cancelled = cancelled};

int main(int argc, char **argv) {
	struct app app = {.presses = argc > 1 ? atoi(argv[1]) : 1, .running = 1};
	bool tablet = argc > 2 && strcmp(argv[2], "--tablet") == 0;
	struct wl_display *display = wl_display_connect(NULL);
	if (!display) {
		fprintf(stderr, "window-app: cannot connect: %s\n", strerror(errno));
		return 1;
	}
	struct wl_registry *registry = wl_display_get_registry(display);
	wl_registry_add_listener(registry, &registry_listener, &app);
	wl_display_roundtrip(display);
	if (!app.compositor || !app.shm || !app.wm_base) {
		fprintf(stderr, "window-app: the compositor lacks wl_compositor, wl_shm or xdg_wm_base\n");
		return 1;
	}
	if (tablet && app.seat && app.tablets) {
		struct zwp_tablet_seat_v2 *tablet_seat = zwp_tablet_manager_v2_get_tablet_seat(app.tablets, app.seat);
		zwp_tablet_seat_v2_add_listener(tablet_seat, &tablet_seat_listener, &app);
	}
	struct wl_surface *surface = wl_compositor_create_surface(app.compositor);
	struct xdg_surface *xdg_surface = xdg_wm_base_get_xdg_surface(app.wm_base, surface);
	xdg_surface_add_listener(xdg_surface, &surface_listener, &app);
	struct xdg_toplevel *toplevel = xdg_surface_get_toplevel(xdg_surface);
	xdg_toplevel_add_listener(toplevel, &toplevel_listener, &app);
	xdg_toplevel_set_title(toplevel, "window-app");

	struct preview_interaction_client *context = NULL;
	struct preview_interaction_client_interaction *interaction = NULL;
	int fd = -1;
	if (preview_interaction_client_create(display, NULL, &app, &context) != PREVIEW_INTERACTION_CLIENT_OK ||
		preview_interaction_client_interaction_attach(context, surface, &callbacks, &app, &interaction) !=
			PREVIEW_INTERACTION_CLIENT_OK ||
		preview_interaction_client_get_fd(context, &fd) != PREVIEW_INTERACTION_CLIENT_OK) {
		fprintf(stderr, "window-app: the preview interaction library failed\n");
		return 1;
	}
	bool available = false;
	preview_interaction_client_is_available(context, &available);
	say("preview interactions %s", available ? "available" : "unavailable");
	wl_surface_commit(surface);
	struct wl_buffer *buffer = make_buffer(app.shm);

	int status = 0;
	while (app.running && app.ended < app.presses) {
		if (app.configured && !app.drawn && buffer) {
			wl_surface_attach(surface, buffer, 0, 0);
			wl_surface_damage(surface, 0, 0, WIDTH, HEIGHT);
			preview_interaction_client_interaction_commit_surface(interaction);
			app.drawn = 1;
		}
		/* The app's own queue, with libwayland's reading protocol (the library reads too). */
		while (wl_display_prepare_read(display) != 0) wl_display_dispatch_pending(display);
		wl_display_flush(display);
		struct pollfd fds[2] = {{.fd = wl_display_get_fd(display), .events = POLLIN}, {.fd = fd, .events = POLLIN}};
		if (poll(fds, 2, 1000) > 0 && fds[0].revents) {
			wl_display_read_events(display);
		} else {
			wl_display_cancel_read(display);
		}
		/* The library's descriptor is readable while callbacks wait (or the connection failed). */
		if ((fds[1].revents &&
			    preview_interaction_client_dispatch(context) == PREVIEW_INTERACTION_CLIENT_ERROR_DISCONNECTED) ||
			wl_display_dispatch_pending(display) < 0) {
			fprintf(stderr, "window-app: the connection to the compositor was lost\n");
			status = 1;
			break;
		}
	}
	if (tablet) say("tool frames %lu preview calls %lu", app.tool_frames, app.preview_calls);
	preview_interaction_client_destroy(context);
	if (buffer) wl_buffer_destroy(buffer);
	xdg_toplevel_destroy(toplevel);
	xdg_surface_destroy(xdg_surface);
	wl_surface_destroy(surface);
	xdg_wm_base_destroy(app.wm_base);
	wl_shm_destroy(app.shm);
	wl_compositor_destroy(app.compositor);
	wl_registry_destroy(registry);
	wl_display_roundtrip(display);
	wl_display_disconnect(display);
	return status;
}
