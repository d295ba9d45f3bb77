/*
 * libpreview-interaction-client from C, under AddressSanitizer and UBSan, the way an app's
 * main loop drives it (poll the library's descriptor, dispatch):
 * - a compositor without the global: unavailable, attaching works, nothing is reported;
 * - the scripted protocol server: a press to completion with should-begin answered late,
 *   a declined press that reports nothing more, a cancel reported at once;
 * - the compositor killed mid-interaction: the press ends cancelled (system), dispatch
 *   reports the lost connection;
 * - misuse: NULL and stale handles, the wrong thread, destroy from a callback, bad
 *   arguments each return their status;
 * - protocol version 2 against the scripted server (settings, a haptic effect only while the
 *   press runs, behaviours, the focus point) and version 1 against the in-process one (every
 *   version 2 call returns UNSUPPORTED and sends nothing).
 * Prints "N passed, N failed".
 *
 * usage: client-api PATH/TO/preview-protocol-test-server
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>
#include <wayland-server.h>

#include "preview-interaction-client.h"
#include "preview-interaction-v1-server-protocol.h"
#include <sys/eventfd.h>

#define CHECK_STATUS_STRING preview_interaction_client_status_string
#include "check.h"

static double now_seconds(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- what the app records ---- */

#define MAX_CALLS 64

struct app {
	struct preview_interaction_client *context;
	struct preview_interaction_client_interaction *interaction;
	char calls[MAX_CALLS][64];
	int count;
	int warnings; /* WARNING messages: the compositor broke the protocol */
	int errors;   /* ERROR messages: misuse */
	enum preview_interaction_client_answer answer;
	uint32_t asked; /* the last press asked about */
	double x, y;
	enum preview_interaction_client_source source;
	enum preview_interaction_client_behaviour behaviour;
	int cancel_in_preview; /* cancel from inside the first preview call */
	int try_destroy;       /* try destroy from inside the next should_begin */
	int destroy_status;
};

static void add_call(struct app *app, const char *text) {
	if (app->count < MAX_CALLS) snprintf(app->calls[app->count++], sizeof app->calls[0], "%s", text);
}

static void on_log(void *data, enum preview_interaction_client_log_level level, const char *message) {
	struct app *app = data;
	if (level == PREVIEW_INTERACTION_CLIENT_LOG_WARNING) {
		__atomic_add_fetch(&app->warnings, 1, __ATOMIC_SEQ_CST);
		fprintf(stderr, "  library: %s\n", message);
	} else if (level == PREVIEW_INTERACTION_CLIENT_LOG_ERROR) {
		__atomic_add_fetch(&app->errors, 1, __ATOMIC_SEQ_CST);
	}
}

static enum preview_interaction_client_answer on_should_begin(void *data,
	struct preview_interaction_client_interaction *interaction, const struct preview_interaction_client_press *press) {
	struct app *app = data;
	char text[64];
	snprintf(text, sizeof text, "%u: should_begin", press->id);
	add_call(app, text);
	app->asked = press->id;
	app->x = press->x;
	app->y = press->y;
	app->source = press->source;
	app->behaviour = press->behaviour;
	if (app->try_destroy) {
		app->try_destroy = 0;
		app->destroy_status = preview_interaction_client_destroy(app->context);
	}
	(void)interaction;
	return app->answer;
}

static void on_preview(void *data, struct preview_interaction_client_interaction *interaction,
	const struct preview_interaction_client_press *press, double progress, bool ended) {
	struct app *app = data;
	char text[64];
	snprintf(text, sizeof text, "%u: preview %.2f%s", press->id, progress, ended ? " ended" : "");
	add_call(app, text);
	if (app->cancel_in_preview) {
		app->cancel_in_preview = 0;
		STATUS(preview_interaction_client_interaction_cancel(interaction, press->id), PREVIEW_INTERACTION_CLIENT_OK);
		add_call(app, "(cancel returned)");
	}
}

static void on_commit(void *data, struct preview_interaction_client_interaction *interaction,
	const struct preview_interaction_client_press *press, double progress, bool ended) {
	struct app *app = data;
	char text[64];
	(void)interaction;
	snprintf(text, sizeof text, "%u: commit %.2f%s", press->id, progress, ended ? " ended" : "");
	add_call(app, text);
}

static void on_cancelled(void *data, struct preview_interaction_client_interaction *interaction,
	const struct preview_interaction_client_press *press, enum preview_interaction_client_cancel_reason reason) {
	struct app *app = data;
	char text[64];
	(void)interaction;
	CHECK(press->cancel_reason == reason && press->phase == PREVIEW_INTERACTION_CLIENT_PHASE_CANCELLED);
	snprintf(text, sizeof text, "%u: cancelled %s", press->id, preview_interaction_client_cancel_reason_string(reason));
	add_call(app, text);
}

static const struct preview_interaction_client_interaction_callbacks interaction_callbacks = {
	.size = sizeof(struct preview_interaction_client_interaction_callbacks),
	.should_begin = on_should_begin,
	.preview = on_preview,
	.commit = on_commit,
	.cancelled = on_cancelled,
};

/* Polls the library's descriptor and dispatches until `count` calls arrived or 10 s passed;
 * returns the last dispatch status. */
static int run_until(struct app *app, int count) {
	int fd = -1, status = PREVIEW_INTERACTION_CLIENT_OK;
	STATUS(preview_interaction_client_get_fd(app->context, &fd), PREVIEW_INTERACTION_CLIENT_OK);
	double deadline = now_seconds() + 10;
	while (app->count < count && now_seconds() < deadline) {
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		if (poll(&pfd, 1, 100) > 0) {
			status = preview_interaction_client_dispatch(app->context);
			if (status == PREVIEW_INTERACTION_CLIENT_ERROR_DISCONNECTED) break;
		}
	}
	return status;
}

/* Like run_until, until the call `text` arrived. */
static int run_until_call(struct app *app, const char *text) {
	int fd = -1, status = PREVIEW_INTERACTION_CLIENT_OK;
	STATUS(preview_interaction_client_get_fd(app->context, &fd), PREVIEW_INTERACTION_CLIENT_OK);
	double deadline = now_seconds() + 10;
	for (;;) {
		for (int i = 0; i < app->count; i++)
			if (strcmp(app->calls[i], text) == 0) return status;
		if (now_seconds() >= deadline) return status;
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		if (poll(&pfd, 1, 100) > 0) {
			status = preview_interaction_client_dispatch(app->context);
			if (status == PREVIEW_INTERACTION_CLIENT_ERROR_DISCONNECTED) return status;
		}
	}
}

/* The calls, except preview progress: flow control keeps the latest value only (in the
 * compositor and for a busy app), so which of the server's 0.25 and 0.5 arrive depends on
 * timing. */
static int has_calls(struct app *app, const char *const *expected, int n) {
	int seen = 0;
	for (int i = 0; i < app->count; i++) {
		if (strstr(app->calls[i], ": preview 0.")) continue;
		if (seen >= n || strcmp(app->calls[i], expected[seen]) != 0) return 0;
		seen++;
	}
	return seen == n;
}

static void print_calls(struct app *app) {
	for (int i = 0; i < app->count; i++) fprintf(stderr, "  call %d: %s\n", i, app->calls[i]);
}

/* ---- the scripted server, a child process ---- */

struct server {
	pid_t pid;
	char socket[640];
};

static int start_server(const char *binary, const char *runtime, struct server *server) {
	int out[2];
	if (pipe(out) != 0) return -1;
	server->pid = fork();
	if (server->pid == 0) {
		char env[300];
		snprintf(env, sizeof env, "XDG_RUNTIME_DIR=%s", runtime);
		char *const envp[] = {env, NULL};
		char *const argv[] = {(char *)binary, "capi-client", NULL};
		dup2(out[1], 1);
		close(out[0]);
		execve(binary, argv, envp);
		_exit(127);
	}
	close(out[1]);
	char line[300] = {0};
	size_t used = 0;
	while (used < sizeof line - 1) {
		ssize_t n = read(out[0], line + used, 1);
		if (n <= 0 || line[used] == '\n') break;
		used++;
	}
	line[used] = 0;
	close(out[0]);
	if (strncmp(line, "WAYLAND_DISPLAY=", 16) != 0) return -1;
	snprintf(server->socket, sizeof server->socket, "%s/%s", runtime, line + 16);
	return 0;
}

static void stop_server(struct server *server, int signal_number) {
	if (server->pid <= 0) return;
	if (signal_number) kill(server->pid, signal_number);
	waitpid(server->pid, NULL, 0);
	server->pid = 0;
}

/* The app's own globals: the compositor for its surface. */
struct globals {
	struct wl_compositor *compositor;
};

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
	struct globals *globals = data;
	(void)version;
	if (strcmp(interface, "wl_compositor") == 0)
		globals->compositor = wl_registry_bind(registry, name, &wl_compositor_interface, 1);
}

static void global_remove(void *data, struct wl_registry *registry, uint32_t name) {
	(void)data, (void)registry, (void)name;
}

static const struct wl_registry_listener registry_listener = {global, global_remove};

struct connection {
	struct wl_display *display;
	struct wl_registry *registry;
	struct globals globals;
	struct wl_surface *surface;
};

static int connect_app(struct connection *connection, struct wl_display *display) {
	memset(connection, 0, sizeof *connection);
	connection->display = display;
	if (!display) return -1;
	connection->registry = wl_display_get_registry(display);
	wl_registry_add_listener(connection->registry, &registry_listener, &connection->globals);
	wl_display_roundtrip(display);
	if (!connection->globals.compositor) return -1;
	connection->surface = wl_compositor_create_surface(connection->globals.compositor);
	return 0;
}

static void disconnect_app(struct connection *connection) {
	if (connection->surface) wl_surface_destroy(connection->surface);
	if (connection->globals.compositor) wl_compositor_destroy(connection->globals.compositor);
	if (connection->registry) wl_registry_destroy(connection->registry);
	wl_display_disconnect(connection->display);
}

static const struct preview_interaction_client_callbacks context_callbacks = {
	.size = sizeof(struct preview_interaction_client_callbacks),
	.log = on_log,
};

/* ---- a press to completion, answered late; a decline; a cancel ---- */

static void scripted_presses(const char *server_binary, const char *runtime) {
	struct server server;
	if (start_server(server_binary, runtime, &server) != 0) {
		CHECK(!"the scripted server started");
		return;
	}
	struct connection connection;
	CHECK(connect_app(&connection, wl_display_connect(server.socket)) == 0);
	struct app app = {.answer = PREVIEW_INTERACTION_CLIENT_ANSWER_LATER, .try_destroy = 1};
	STATUS(preview_interaction_client_create(connection.display, &context_callbacks, &app, &app.context),
		PREVIEW_INTERACTION_CLIENT_OK);
	bool available = false;
	STATUS(preview_interaction_client_is_available(app.context, &available), PREVIEW_INTERACTION_CLIENT_OK);
	CHECK(available);
	STATUS(preview_interaction_client_interaction_attach(app.context, connection.surface, &interaction_callbacks,
		       &app, &app.interaction),
		PREVIEW_INTERACTION_CLIENT_OK);
	STATUS(preview_interaction_client_interaction_attach(app.context, connection.surface, &interaction_callbacks,
		       &app, &(struct preview_interaction_client_interaction *){NULL}),
		PREVIEW_INTERACTION_CLIENT_ERROR_SURFACE_TAKEN);
	/* A second context on the same display (another toolkit component) may not take it either. */
	struct preview_interaction_client *second = NULL;
	STATUS(preview_interaction_client_create(connection.display, &context_callbacks, &app, &second),
		PREVIEW_INTERACTION_CLIENT_OK);
	STATUS(preview_interaction_client_interaction_attach(second, connection.surface, &interaction_callbacks, &app,
		       &(struct preview_interaction_client_interaction *){NULL}),
		PREVIEW_INTERACTION_CLIENT_ERROR_SURFACE_TAKEN);
	STATUS(preview_interaction_client_destroy(second), PREVIEW_INTERACTION_CLIENT_OK);
	void *user_data = NULL;
	STATUS(preview_interaction_client_interaction_get_user_data(app.interaction, &user_data), PREVIEW_INTERACTION_CLIENT_OK);
	CHECK(user_data == &app);

	/* The scripted server begins an interaction at every commit of the surface. */
	wl_surface_commit(connection.surface);
	wl_display_flush(connection.display);
	run_until(&app, 1);
	CHECK(app.count == 1 && app.asked == 1);
	CHECK(app.x == 10.5 && app.y == 20.25 && app.source == PREVIEW_INTERACTION_CLIENT_SOURCE_TOUCHSCREEN);
	CHECK(app.behaviour == PREVIEW_INTERACTION_CLIENT_BEHAVIOUR_DEEP_CLICK);
	STATUS(app.destroy_status, PREVIEW_INTERACTION_CLIENT_ERROR_BUSY);
	/* Not accepted yet: no effect is sent. */
	STATUS(preview_interaction_client_interaction_play_haptic(app.interaction, 1, PREVIEW_INTERACTION_CLIENT_HAPTIC_TICK),
		PREVIEW_INTERACTION_CLIENT_ERROR_NOT_RUNNING);
	uint32_t running = 0;
	STATUS(preview_interaction_client_interaction_running_count(app.interaction, &running), PREVIEW_INTERACTION_CLIENT_OK);
	CHECK(running == 1);
	/* Answered later, from the main loop, after the callback returned. */
	STATUS(preview_interaction_client_interaction_answer(app.interaction, 1, true), PREVIEW_INTERACTION_CLIENT_OK);
	STATUS(preview_interaction_client_interaction_answer(app.interaction, 1, true),
		PREVIEW_INTERACTION_CLIENT_ERROR_ALREADY_ANSWERED);
	STATUS(preview_interaction_client_interaction_answer(app.interaction, 99, true),
		PREVIEW_INTERACTION_CLIENT_ERROR_UNKNOWN_PRESS);
	run_until_call(&app, "1: commit 0.50");
	/* Running: an effect is sent (the scripted server has no haptic device: dropped there). */
	STATUS(preview_interaction_client_interaction_play_haptic(app.interaction, 1, PREVIEW_INTERACTION_CLIENT_HAPTIC_TICK),
		PREVIEW_INTERACTION_CLIENT_OK);
	STATUS(preview_interaction_client_interaction_play_haptic(app.interaction, 1, 9),
		PREVIEW_INTERACTION_CLIENT_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_client_interaction_play_haptic(app.interaction, 99, PREVIEW_INTERACTION_CLIENT_HAPTIC_TICK),
		PREVIEW_INTERACTION_CLIENT_ERROR_UNKNOWN_PRESS);
	bool haptics = true;
	STATUS(preview_interaction_client_interaction_haptics_available(app.interaction, 1, &haptics),
		PREVIEW_INTERACTION_CLIENT_OK);
	CHECK(!haptics);
	/* The commit phase: the next surface commit completes it. Held acknowledgements first
	 * (a toolkit committing on its own): will_commit names the last frame delivered. */
	STATUS(preview_interaction_client_interaction_set_hold_acks(app.interaction, true), PREVIEW_INTERACTION_CLIENT_OK);
	uint32_t shown = 0;
	STATUS(preview_interaction_client_interaction_will_commit(app.interaction, &shown), PREVIEW_INTERACTION_CLIENT_OK);
	CHECK(shown > 0);
	STATUS(preview_interaction_client_interaction_will_commit(app.interaction, NULL), PREVIEW_INTERACTION_CLIENT_OK);
	STATUS(preview_interaction_client_interaction_set_hold_acks(app.interaction, false), PREVIEW_INTERACTION_CLIENT_OK);
	STATUS(preview_interaction_client_interaction_commit_surface(app.interaction), PREVIEW_INTERACTION_CLIENT_OK);
	wl_display_flush(connection.display);
	run_until_call(&app, "1: commit 1.00 ended");
	const char *const completed[] = {
		"1: should_begin", "1: preview 1.00 ended", "1: commit 0.50", "1: commit 1.00 ended"};
	CHECK(has_calls(&app, completed, 4));
	CHECK(strstr(app.calls[1], "1: preview 0.") == app.calls[1]);
	if (!has_calls(&app, completed, 4)) print_calls(&app);
	STATUS(preview_interaction_client_interaction_play_haptic(app.interaction, 1, PREVIEW_INTERACTION_CLIENT_HAPTIC_CONFIRM),
		PREVIEW_INTERACTION_CLIENT_ERROR_PRESS_ENDED);

	/* Declined: nothing more about it (the server answers with cancelled(declined)). */
	app.count = 0;
	app.answer = PREVIEW_INTERACTION_CLIENT_ANSWER_DECLINE;
	wl_surface_commit(connection.surface);
	wl_display_flush(connection.display);
	run_until(&app, 1);
	CHECK(app.count == 1 && app.asked == 2);
	/* A third press shows the decline's cancelled was read and made no call. */
	app.answer = PREVIEW_INTERACTION_CLIENT_ANSWER_ACCEPT;
	app.cancel_in_preview = 1;
	wl_surface_commit(connection.surface);
	wl_display_flush(connection.display);
	run_until_call(&app, "3: cancelled client_cancelled");
	/* The cancel is reported right after the callback it was made from, and nothing after it. */
	CHECK(app.count == 5 && strcmp(app.calls[3], "(cancel returned)") == 0 &&
		strcmp(app.calls[4], "3: cancelled client_cancelled") == 0);
	CHECK(strcmp(app.calls[0], "2: should_begin") == 0 && strcmp(app.calls[1], "3: should_begin") == 0);
	if (app.count != 5) print_calls(&app);
	STATUS(preview_interaction_client_interaction_cancel(app.interaction, 3), PREVIEW_INTERACTION_CLIENT_ERROR_PRESS_ENDED);
	STATUS(preview_interaction_client_interaction_answer(app.interaction, 3, true),
		PREVIEW_INTERACTION_CLIENT_ERROR_PRESS_ENDED);

	/* A region and sources for later presses (sent on the wire; bad values refused). */
	struct preview_interaction_client_rect rects[2] = {{0, 0, 100, 50}, {0, 60, 100, 50}};
	STATUS(preview_interaction_client_interaction_set_region(app.interaction, rects, 2), PREVIEW_INTERACTION_CLIENT_OK);
	STATUS(preview_interaction_client_interaction_set_region(app.interaction, NULL, 0), PREVIEW_INTERACTION_CLIENT_OK);
	STATUS(preview_interaction_client_interaction_set_region(app.interaction, NULL, 3),
		PREVIEW_INTERACTION_CLIENT_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_client_interaction_set_sources(app.interaction, PREVIEW_INTERACTION_CLIENT_SOURCES_PEN),
		PREVIEW_INTERACTION_CLIENT_OK);
	STATUS(preview_interaction_client_interaction_set_sources(app.interaction, 32),
		PREVIEW_INTERACTION_CLIENT_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_client_interaction_set_sources(app.interaction, PREVIEW_INTERACTION_CLIENT_SOURCES_ALL),
		PREVIEW_INTERACTION_CLIENT_OK);
	STATUS(preview_interaction_client_interaction_set_enabled(app.interaction, false), PREVIEW_INTERACTION_CLIENT_OK);
	/* Version 2's settings of the interaction: accepted by the server (no protocol error). */
	STATUS(preview_interaction_client_interaction_set_focus_point(app.interaction, 40, 30), PREVIEW_INTERACTION_CLIENT_OK);
	STATUS(preview_interaction_client_interaction_set_focus_point(app.interaction, 0.0 / 0.0, 30),
		PREVIEW_INTERACTION_CLIENT_ERROR_INVALID_ARGUMENT);
	struct preview_interaction_client_rect left = {0, 0, 50, 100};
	struct preview_interaction_client_behaviour_area areas[2] = {
		{PREVIEW_INTERACTION_CLIENT_BEHAVIOUR_GENERIC, 0, &left, 1},
		{PREVIEW_INTERACTION_CLIENT_BEHAVIOUR_ACCELERATOR, 3, NULL, 0},
	};
	STATUS(preview_interaction_client_interaction_set_behaviours(app.interaction, areas, 2), PREVIEW_INTERACTION_CLIENT_OK);
	areas[1].stages = 6;
	STATUS(preview_interaction_client_interaction_set_behaviours(app.interaction, areas, 2),
		PREVIEW_INTERACTION_CLIENT_ERROR_INVALID_ARGUMENT);
	areas[0].stages = 1;
	STATUS(preview_interaction_client_interaction_set_behaviours(app.interaction, areas, 1),
		PREVIEW_INTERACTION_CLIENT_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_client_interaction_set_behaviours(app.interaction, NULL, 0), PREVIEW_INTERACTION_CLIENT_OK);
	STATUS(preview_interaction_client_interaction_unset_focus_point(app.interaction), PREVIEW_INTERACTION_CLIENT_OK);
	CHECK(wl_display_roundtrip(connection.display) >= 0 && wl_display_get_error(connection.display) == 0);
	/* The user's settings, read at create (the scripted server's are the defaults). */
	uint32_t version = 0;
	STATUS(preview_interaction_client_get_protocol_version(app.context, &version), PREVIEW_INTERACTION_CLIENT_OK);
	CHECK(version == 2);
	struct preview_interaction_client_settings settings = {.size = sizeof settings};
	STATUS(preview_interaction_client_get_settings(app.context, &settings), PREVIEW_INTERACTION_CLIENT_OK);
	CHECK(settings.size == sizeof settings && settings.sensitivity == PREVIEW_INTERACTION_CLIENT_SENSITIVITY_MEDIUM);
	CHECK(settings.begin_threshold > 0 && settings.begin_threshold < settings.commit_threshold &&
		settings.commit_threshold < settings.complete_threshold && settings.complete_threshold <= 1);
	CHECK(settings.long_press_ms == 500 && settings.haptics == PREVIEW_INTERACTION_CLIENT_HAPTICS_OFF &&
		settings.completion == PREVIEW_INTERACTION_CLIENT_COMPLETION_ON_FORCE);
	/* An older app's shorter struct is filled only as far as its size. */
	struct preview_interaction_client_settings shorter = {.size = offsetof(struct preview_interaction_client_settings,
		begin_threshold), .begin_threshold = -1};
	STATUS(preview_interaction_client_get_settings(app.context, &shorter), PREVIEW_INTERACTION_CLIENT_OK);
	CHECK(shorter.sensitivity == PREVIEW_INTERACTION_CLIENT_SENSITIVITY_MEDIUM && shorter.begin_threshold == -1);
	STATUS(preview_interaction_client_get_settings(app.context, NULL), PREVIEW_INTERACTION_CLIENT_ERROR_INVALID_ARGUMENT);

	STATUS(preview_interaction_client_interaction_detach(app.interaction), PREVIEW_INTERACTION_CLIENT_OK);
	STATUS(preview_interaction_client_interaction_detach(app.interaction),
		PREVIEW_INTERACTION_CLIENT_ERROR_INVALID_INTERACTION);
	STATUS(preview_interaction_client_destroy(app.context), PREVIEW_INTERACTION_CLIENT_OK);
	STATUS(preview_interaction_client_destroy(app.context), PREVIEW_INTERACTION_CLIENT_ERROR_INVALID_CONTEXT);
	CHECK(app.warnings == 0);
	disconnect_app(&connection);
	stop_server(&server, 0);
}

/* ---- the compositor goes away in the commit phase ---- */

static void compositor_dies(const char *server_binary, const char *runtime) {
	struct server server;
	if (start_server(server_binary, runtime, &server) != 0) {
		CHECK(!"the scripted server started");
		return;
	}
	struct connection connection;
	CHECK(connect_app(&connection, wl_display_connect(server.socket)) == 0);
	struct app app = {.answer = PREVIEW_INTERACTION_CLIENT_ANSWER_ACCEPT};
	STATUS(preview_interaction_client_create(connection.display, &context_callbacks, &app, &app.context),
		PREVIEW_INTERACTION_CLIENT_OK);
	STATUS(preview_interaction_client_interaction_attach(app.context, connection.surface, &interaction_callbacks,
		       &app, &app.interaction),
		PREVIEW_INTERACTION_CLIENT_OK);
	wl_surface_commit(connection.surface);
	wl_display_flush(connection.display);
	run_until_call(&app, "1: commit 0.50");
	int before = app.count;
	stop_server(&server, SIGKILL);
	int status = run_until_call(&app, "1: cancelled system");
	STATUS(status, PREVIEW_INTERACTION_CLIENT_ERROR_DISCONNECTED);
	CHECK(app.count == before + 1 && strcmp(app.calls[before], "1: cancelled system") == 0);
	if (app.count != before + 1) print_calls(&app);
	STATUS(preview_interaction_client_dispatch(app.context), PREVIEW_INTERACTION_CLIENT_ERROR_DISCONNECTED);
	bool available = true;
	STATUS(preview_interaction_client_is_available(app.context, &available), PREVIEW_INTERACTION_CLIENT_OK);
	CHECK(!available);
	STATUS(preview_interaction_client_interaction_cancel_all(app.interaction), PREVIEW_INTERACTION_CLIENT_OK);
	STATUS(preview_interaction_client_destroy(app.context), PREVIEW_INTERACTION_CLIENT_OK);
	disconnect_app(&connection);
}

/* ---- a compositor without the global: an in-process server with a wl_compositor only ---- */

static void noop(void) {}

static void surface_destroy(struct wl_client *client, struct wl_resource *resource) {
	(void)client;
	wl_resource_destroy(resource);
}

static void (*const surface_requests[11])(void) = {
	(void (*)(void))surface_destroy, noop, noop, noop, noop, noop, noop, noop, noop, noop, noop};

static void create_surface(struct wl_client *client, struct wl_resource *resource, uint32_t id) {
	struct wl_resource *surface = wl_resource_create(client, &wl_surface_interface, 1, id);
	(void)resource;
	wl_resource_set_implementation(surface, surface_requests, NULL, NULL);
}

static void create_region(struct wl_client *client, struct wl_resource *resource, uint32_t id) {
	(void)client, (void)resource, (void)id;
}

static const struct wl_compositor_interface compositor_requests = {create_surface, create_region};

static void bind_compositor(struct wl_client *client, void *data, uint32_t version, uint32_t id) {
	struct wl_resource *resource = wl_resource_create(client, &wl_compositor_interface, version, id);
	(void)data;
	wl_resource_set_implementation(resource, &compositor_requests, NULL, NULL);
}

/* The preview global, added and removed on the server's thread when the test writes to
 * `toggle`: its objects accept every request and send nothing. */
static void resource_destroy(struct wl_client *client, struct wl_resource *resource) {
	(void)client;
	wl_resource_destroy(resource);
}

static void (*const interaction_requests[7])(void) = {
	(void (*)(void))resource_destroy, noop, noop, noop, noop, noop, noop};

static void get_interaction(struct wl_client *client, struct wl_resource *resource, uint32_t id,
	struct wl_resource *surface) {
	(void)surface;
	struct wl_resource *interaction = wl_resource_create(client, &spi_preview_interaction_v1_interface,
		wl_resource_get_version(resource), id);
	wl_resource_set_implementation(interaction, interaction_requests, NULL, NULL);
}

static const struct spi_preview_interaction_manager_v1_interface manager_requests = {resource_destroy, get_interaction};

static void bind_manager(struct wl_client *client, void *data, uint32_t version, uint32_t id) {
	struct wl_resource *resource = wl_resource_create(client, &spi_preview_interaction_manager_v1_interface, version, id);
	(void)data;
	wl_resource_set_implementation(resource, &manager_requests, NULL, NULL);
}

struct bare_server {
	struct wl_display *display;
	pthread_t thread;
	int stop;
	int toggle; /* an eventfd: each write adds or removes the preview global */
	struct wl_global *manager;
};

static int toggle_manager(int fd, uint32_t mask, void *data) {
	struct bare_server *server = data;
	uint64_t count;
	(void)mask;
	if (read(fd, &count, sizeof count) != sizeof count) return 0;
	if (server->manager) {
		wl_global_destroy(server->manager);
		server->manager = NULL;
	} else {
		server->manager = wl_global_create(server->display, &spi_preview_interaction_manager_v1_interface, 1, NULL,
			bind_manager);
	}
	return 0;
}

static void *run_bare_server(void *data) {
	struct bare_server *server = data;
	struct wl_event_loop *loop = wl_display_get_event_loop(server->display);
	while (!__atomic_load_n(&server->stop, __ATOMIC_SEQ_CST)) {
		wl_event_loop_dispatch(loop, 20);
		wl_display_flush_clients(server->display);
	}
	return NULL;
}

static void on_availability(void *data, struct preview_interaction_client *context, bool available) {
	struct app *app = data;
	char text[64];
	snprintf(text, sizeof text, "available %d", available);
	add_call(app, text);
	(void)context;
}

static void without_the_global(void) {
	struct bare_server server = {.display = wl_display_create(), .toggle = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)};
	wl_global_create(server.display, &wl_compositor_interface, 1, NULL, bind_compositor);
	struct wl_event_source *toggling = wl_event_loop_add_fd(
		wl_display_get_event_loop(server.display), server.toggle, WL_EVENT_READABLE, toggle_manager, &server);
	int fds[2];
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) == 0);
	wl_client_create(server.display, fds[0]);
	pthread_create(&server.thread, NULL, run_bare_server, &server);

	struct connection connection;
	CHECK(connect_app(&connection, wl_display_connect_to_fd(fds[1])) == 0);
	struct app app = {.answer = PREVIEW_INTERACTION_CLIENT_ANSWER_ACCEPT};
	STATUS(preview_interaction_client_create(connection.display, &context_callbacks, &app, &app.context),
		PREVIEW_INTERACTION_CLIENT_OK);
	bool available = true;
	STATUS(preview_interaction_client_is_available(app.context, &available), PREVIEW_INTERACTION_CLIENT_OK);
	CHECK(!available);
	STATUS(preview_interaction_client_interaction_attach(app.context, connection.surface, &interaction_callbacks,
		       &app, &app.interaction),
		PREVIEW_INTERACTION_CLIENT_OK);
	struct preview_interaction_client_rect rect = {0, 0, 10, 10};
	STATUS(preview_interaction_client_interaction_set_region(app.interaction, &rect, 1), PREVIEW_INTERACTION_CLIENT_OK);
	STATUS(preview_interaction_client_interaction_commit_surface(app.interaction), PREVIEW_INTERACTION_CLIENT_OK);
	STATUS(preview_interaction_client_dispatch(app.context), PREVIEW_INTERACTION_CLIENT_OK);
	CHECK(wl_display_roundtrip(connection.display) >= 0);
	CHECK(app.count == 0 && app.warnings == 0 && app.errors == 0);
	STATUS(preview_interaction_client_destroy(app.context), PREVIEW_INTERACTION_CLIENT_OK);

	/* The global comes and goes: availability_changed each time, the interaction follows. */
	const struct preview_interaction_client_callbacks watching = {
		.size = sizeof watching, .availability_changed = on_availability, .log = on_log};
	STATUS(preview_interaction_client_create(connection.display, &watching, &app, &app.context),
		PREVIEW_INTERACTION_CLIENT_OK);
	STATUS(preview_interaction_client_interaction_attach(app.context, connection.surface, &interaction_callbacks,
		       &app, &app.interaction),
		PREVIEW_INTERACTION_CLIENT_OK);
	uint64_t one = 1;
	CHECK(write(server.toggle, &one, sizeof one) == sizeof one);
	run_until_call(&app, "available 1");
	available = false;
	STATUS(preview_interaction_client_is_available(app.context, &available), PREVIEW_INTERACTION_CLIENT_OK);
	CHECK(available);
	/* A global of version 1: every version 2 call says so and sends nothing (the bare
	 * server's objects would not know the requests: a protocol error if one were sent). */
	uint32_t version = 0;
	STATUS(preview_interaction_client_get_protocol_version(app.context, &version), PREVIEW_INTERACTION_CLIENT_OK);
	CHECK(version == 1);
	struct preview_interaction_client_settings settings = {.size = sizeof settings};
	STATUS(preview_interaction_client_get_settings(app.context, &settings), PREVIEW_INTERACTION_CLIENT_ERROR_UNSUPPORTED);
	STATUS(preview_interaction_client_interaction_set_focus_point(app.interaction, 1, 2),
		PREVIEW_INTERACTION_CLIENT_ERROR_UNSUPPORTED);
	STATUS(preview_interaction_client_interaction_unset_focus_point(app.interaction),
		PREVIEW_INTERACTION_CLIENT_ERROR_UNSUPPORTED);
	STATUS(preview_interaction_client_interaction_set_behaviours(app.interaction, NULL, 0),
		PREVIEW_INTERACTION_CLIENT_ERROR_UNSUPPORTED);
	STATUS(preview_interaction_client_interaction_play_haptic(app.interaction, 1, PREVIEW_INTERACTION_CLIENT_HAPTIC_TICK),
		PREVIEW_INTERACTION_CLIENT_ERROR_UNSUPPORTED);
	/* Every source, the keyboard too: only the version 1 bits go out. */
	STATUS(preview_interaction_client_interaction_set_sources(app.interaction, PREVIEW_INTERACTION_CLIENT_SOURCES_ALL),
		PREVIEW_INTERACTION_CLIENT_OK);
	CHECK(wl_display_roundtrip(connection.display) >= 0 && wl_display_get_error(connection.display) == 0);
	CHECK(write(server.toggle, &one, sizeof one) == sizeof one);
	run_until_call(&app, "available 0");
	STATUS(preview_interaction_client_is_available(app.context, &available), PREVIEW_INTERACTION_CLIENT_OK);
	CHECK(!available);
	CHECK(app.count == 2 && strcmp(app.calls[0], "available 1") == 0 && strcmp(app.calls[1], "available 0") == 0);
	if (app.count != 2) print_calls(&app);
	STATUS(preview_interaction_client_interaction_detach(app.interaction), PREVIEW_INTERACTION_CLIENT_OK);
	STATUS(preview_interaction_client_destroy(app.context), PREVIEW_INTERACTION_CLIENT_OK);
	CHECK(app.warnings == 0);
	disconnect_app(&connection);
	__atomic_store_n(&server.stop, 1, __ATOMIC_SEQ_CST);
	pthread_join(server.thread, NULL);
	wl_event_source_remove(toggling);
	wl_display_destroy_clients(server.display);
	wl_display_destroy(server.display);
	close(server.toggle);
}

/* ---- misuse ---- */

struct thread_call {
	struct preview_interaction_client *context;
	struct preview_interaction_client_interaction *interaction;
	int dispatch_status, answer_status;
};

static void *call_from_another_thread(void *data) {
	struct thread_call *call = data;
	call->dispatch_status = preview_interaction_client_dispatch(call->context);
	call->answer_status = preview_interaction_client_interaction_answer(call->interaction, 1, true);
	return NULL;
}

static void misuse(const char *server_binary, const char *runtime) {
	struct preview_interaction_client *context = NULL;
	STATUS(preview_interaction_client_create(NULL, NULL, NULL, &context), PREVIEW_INTERACTION_CLIENT_ERROR_INVALID_ARGUMENT);
	CHECK(context == NULL);
	STATUS(preview_interaction_client_create(NULL, NULL, NULL, NULL), PREVIEW_INTERACTION_CLIENT_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_client_destroy(NULL), PREVIEW_INTERACTION_CLIENT_ERROR_INVALID_CONTEXT);
	STATUS(preview_interaction_client_dispatch(NULL), PREVIEW_INTERACTION_CLIENT_ERROR_INVALID_CONTEXT);
	STATUS(preview_interaction_client_destroy((struct preview_interaction_client *)(uintptr_t)0x1234),
		PREVIEW_INTERACTION_CLIENT_ERROR_INVALID_CONTEXT);
	STATUS(preview_interaction_client_interaction_cancel(NULL, 1), PREVIEW_INTERACTION_CLIENT_ERROR_INVALID_INTERACTION);
	STATUS(preview_interaction_client_interaction_set_sources(NULL, 1), PREVIEW_INTERACTION_CLIENT_ERROR_INVALID_INTERACTION);
	STATUS(preview_interaction_client_interaction_set_hold_acks(NULL, true), PREVIEW_INTERACTION_CLIENT_ERROR_INVALID_INTERACTION);
	STATUS(preview_interaction_client_interaction_will_commit(NULL, NULL), PREVIEW_INTERACTION_CLIENT_ERROR_INVALID_INTERACTION);
	CHECK(strcmp(preview_interaction_client_status_string(-999), "unknown status") == 0);
	CHECK(preview_interaction_client_version() == PREVIEW_INTERACTION_CLIENT_VERSION_NUMBER);
	CHECK(strcmp(preview_interaction_client_version_string(), PREVIEW_INTERACTION_CLIENT_VERSION) == 0);
	CHECK(strcmp(preview_interaction_client_source_string(1), "pen") == 0);
	CHECK(strcmp(preview_interaction_client_source_string(5), "keyboard") == 0);
	CHECK(strcmp(preview_interaction_client_cancel_reason_string(10), "dismissed") == 0);
	CHECK(strcmp(preview_interaction_client_status_string(PREVIEW_INTERACTION_CLIENT_ERROR_UNSUPPORTED),
		      "unknown status") != 0);
	STATUS(preview_interaction_client_get_settings(NULL, NULL), PREVIEW_INTERACTION_CLIENT_ERROR_INVALID_CONTEXT);
	STATUS(preview_interaction_client_interaction_play_haptic(NULL, 1, PREVIEW_INTERACTION_CLIENT_HAPTIC_TICK),
		PREVIEW_INTERACTION_CLIENT_ERROR_INVALID_INTERACTION);

	struct server server;
	if (start_server(server_binary, runtime, &server) != 0) {
		CHECK(!"the scripted server started");
		return;
	}
	struct connection connection;
	CHECK(connect_app(&connection, wl_display_connect(server.socket)) == 0);
	struct app app = {.answer = PREVIEW_INTERACTION_CLIENT_ANSWER_LATER};
	struct preview_interaction_client_callbacks too_small = {.size = 1};
	STATUS(preview_interaction_client_create(connection.display, &too_small, &app, &app.context),
		PREVIEW_INTERACTION_CLIENT_ERROR_INVALID_ARGUMENT);
	/* An older app's shorter struct: read as far as its size. */
	struct preview_interaction_client_callbacks shorter = {.size = sizeof(size_t) + sizeof(void *)};
	STATUS(preview_interaction_client_create(connection.display, &shorter, &app, &app.context), PREVIEW_INTERACTION_CLIENT_OK);
	STATUS(preview_interaction_client_interaction_attach(app.context, NULL, NULL, NULL, &app.interaction),
		PREVIEW_INTERACTION_CLIENT_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_client_interaction_attach(app.context, connection.surface, NULL, NULL, NULL),
		PREVIEW_INTERACTION_CLIENT_ERROR_INVALID_ARGUMENT);
	/* An app built against 1.1: its interaction callbacks end before stage and haptics_changed. */
	struct preview_interaction_client_interaction_callbacks older = interaction_callbacks;
	older.size = offsetof(struct preview_interaction_client_interaction_callbacks, stage);
	struct preview_interaction_client_interaction *older_interaction = NULL;
	STATUS(preview_interaction_client_interaction_attach(app.context, connection.surface, &older, &app,
		       &older_interaction),
		PREVIEW_INTERACTION_CLIENT_OK);
	STATUS(preview_interaction_client_interaction_detach(older_interaction), PREVIEW_INTERACTION_CLIENT_OK);
	STATUS(preview_interaction_client_interaction_attach(app.context, connection.surface, &interaction_callbacks,
		       &app, &app.interaction),
		PREVIEW_INTERACTION_CLIENT_OK);
	STATUS(preview_interaction_client_is_available(app.context, NULL), PREVIEW_INTERACTION_CLIENT_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_client_get_fd(app.context, NULL), PREVIEW_INTERACTION_CLIENT_ERROR_INVALID_ARGUMENT);

	struct thread_call call = {.context = app.context, .interaction = app.interaction};
	pthread_t thread;
	pthread_create(&thread, NULL, call_from_another_thread, &call);
	pthread_join(thread, NULL);
	STATUS(call.dispatch_status, PREVIEW_INTERACTION_CLIENT_ERROR_WRONG_THREAD);
	STATUS(call.answer_status, PREVIEW_INTERACTION_CLIENT_ERROR_WRONG_THREAD);

	void *user_data = NULL;
	STATUS(preview_interaction_client_get_user_data(app.context, &user_data), PREVIEW_INTERACTION_CLIENT_OK);
	CHECK(user_data == &app);
	/* Destroy with the interaction still attached: its handle goes stale with it. */
	STATUS(preview_interaction_client_destroy(app.context), PREVIEW_INTERACTION_CLIENT_OK);
	STATUS(preview_interaction_client_interaction_cancel_all(app.interaction),
		PREVIEW_INTERACTION_CLIENT_ERROR_INVALID_INTERACTION);
	STATUS(preview_interaction_client_dispatch(app.context), PREVIEW_INTERACTION_CLIENT_ERROR_INVALID_CONTEXT);
	CHECK(wl_display_roundtrip(connection.display) >= 0 && wl_display_get_error(connection.display) == 0);
	disconnect_app(&connection);
	stop_server(&server, 0);
}

int main(int argc, char **argv) {
	if (argc < 2) {
		fprintf(stderr, "usage: client-api PATH/TO/preview-protocol-test-server\n");
		return 2;
	}
	char runtime[] = "/tmp/capi-client-XXXXXX";
	if (!mkdtemp(runtime)) return 2;
	misuse(argv[1], runtime);
	without_the_global();
	scripted_presses(argv[1], runtime);
	compositor_dies(argv[1], runtime);
	rmdir(runtime);
	CHECK_SUMMARY();
}
