/*
 * libpreview-interaction-client's surfaces with items, and its answer to a hostile compositor,
 * from C under AddressSanitizer and UBSan. The compositor is in this process, on a thread of
 * its own (libwayland-server with the protocol's generated code): it records every request the
 * library sends and sends the events each scenario scripts, wire-valid but as hostile as it
 * likes.
 * - items: two items and a nested accelerator on one surface: the region is the union of the
 *   shown items, the behaviours the accelerator's, the focus point the focused item's (version
 *   2 only); presses go to the item under them (the keyboard's to the focused one), a press an
 *   item cannot take is declined without a call, callbacks carry the item, the item's latest
 *   press has the core's phase (DECLINED after a decline); removing an item mid-press cancels
 *   it (CLIENT_CANCELLED), detaching the surface tells the running presses (SURFACE_GONE);
 * - hostile: 10,000 presses the compositor never ends: the fresh press is asked every time
 *   (the oldest of the 32 running touches is cancelled, desynchronised), on an interaction and on
 *   a surface with items; 10,000 pen presses never ended and an app that takes one press at a
 *   time (as the sample apps do): the fresh one is accepted (a pen presses once at a time: each
 *   new press ends the older one); a press the app cancelled whose commit and completion keep
 *   coming: the next press is asked.
 * Prints "N passed, N failed".
 *
 * usage: items
 */
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>
#include <wayland-server.h>

#include "preview-interaction-client.h"
#include "preview-interaction-v1-server-protocol.h"

static int passed, failed;

#define CHECK(expr) check((expr), #expr, __LINE__)
#define STATUS(call, expected) check_status((call), (expected), #call, __LINE__)

static void check(int ok, const char *text, int line) {
	if (ok) {
		passed++;
	} else {
		failed++;
		fprintf(stderr, "items.c:%d: failed: %s\n", line, text);
	}
}

static void check_status(int status, int expected, const char *text, int line) {
	if (status == expected) {
		passed++;
	} else {
		failed++;
		fprintf(stderr, "items.c:%d: %s returned %d (%s), expected %d (%s)\n", line, text, status,
			preview_interaction_client_status_string(status), expected,
			preview_interaction_client_status_string(expected));
	}
}

static double now_seconds(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- the compositor: on its thread; the test runs functions there and waits ---- */

#define LOG_LINES 256

struct compositor {
	struct wl_display *display;
	pthread_t thread;
	int stop;
	int wake; /* eventfd: run `job` */
	struct wl_event_source *waking;
	void (*job)(struct compositor *, void *);
	void *job_data;
	pthread_mutex_t lock;
	pthread_cond_t done;
	int job_done;
	uint32_t version;
	struct wl_resource *interaction; /* the latest interaction object */
	char log[LOG_LINES][128];        /* the requests on it, as text */
	int logged;
	uint32_t serial;
};

static void logf_request(struct compositor *compositor, const char *format, ...)
	__attribute__((format(printf, 2, 3)));

#include <stdarg.h>
static void logf_request(struct compositor *compositor, const char *format, ...) {
	if (compositor->logged >= LOG_LINES) return;
	va_list args;
	va_start(args, format);
	vsnprintf(compositor->log[compositor->logged++], sizeof compositor->log[0], format, args);
	va_end(args);
}

static void destroy_request(struct wl_client *client, struct wl_resource *resource) {
	(void)client;
	wl_resource_destroy(resource);
}

static void noop(void) {}

static void (*const surface_requests[11])(void) = {
	(void (*)(void))destroy_request, noop, noop, noop, noop, noop, noop, noop, noop, noop, noop};

/* A region keeps its rectangles as text. */
struct region {
	char text[512];
};

static void region_add(struct wl_client *client, struct wl_resource *resource, int32_t x, int32_t y, int32_t width,
	int32_t height) {
	struct region *region = wl_resource_get_user_data(resource);
	size_t used = strlen(region->text);
	(void)client;
	snprintf(region->text + used, sizeof region->text - used, "%s%d,%d,%d,%d", used ? " " : "", x, y, width, height);
}

static void region_subtract(
	struct wl_client *client, struct wl_resource *resource, int32_t x, int32_t y, int32_t width, int32_t height) {
	(void)client, (void)resource, (void)x, (void)y, (void)width, (void)height;
}

static const struct wl_region_interface region_requests = {destroy_request, region_add, region_subtract};

static void free_region(struct wl_resource *resource) { free(wl_resource_get_user_data(resource)); }

static void create_surface(struct wl_client *client, struct wl_resource *resource, uint32_t id) {
	struct wl_resource *surface = wl_resource_create(client, &wl_surface_interface, 1, id);
	(void)resource;
	wl_resource_set_implementation(surface, surface_requests, NULL, NULL);
}

static void create_region(struct wl_client *client, struct wl_resource *resource, uint32_t id) {
	struct wl_resource *region = wl_resource_create(client, &wl_region_interface, 1, id);
	(void)resource;
	wl_resource_set_implementation(region, &region_requests, calloc(1, sizeof(struct region)), free_region);
}

static const struct wl_compositor_interface compositor_requests = {create_surface, create_region};

static void bind_compositor(struct wl_client *client, void *data, uint32_t version, uint32_t id) {
	struct wl_resource *resource = wl_resource_create(client, &wl_compositor_interface, version, id);
	(void)data;
	wl_resource_set_implementation(resource, &compositor_requests, NULL, NULL);
}

static struct compositor *of(struct wl_resource *resource) { return wl_resource_get_user_data(resource); }

static void set_region(struct wl_client *client, struct wl_resource *resource, struct wl_resource *region) {
	(void)client;
	logf_request(of(resource), "region %s", region ? ((struct region *)wl_resource_get_user_data(region))->text : "all");
}
static void set_sources(struct wl_client *client, struct wl_resource *resource, uint32_t sources) {
	(void)client;
	logf_request(of(resource), "sources %u", sources);
}
static void accept_press(struct wl_client *client, struct wl_resource *resource, uint32_t id) {
	(void)client;
	logf_request(of(resource), "accept %u", id);
}
static void decline_press(struct wl_client *client, struct wl_resource *resource, uint32_t id) {
	(void)client;
	logf_request(of(resource), "decline %u", id);
}
static void cancel_press(struct wl_client *client, struct wl_resource *resource, uint32_t id) {
	(void)client;
	logf_request(of(resource), "cancel %u", id);
}
static void ack_frame(struct wl_client *client, struct wl_resource *resource, uint32_t serial) {
	(void)client, (void)resource, (void)serial;
}
static void set_focus_point(struct wl_client *client, struct wl_resource *resource, wl_fixed_t x, wl_fixed_t y) {
	(void)client;
	logf_request(of(resource), "focus %d,%d", wl_fixed_to_int(x), wl_fixed_to_int(y));
}
static void unset_focus_point(struct wl_client *client, struct wl_resource *resource) {
	(void)client;
	logf_request(of(resource), "focus none");
}
static void set_behaviour(struct wl_client *client, struct wl_resource *resource, uint32_t behaviour, uint32_t stages,
	struct wl_resource *region) {
	(void)client;
	logf_request(of(resource), "behaviour %u %u %s", behaviour, stages,
		region ? ((struct region *)wl_resource_get_user_data(region))->text : "all");
}
static void clear_behaviours(struct wl_client *client, struct wl_resource *resource) {
	(void)client;
	logf_request(of(resource), "clear behaviours");
}
static void play_haptic(struct wl_client *client, struct wl_resource *resource, uint32_t id, uint32_t effect) {
	(void)client;
	logf_request(of(resource), "haptic %u %u", id, effect);
}

static const struct spi_preview_interaction_v1_interface interaction_requests = {destroy_request, set_region,
	set_sources, accept_press, decline_press, cancel_press, ack_frame, set_focus_point, unset_focus_point, set_behaviour,
	clear_behaviours, play_haptic};

static void get_interaction(
	struct wl_client *client, struct wl_resource *resource, uint32_t id, struct wl_resource *surface) {
	struct compositor *compositor = wl_resource_get_user_data(resource);
	(void)surface;
	compositor->interaction = wl_resource_create(
		client, &spi_preview_interaction_v1_interface, wl_resource_get_version(resource), id);
	wl_resource_set_implementation(compositor->interaction, &interaction_requests, compositor, NULL);
	compositor->logged = 0;
}

static const struct spi_preview_interaction_manager_v1_interface manager_requests = {destroy_request, get_interaction};

static void bind_manager(struct wl_client *client, void *data, uint32_t version, uint32_t id) {
	struct wl_resource *resource = wl_resource_create(client, &spi_preview_interaction_manager_v1_interface, version, id);
	wl_resource_set_implementation(resource, &manager_requests, data, NULL);
	if (version >= 2) {
		spi_preview_interaction_manager_v1_send_sensitivity(resource, 2);
		spi_preview_interaction_manager_v1_send_thresholds(
			resource, wl_fixed_from_double(0.12), wl_fixed_from_double(0.55), wl_fixed_from_double(0.88));
		spi_preview_interaction_manager_v1_send_long_press_duration(resource, 500);
		spi_preview_interaction_manager_v1_send_haptics(resource, 2);
		spi_preview_interaction_manager_v1_send_completion(resource, 1);
		spi_preview_interaction_manager_v1_send_settings_done(resource);
	}
}

static int run_job(int fd, uint32_t mask, void *data) {
	struct compositor *compositor = data;
	uint64_t count;
	(void)mask;
	if (read(fd, &count, sizeof count) != sizeof count) return 0;
	compositor->job(compositor, compositor->job_data);
	wl_display_flush_clients(compositor->display);
	pthread_mutex_lock(&compositor->lock);
	compositor->job_done = 1;
	pthread_cond_signal(&compositor->done);
	pthread_mutex_unlock(&compositor->lock);
	return 0;
}

static void *run_compositor(void *data) {
	struct compositor *compositor = data;
	struct wl_event_loop *loop = wl_display_get_event_loop(compositor->display);
	while (!__atomic_load_n(&compositor->stop, __ATOMIC_SEQ_CST)) {
		wl_event_loop_dispatch(loop, 20);
		wl_display_flush_clients(compositor->display);
	}
	return NULL;
}

/* Runs `job` on the compositor's thread and waits for it. */
static void on_compositor(struct compositor *compositor, void (*job)(struct compositor *, void *), void *data) {
	pthread_mutex_lock(&compositor->lock);
	compositor->job = job;
	compositor->job_data = data;
	compositor->job_done = 0;
	pthread_mutex_unlock(&compositor->lock);
	uint64_t one = 1;
	CHECK(write(compositor->wake, &one, sizeof one) == sizeof one);
	pthread_mutex_lock(&compositor->lock);
	while (!compositor->job_done) pthread_cond_wait(&compositor->done, &compositor->lock);
	pthread_mutex_unlock(&compositor->lock);
}

/* ---- the app's side ---- */

struct app {
	struct wl_display *display;
	struct wl_registry *registry;
	struct wl_compositor *wl_compositor;
	struct wl_surface *surface;
	struct preview_interaction_client *context;
	struct preview_interaction_client_interaction *interaction;
	struct preview_interaction_client_surface *with_items;
	char calls[64][64];
	int count;
	int asked;     /* should_begin calls */
	uint32_t last; /* the last press asked about */
	enum preview_interaction_client_answer answer;
	int remove_in_preview; /* item_remove from inside its preview call */
	int one_at_a_time;     /* declines while a press it accepted runs */
	uint32_t taken;        /* that press */
};

static void add_call(struct app *app, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void add_call(struct app *app, const char *format, ...) {
	if (app->count >= 64) return;
	va_list args;
	va_start(args, format);
	vsnprintf(app->calls[app->count++], sizeof app->calls[0], format, args);
	va_end(args);
}

static int has_call(struct app *app, const char *text) {
	for (int i = 0; i < app->count; i++)
		if (strcmp(app->calls[i], text) == 0) return 1;
	return 0;
}

static void print_calls(struct app *app) {
	for (int i = 0; i < app->count; i++) fprintf(stderr, "  call %d: %s\n", i, app->calls[i]);
}

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
	struct app *app = data;
	(void)version;
	if (strcmp(interface, "wl_compositor") == 0)
		app->wl_compositor = wl_registry_bind(registry, name, &wl_compositor_interface, 1);
}

static void global_remove(void *data, struct wl_registry *registry, uint32_t name) {
	(void)data, (void)registry, (void)name;
}

static const struct wl_registry_listener registry_listener = {global, global_remove};

static void on_log(void *data, enum preview_interaction_client_log_level level, const char *message) {
	(void)data, (void)level, (void)message;
}

static const struct preview_interaction_client_callbacks context_callbacks = {
	.size = sizeof context_callbacks, .log = on_log};

/* The compositor (version `version`) and the app connected to it, with a wl_surface. */
static void start(struct compositor *compositor, struct app *app, uint32_t version) {
	memset(compositor, 0, sizeof *compositor);
	memset(app, 0, sizeof *app);
	app->answer = PREVIEW_INTERACTION_CLIENT_ANSWER_ACCEPT;
	compositor->display = wl_display_create();
	compositor->version = version;
	compositor->wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	pthread_mutex_init(&compositor->lock, NULL);
	pthread_cond_init(&compositor->done, NULL);
	wl_global_create(compositor->display, &wl_compositor_interface, 4, NULL, bind_compositor);
	wl_global_create(compositor->display, &spi_preview_interaction_manager_v1_interface, (int)version, compositor,
		bind_manager);
	compositor->waking = wl_event_loop_add_fd(
		wl_display_get_event_loop(compositor->display), compositor->wake, WL_EVENT_READABLE, run_job, compositor);
	int fds[2];
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) == 0);
	wl_client_create(compositor->display, fds[0]);
	pthread_create(&compositor->thread, NULL, run_compositor, compositor);
	app->display = wl_display_connect_to_fd(fds[1]);
	app->registry = wl_display_get_registry(app->display);
	wl_registry_add_listener(app->registry, &registry_listener, app);
	wl_display_roundtrip(app->display);
	app->surface = wl_compositor_create_surface(app->wl_compositor);
	STATUS(preview_interaction_client_create(app->display, &context_callbacks, app, &app->context),
		PREVIEW_INTERACTION_CLIENT_OK);
}

static void stop(struct compositor *compositor, struct app *app) {
	STATUS(preview_interaction_client_destroy(app->context), PREVIEW_INTERACTION_CLIENT_OK);
	wl_surface_destroy(app->surface);
	wl_compositor_destroy(app->wl_compositor);
	wl_registry_destroy(app->registry);
	wl_display_disconnect(app->display);
	__atomic_store_n(&compositor->stop, 1, __ATOMIC_SEQ_CST);
	pthread_join(compositor->thread, NULL);
	wl_event_source_remove(compositor->waking);
	wl_display_destroy_clients(compositor->display);
	wl_display_destroy(compositor->display);
	close(compositor->wake);
}

/* Dispatches until `done` holds or 10 s passed. */
static int run_until(struct app *app, int (*done)(struct app *, const void *), const void *arg) {
	int fd = -1;
	STATUS(preview_interaction_client_get_fd(app->context, &fd), PREVIEW_INTERACTION_CLIENT_OK);
	double deadline = now_seconds() + 10;
	while (!done(app, arg)) {
		if (now_seconds() >= deadline) return 0;
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		if (poll(&pfd, 1, 100) > 0) preview_interaction_client_dispatch(app->context);
	}
	return 1;
}

static int seen_call(struct app *app, const void *text) { return has_call(app, text); }

static int asked_up_to(struct app *app, const void *id) { return app->last >= *(const uint32_t *)id; }

/* Waits until the compositor has read what the library sent (a roundtrip of the app's). */
static void settle(struct app *app) { wl_display_roundtrip(app->display); }

/* What the compositor logged, copied on its thread. */
struct log_copy {
	char lines[LOG_LINES][128];
	int count;
};

static void copy_log(struct compositor *compositor, void *data) {
	struct log_copy *copy = data;
	memcpy(copy->lines, compositor->log, sizeof copy->lines);
	copy->count = compositor->logged;
	compositor->logged = 0;
}

/* Whether the compositor got `line` (waiting up to 10 s, the app dispatching meanwhile: a
 * decline without a call is sent from dispatch). What it got is consumed. */
static int logged(struct compositor *compositor, struct app *app, const char *line) {
	static struct log_copy copy, all;
	all.count = 0;
	int fd = -1;
	preview_interaction_client_get_fd(app->context, &fd);
	double deadline = now_seconds() + 10;
	for (;;) {
		settle(app);
		on_compositor(compositor, copy_log, &copy);
		for (int i = 0; i < copy.count && all.count < LOG_LINES; i++) memcpy(all.lines[all.count++], copy.lines[i], 128);
		for (int i = 0; i < all.count; i++)
			if (strcmp(all.lines[i], line) == 0) return 1;
		if (now_seconds() >= deadline) break;
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		if (poll(&pfd, 1, 100) > 0) preview_interaction_client_dispatch(app->context);
	}
	fprintf(stderr, "  the compositor did not get \"%s\"; it got:\n", line);
	for (int i = 0; i < all.count; i++) fprintf(stderr, "    %s\n", all.lines[i]);
	return 0;
}

/* A press the compositor announces: should_begin with its location and behaviour, framed. */
struct press_script {
	uint32_t id, source, behaviour, stages;
	double x, y;
	int progress; /* also send preview 0.25 (in a frame of its own) */
	int commit;   /* also send preview_ended, commit 0.5 and completed */
};

static void frame(struct compositor *compositor, uint32_t id) {
	spi_preview_interaction_v1_send_frame(compositor->interaction, id, ++compositor->serial, 0, id);
}

static void announce(struct compositor *compositor, void *data) {
	const struct press_script *press = data;
	struct wl_resource *resource = compositor->interaction;
	spi_preview_interaction_v1_send_should_begin(resource, press->id, press->source, 1);
	spi_preview_interaction_v1_send_location(
		resource, press->id, wl_fixed_from_double(press->x), wl_fixed_from_double(press->y));
	if (compositor->version >= 2 && press->behaviour)
		spi_preview_interaction_v1_send_behaviour(resource, press->id, press->behaviour, press->stages);
	frame(compositor, press->id);
}

static void progress(struct compositor *compositor, void *data) {
	const struct press_script *press = data;
	spi_preview_interaction_v1_send_preview(compositor->interaction, press->id, wl_fixed_from_double(0.25));
	frame(compositor, press->id);
	if (!press->commit) return;
	spi_preview_interaction_v1_send_preview_ended(compositor->interaction, press->id);
	spi_preview_interaction_v1_send_commit(compositor->interaction, press->id, wl_fixed_from_double(0.5));
	frame(compositor, press->id);
	spi_preview_interaction_v1_send_completed(compositor->interaction, press->id);
	frame(compositor, press->id);
}

/* ---- items ---- */

/* An item's user data: its name and the app. */
struct named {
	char name[16];
	struct app *app;
};

static const char *item_name(struct preview_interaction_client_item *item) {
	void *data = NULL;
	STATUS(preview_interaction_client_item_get_user_data(item, &data), PREVIEW_INTERACTION_CLIENT_OK);
	return data ? ((struct named *)data)->name : "?";
}

static enum preview_interaction_client_answer item_should_begin(
	void *data, struct preview_interaction_client_item *item, const struct preview_interaction_client_press *press) {
	struct app *app = ((struct named *)data)->app;
	add_call(app, "%s %u: should_begin %s", item_name(item), press->id,
		preview_interaction_client_source_string(press->source));
	app->asked++;
	app->last = press->id;
	return app->answer;
}

static void item_preview(void *data, struct preview_interaction_client_item *item,
	const struct preview_interaction_client_press *press, double progress, bool ended) {
	struct app *app = ((struct named *)data)->app;
	add_call(app, "%s %u: preview %.2f%s", item_name(item), press->id, progress, ended ? " ended" : "");
	if (app->remove_in_preview) {
		app->remove_in_preview = 0;
		STATUS(preview_interaction_client_item_remove(item), PREVIEW_INTERACTION_CLIENT_OK);
		add_call(app, "(removed)");
	}
}

static void item_commit(void *data, struct preview_interaction_client_item *item,
	const struct preview_interaction_client_press *press, double progress, bool ended) {
	struct app *app = ((struct named *)data)->app;
	add_call(app, "%s %u: commit %.2f%s", item_name(item), press->id, progress, ended ? " ended" : "");
}

static void item_cancelled(void *data, struct preview_interaction_client_item *item,
	const struct preview_interaction_client_press *press, enum preview_interaction_client_cancel_reason reason) {
	struct app *app = ((struct named *)data)->app;
	CHECK(press->phase == PREVIEW_INTERACTION_CLIENT_PHASE_CANCELLED && press->cancel_reason == reason);
	add_call(app, "%s %u: cancelled %s", item_name(item), press->id,
		preview_interaction_client_cancel_reason_string(reason));
}

static const struct preview_interaction_client_item_callbacks item_callbacks = {
	.size = sizeof item_callbacks,
	.should_begin = item_should_begin,
	.preview = item_preview,
	.commit = item_commit,
	.cancelled = item_cancelled,
};

static void items(void) {
	struct compositor compositor;
	struct app app;
	start(&compositor, &app, 2);
	STATUS(preview_interaction_client_surface_attach(app.context, app.surface, NULL, &app, &app.with_items),
		PREVIEW_INTERACTION_CLIENT_OK);
	/* One object per wl_surface: no interaction beside it. */
	struct preview_interaction_client_interaction *second = NULL;
	STATUS(preview_interaction_client_interaction_attach(app.context, app.surface, NULL, NULL, &second),
		PREVIEW_INTERACTION_CLIENT_ERROR_SURFACE_TAKEN);
	CHECK(logged(&compositor, &app, "region "));

	struct named photo = {"photo", &app}, button = {"button", &app}, zoom = {"zoom", &app};
	struct preview_interaction_client_item *photo_item = NULL, *button_item = NULL, *zoom_item = NULL;
	STATUS(preview_interaction_client_item_add(app.with_items, &item_callbacks, &photo, &photo_item),
		PREVIEW_INTERACTION_CLIENT_OK);
	STATUS(preview_interaction_client_item_add(app.with_items, &item_callbacks, &button, &button_item),
		PREVIEW_INTERACTION_CLIENT_OK);
	STATUS(preview_interaction_client_item_add(app.with_items, &item_callbacks, &zoom, &zoom_item),
		PREVIEW_INTERACTION_CLIENT_OK);
	struct preview_interaction_client_rect photo_rect = {0, 0, 100, 100}, button_rect = {200, 0, 50, 20},
					       zoom_rect = {10, 10, 20, 20};
	STATUS(preview_interaction_client_item_set_rect(photo_item, &photo_rect), PREVIEW_INTERACTION_CLIENT_OK);
	STATUS(preview_interaction_client_item_set_rect(button_item, &button_rect), PREVIEW_INTERACTION_CLIENT_OK);
	STATUS(preview_interaction_client_item_set_rect(zoom_item, &zoom_rect), PREVIEW_INTERACTION_CLIENT_OK);
	STATUS(preview_interaction_client_item_set_depth(photo_item, 3), PREVIEW_INTERACTION_CLIENT_OK);
	STATUS(preview_interaction_client_item_set_depth(button_item, 3), PREVIEW_INTERACTION_CLIENT_OK);
	STATUS(preview_interaction_client_item_set_depth(zoom_item, 4), PREVIEW_INTERACTION_CLIENT_OK);
	STATUS(preview_interaction_client_item_set_behaviour(zoom_item, PREVIEW_INTERACTION_CLIENT_BEHAVIOUR_ACCELERATOR, 3),
		PREVIEW_INTERACTION_CLIENT_OK);
	STATUS(preview_interaction_client_item_set_behaviour(zoom_item, PREVIEW_INTERACTION_CLIENT_BEHAVIOUR_ACCELERATOR, 9),
		PREVIEW_INTERACTION_CLIENT_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_client_item_set_sources(button_item, 64), PREVIEW_INTERACTION_CLIENT_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_client_surface_set_focus(app.with_items, button_item, 225, 10),
		PREVIEW_INTERACTION_CLIENT_OK);
	bool changed = false;
	STATUS(preview_interaction_client_surface_layout_changed(app.with_items, &changed), PREVIEW_INTERACTION_CLIENT_OK);
	CHECK(changed);
	CHECK(logged(&compositor, &app, "region 0,0,100,100 200,0,50,20 10,10,20,20"));
	STATUS(preview_interaction_client_surface_layout_changed(app.with_items, &changed), PREVIEW_INTERACTION_CLIENT_OK);
	CHECK(!changed);
	/* The same again, and what version 2 adds: the accelerator's area, the focus point, the
	 * keyboard among the sources. */
	STATUS(preview_interaction_client_item_set_rect(zoom_item, NULL), PREVIEW_INTERACTION_CLIENT_OK);
	STATUS(preview_interaction_client_surface_layout_changed(app.with_items, &changed), PREVIEW_INTERACTION_CLIENT_OK);
	CHECK(changed && logged(&compositor, &app, "region 0,0,100,100 200,0,50,20"));
	STATUS(preview_interaction_client_item_set_rect(zoom_item, &zoom_rect), PREVIEW_INTERACTION_CLIENT_OK);
	STATUS(preview_interaction_client_surface_layout_changed(app.with_items, &changed), PREVIEW_INTERACTION_CLIENT_OK);
	settle(&app);
	static struct log_copy copy;
	on_compositor(&compositor, copy_log, &copy);
	int behaviour = 0;
	for (int i = 0; i < copy.count; i++)
		if (strcmp(copy.lines[i], "behaviour 3 3 10,10,20,20") == 0) behaviour = 1;
	CHECK(behaviour);

	/* A pen press on the photo, one on the zoom (an accelerator: the compositor says so), a touch
	 * on nothing; the keyboard's goes to the focused button. */
	struct press_script on_photo = {.id = 1, .source = 1, .x = 50, .y = 60, .progress = 1, .commit = 1};
	on_compositor(&compositor, announce, &on_photo);
	CHECK(run_until(&app, seen_call, "photo 1: should_begin pen"));
	on_compositor(&compositor, progress, &on_photo);
	CHECK(run_until(&app, seen_call, "photo 1: commit 1.00 ended"));
	struct preview_interaction_client_press latest;
	STATUS(preview_interaction_client_item_get_press(photo_item, &latest), PREVIEW_INTERACTION_CLIENT_OK);
	CHECK(latest.id == 1 && latest.phase == PREVIEW_INTERACTION_CLIENT_PHASE_COMPLETED);
	STATUS(preview_interaction_client_item_get_press(button_item, &latest), PREVIEW_INTERACTION_CLIENT_OK);
	CHECK(latest.id == 0 && latest.phase == PREVIEW_INTERACTION_CLIENT_PHASE_NONE);

	/* A deep-click press where the accelerator is: not the zoom's to have, declined without a
	 * call; its accelerator press is the zoom's. */
	struct press_script wrong = {.id = 2, .source = 1, .x = 15, .y = 15, .behaviour = 1};
	on_compositor(&compositor, announce, &wrong);
	CHECK(logged(&compositor, &app, "decline 2"));
	struct press_script zoomed = {.id = 3, .source = 1, .x = 15, .y = 15, .behaviour = 3, .stages = 3};
	on_compositor(&compositor, announce, &zoomed);
	CHECK(run_until(&app, seen_call, "zoom 3: should_begin pen"));
	CHECK(!has_call(&app, "zoom 2: should_begin pen") && !has_call(&app, "photo 2: should_begin pen"));
	struct press_script nowhere = {.id = 4, .source = 3, .x = 150, .y = 150};
	on_compositor(&compositor, announce, &nowhere);
	CHECK(logged(&compositor, &app, "decline 4"));
	struct press_script key = {.id = 5, .source = 5, .x = 225, .y = 10};
	app.answer = PREVIEW_INTERACTION_CLIENT_ANSWER_DECLINE;
	on_compositor(&compositor, announce, &key);
	CHECK(run_until(&app, seen_call, "button 5: should_begin keyboard"));
	CHECK(logged(&compositor, &app, "decline 5"));
	STATUS(preview_interaction_client_item_get_press(button_item, &latest), PREVIEW_INTERACTION_CLIENT_OK);
	CHECK(latest.id == 5 && latest.phase == PREVIEW_INTERACTION_CLIENT_PHASE_DECLINED
	      && latest.cancel_reason == PREVIEW_INTERACTION_CLIENT_CANCEL_DECLINED);
	app.answer = PREVIEW_INTERACTION_CLIENT_ANSWER_ACCEPT;
	/* Another item's press is not this one's to answer or cancel. */
	STATUS(preview_interaction_client_item_cancel(photo_item, 3), PREVIEW_INTERACTION_CLIENT_ERROR_UNKNOWN_PRESS);
	uint32_t running = 0;
	STATUS(preview_interaction_client_item_running_count(zoom_item, &running), PREVIEW_INTERACTION_CLIENT_OK);
	CHECK(running == 1);

	/* Removing the photo from inside its own preview call cancels its press there and then (a
	 * touch: the pen still holds the zoom). */
	struct press_script again = {.id = 6, .source = 3, .x = 50, .y = 60, .progress = 1};
	app.remove_in_preview = 1;
	on_compositor(&compositor, announce, &again);
	CHECK(run_until(&app, seen_call, "photo 6: should_begin touchscreen"));
	on_compositor(&compositor, progress, &again);
	CHECK(run_until(&app, seen_call, "photo 6: cancelled client_cancelled"));
	CHECK(logged(&compositor, &app, "cancel 6"));
	STATUS(preview_interaction_client_item_get_press(photo_item, &latest),
		PREVIEW_INTERACTION_CLIENT_ERROR_INVALID_INTERACTION);

	/* The surface goes with the zoom's press running: it hears of it. */
	STATUS(preview_interaction_client_surface_detach(app.with_items), PREVIEW_INTERACTION_CLIENT_OK);
	CHECK(has_call(&app, "zoom 3: cancelled surface_gone"));
	STATUS(preview_interaction_client_item_running_count(zoom_item, &running),
		PREVIEW_INTERACTION_CLIENT_ERROR_INVALID_INTERACTION);
	if (failed) print_calls(&app);
	stop(&compositor, &app);
}

/* ---- the hostile compositor ---- */

static enum preview_interaction_client_answer interaction_should_begin(void *data,
	struct preview_interaction_client_interaction *interaction, const struct preview_interaction_client_press *press) {
	struct app *app = data;
	(void)interaction;
	app->asked++;
	app->last = press->id;
	if (!app->one_at_a_time) return app->answer;
	if (app->taken != 0) return PREVIEW_INTERACTION_CLIENT_ANSWER_DECLINE;
	app->taken = press->id;
	return PREVIEW_INTERACTION_CLIENT_ANSWER_ACCEPT;
}

static void interaction_cancelled(void *data, struct preview_interaction_client_interaction *interaction,
	const struct preview_interaction_client_press *press, enum preview_interaction_client_cancel_reason reason) {
	struct app *app = data;
	(void)interaction;
	add_call(app, "%u: cancelled %s", press->id, preview_interaction_client_cancel_reason_string(reason));
	app->count = app->count >= 60 ? 0 : app->count;
	if (press->id == app->taken) app->taken = 0;
}

static const struct preview_interaction_client_interaction_callbacks hostile_callbacks = {
	.size = sizeof hostile_callbacks, .should_begin = interaction_should_begin, .cancelled = interaction_cancelled};

/* Presses `first` ... `last`, each announced, never ended. */
struct flood {
	uint32_t first, last, source;
};

static void flood_presses(struct compositor *compositor, void *data) {
	const struct flood *flood = data;
	for (uint32_t id = flood->first; id <= flood->last; id++) {
		struct press_script press = {.id = id, .source = flood->source, .x = 5, .y = 5};
		announce(compositor, &press);
	}
}

/* 10,000 presses in batches the app answers as they come (a press that a newer one pushed out
 * before the app heard of it is never asked), then a fresh one: the newest is asked every time. */
static void never_ended(struct compositor *compositor, struct app *app, uint32_t source) {
	int newest_asked = 1;
	for (uint32_t first = 1; first <= 10000; first += 100) {
		struct flood flood = {first, first + 99, source};
		on_compositor(compositor, flood_presses, &flood);
		newest_asked = run_until(app, asked_up_to, &flood.last) && app->last == flood.last;
		if (!newest_asked) break;
	}
	CHECK(newest_asked && app->last == 10000);
	settle(app);
	static struct log_copy cleared;
	on_compositor(compositor, copy_log, &cleared);
	struct flood fresh = {10001, 10001, source};
	on_compositor(compositor, flood_presses, &fresh);
	CHECK(run_until(app, asked_up_to, &fresh.last) && app->last == 10001);
	CHECK(logged(compositor, app, "accept 10001"));
}

static void hostile(void) {
	/* On an interaction. */
	struct compositor compositor;
	struct app app;
	start(&compositor, &app, 2);
	STATUS(preview_interaction_client_interaction_attach(
		       app.context, app.surface, &hostile_callbacks, &app, &app.interaction),
		PREVIEW_INTERACTION_CLIENT_OK);
	settle(&app);
	never_ended(&compositor, &app, 3);
	uint32_t running = 0;
	STATUS(preview_interaction_client_interaction_running_count(app.interaction, &running), PREVIEW_INTERACTION_CLIENT_OK);
	CHECK(running == 32);
	stop(&compositor, &app);

	/* A pen's presses, to an app that takes one at a time: busy for good with the first one it
	 * took unless each new pen press ends the older one the compositor never ended. */
	start(&compositor, &app, 2);
	app.one_at_a_time = 1;
	STATUS(preview_interaction_client_interaction_attach(
		       app.context, app.surface, &hostile_callbacks, &app, &app.interaction),
		PREVIEW_INTERACTION_CLIENT_OK);
	settle(&app);
	never_ended(&compositor, &app, 1);
	CHECK(app.taken == 10001);
	STATUS(preview_interaction_client_interaction_running_count(app.interaction, &running), PREVIEW_INTERACTION_CLIENT_OK);
	CHECK(running == 1);
	stop(&compositor, &app);

	/* On a surface with items. */
	start(&compositor, &app, 2);
	STATUS(preview_interaction_client_surface_attach(app.context, app.surface, NULL, &app, &app.with_items),
		PREVIEW_INTERACTION_CLIENT_OK);
	struct named photo = {"photo", &app};
	struct preview_interaction_client_item *item = NULL;
	STATUS(preview_interaction_client_item_add(app.with_items, &item_callbacks, &photo, &item),
		PREVIEW_INTERACTION_CLIENT_OK);
	struct preview_interaction_client_rect rect = {0, 0, 100, 100};
	STATUS(preview_interaction_client_item_set_rect(item, &rect), PREVIEW_INTERACTION_CLIENT_OK);
	STATUS(preview_interaction_client_surface_layout_changed(app.with_items, NULL), PREVIEW_INTERACTION_CLIENT_OK);
	settle(&app);
	app.count = 0;
	never_ended(&compositor, &app, 3);
	STATUS(preview_interaction_client_item_running_count(item, &running), PREVIEW_INTERACTION_CLIENT_OK);
	CHECK(running == 32);

	/* The app cancels a press; the compositor goes on with its commit and completion, twice. */
	app.count = 0;
	uint32_t cancelled = app.last;
	STATUS(preview_interaction_client_item_cancel(item, cancelled), PREVIEW_INTERACTION_CLIENT_OK);
	struct press_script ignored = {.id = cancelled, .progress = 1, .commit = 1};
	on_compositor(&compositor, progress, &ignored);
	on_compositor(&compositor, progress, &ignored);
	struct press_script next = {.id = cancelled + 1, .source = 1, .x = 5, .y = 5};
	on_compositor(&compositor, announce, &next);
	char text[64];
	snprintf(text, sizeof text, "photo %u: should_begin pen", cancelled + 1);
	CHECK(run_until(&app, seen_call, text));
	snprintf(text, sizeof text, "photo %u: commit 1.00 ended", cancelled);
	CHECK(!has_call(&app, text));
	snprintf(text, sizeof text, "accept %u", cancelled + 1);
	CHECK(logged(&compositor, &app, text));
	if (failed) print_calls(&app);
	stop(&compositor, &app);
}

int main(void) {
	items();
	hostile();
	printf("%d passed, %d failed\n", passed, failed);
	return failed == 0 ? 0 : 1;
}
