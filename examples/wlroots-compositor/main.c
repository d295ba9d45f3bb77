/*
 * preview-wlroots-compositor: wlroots' headless backend (or a real session with
 * --backend auto), xdg-shell toplevels, a seat with pointer, keyboard, touch and tablet-v2,
 * and the preview interaction through libpreview-interaction alone. The library is
 * attached to our wl_display; our input handlers tell it about devices and contacts and
 * honour its take-away callbacks.
 */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <wlr/backend/headless.h>
#include <wlr/render/pixman.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_data_device.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_region.h>
#include <wlr/types/wlr_screencopy_v1.h>
#include <wlr/types/wlr_xdg_output_v1.h>
#include <wlr/util/log.h>

#include "compositor.h"

uint64_t now_usec(void) {
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint64_t)now.tv_sec * 1000000 + (uint64_t)now.tv_nsec / 1000;
}

uint32_t now_msec(void) {
	return (uint32_t)(now_usec() / 1000);
}

/* An input event's time (wlroots' 32-bit milliseconds, on the same clock) in microseconds: the
 * last of its millisecond, when the event was surely there, and never after now (a replay's
 * events are stamped now). The library reads a pressure pad's force at that time, so a click
 * libinput read late, with its lift, keeps its own force. */
uint64_t event_usec(uint32_t time_msec) {
	uint64_t now = now_usec(), now_ms = now / 1000;
	uint32_t behind = (uint32_t)now_ms - time_msec;
	if (behind > UINT32_MAX / 2 || behind > now_ms) return now; /* from the future */
	uint64_t time = (now_ms - behind) * 1000 + 999;
	return time < now ? time : now;
}

/* MARK: outputs */

struct output {
	struct server *server;
	struct wlr_output *wlr_output;
	struct wl_listener frame, destroy;
};

static void output_frame(struct wl_listener *listener, void *data) {
	(void)data;
	struct output *output = wl_container_of(listener, output, frame);
	struct wlr_scene_output *scene_output = wlr_scene_get_scene_output(output->server->scene, output->wlr_output);
	wlr_scene_output_commit(scene_output);
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	wlr_scene_output_send_frame_done(scene_output, &now);
}

static void output_destroy(struct wl_listener *listener, void *data) {
	(void)data;
	struct output *output = wl_container_of(listener, output, destroy);
	wl_list_remove(&output->frame.link);
	wl_list_remove(&output->destroy.link);
	free(output);
}

static void new_output(struct wl_listener *listener, void *data) {
	struct server *server = wl_container_of(listener, server, new_output);
	struct wlr_output *wlr_output = data;
	wlr_output_init_render(wlr_output, server->allocator, server->renderer);
	if (!wl_list_empty(&wlr_output->modes)) wlr_output_set_mode(wlr_output, wlr_output_preferred_mode(wlr_output));
	wlr_output_enable(wlr_output, true);
	if (!wlr_output_commit(wlr_output)) return;
	struct output *output = calloc(1, sizeof(*output));
	if (!output) return;
	output->server = server;
	output->wlr_output = wlr_output;
	output->frame.notify = output_frame;
	wl_signal_add(&wlr_output->events.frame, &output->frame);
	output->destroy.notify = output_destroy;
	wl_signal_add(&wlr_output->events.destroy, &output->destroy);
	wlr_output_layout_add_auto(server->layout, wlr_output);
	/* The pointer starts in the middle of the first output, as in preview-compositor. */
	if (wl_list_length(&server->layout->outputs) == 1) {
		struct wlr_box *box = wlr_output_layout_get_box(server->layout, wlr_output);
		if (box) wlr_cursor_warp(server->cursor, NULL, box->x + box->width / 2.0, box->y + box->height / 2.0);
	}
}

/* MARK: surfaces and toplevels */

/* Look Up's panel above everything takes input; its highlight takes none (a press on the word
 * under it is the window's): the panel, then the windows, top first. */
struct wlr_surface *surface_at(struct server *server, double lx, double ly, double *sx, double *sy) {
	struct wlr_scene_node *node = NULL;
	if (server->lookup_panel) node = wlr_scene_node_at(&server->lookup_panel->node, lx, ly, sx, sy);
	struct view *view;
	wl_list_for_each(view, &server->views, link) {
		if (!node) node = wlr_scene_node_at(view->node, lx, ly, sx, sy);
	}
	if (!node || node->type != WLR_SCENE_NODE_SURFACE) return NULL;
	return wlr_scene_surface_from_node(node)->surface;
}

void focus_surface(struct server *server, struct wlr_surface *surface) {
	struct wlr_keyboard *keyboard = wlr_seat_get_keyboard(server->seat);
	if (!surface || !keyboard || server->seat->keyboard_state.focused_surface == surface) return;
	/* A preview key held on the surface that loses focus ends there. */
	if (server->seat->keyboard_state.focused_surface)
		preview_interaction_keyboard_focus_lost(server->preview, 0, now_usec());
	wlr_seat_keyboard_notify_enter(server->seat, surface, keyboard->keycodes, keyboard->num_keycodes,
		&keyboard->modifiers);
}

static void view_map(struct wl_listener *listener, void *data) {
	(void)data;
	struct view *view = wl_container_of(listener, view, map);
	wlr_scene_node_set_enabled(view->node, true);
	wlr_scene_node_raise_to_top(view->node);
	/* The views list stays top first (hit tests walk it). */
	wl_list_remove(&view->link);
	wl_list_insert(&view->server->views, &view->link);
	if (view->server->lookup_layer) wlr_scene_node_raise_to_top(&view->server->lookup_layer->node);
	wlr_xdg_toplevel_set_activated(view->xdg, true);
	focus_surface(view->server, view->xdg->surface);
	/* The pointer enters the new window if it is under the cursor, before any motion. */
	pointer_focus(view->server, now_msec());
	if (view->server->replay) replay_start(view->server->replay, view->server->replay_pacing);
}

static void view_unmap(struct wl_listener *listener, void *data) {
	(void)data;
	struct view *view = wl_container_of(listener, view, unmap);
	wlr_scene_node_set_enabled(view->node, false);
	preview_interaction_surface_gone(view->server->preview, view->xdg->surface->resource, now_usec());
}

static void view_destroy(struct wl_listener *listener, void *data) {
	(void)data;
	struct view *view = wl_container_of(listener, view, destroy);
	wl_list_remove(&view->map.link);
	wl_list_remove(&view->unmap.link);
	wl_list_remove(&view->destroy.link);
	wl_list_remove(&view->link);
	free(view);
}

static void new_xdg_surface(struct wl_listener *listener, void *data) {
	struct server *server = wl_container_of(listener, server, new_xdg_surface);
	struct wlr_xdg_surface *xdg = data;
	if (xdg->role == WLR_XDG_SURFACE_ROLE_POPUP) {
		struct wlr_xdg_surface *parent = wlr_xdg_surface_from_wlr_surface(xdg->popup->parent);
		if (parent && parent->data) xdg->data = wlr_scene_xdg_surface_create(parent->data, xdg);
		return;
	}
	if (xdg->role != WLR_XDG_SURFACE_ROLE_TOPLEVEL) return;
	struct view *view = calloc(1, sizeof(*view));
	if (!view) return;
	view->server = server;
	view->xdg = xdg;
	view->node = wlr_scene_xdg_surface_create(&server->scene->node, xdg);
	wlr_scene_node_set_enabled(view->node, false);
	xdg->data = view->node;
	/* One window fills the output, maximized (no client-side shadow or resizing), as in
	 * preview-compositor. */
	wlr_xdg_toplevel_set_size(xdg, server->width, server->height);
	wlr_xdg_toplevel_set_maximized(xdg, true);
	view->map.notify = view_map;
	wl_signal_add(&xdg->events.map, &view->map);
	view->unmap.notify = view_unmap;
	wl_signal_add(&xdg->events.unmap, &view->unmap);
	view->destroy.notify = view_destroy;
	wl_signal_add(&xdg->events.destroy, &view->destroy);
	wl_list_insert(&server->views, &view->link);
}

/* MARK: the library's phase notifications: the trace */

static const char *phase_names[] = {"", "preview-began", "preview-progress", "preview-ended", "commit-progress",
	"completed", "cancelled"};
static const char *reason_names[] = {"", "lifted", "client-cancelled", "declined", "timeout", "device-removed",
	"surface-gone", "desynchronised", "moved", "system", "dismissed"};
static const char *source_names[] = {"", "pen", "touchpad", "touchscreen", "pointer", "keyboard"};

void write_json_string(FILE *file, const char *text) {
	fputc('"', file);
	for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
		if (*c == '"' || *c == '\\') fprintf(file, "\\%c", *c);
		else if (*c < 0x20) fprintf(file, "\\u%04x", *c);
		else fputc(*c, file);
	}
	fputc('"', file);
}

/* The trace line's device (a keyboard's too: the keys name their device). */
static const char *trace_device_name(const struct preview_interaction_phase_event *event) {
	struct input *input = input_of_preview_device(event->device);
	return input && input->device->name ? input->device->name : "?";
}

static void trace_start(FILE *f, const struct preview_interaction_phase_event *event,
		const char *kind) {
	int source = event->source >= PREVIEW_INTERACTION_DEVICE_PEN && event->source <= PREVIEW_INTERACTION_DEVICE_KEYBOARD
		? (int)event->source : PREVIEW_INTERACTION_DEVICE_POINTER;
	fprintf(f, "{\"time_us\":%llu,\"device\":", (unsigned long long)event->time_usec);
	write_json_string(f, trace_device_name(event));
	fprintf(f, ",\"source\":\"%s\",\"simulated\":%s,\"interaction\":%u,\"event\":\"%s\",\"progress\":%.9g",
		source_names[source], event->simulated ? "true" : "false", event->interaction, kind, event->progress);
}

/* One JSON line per phase, in preview-compositor's trace format (docs/recordings.md). */
static void on_phase(void *data, const struct preview_interaction_phase_event *event) {
	struct server *server = data;
	if (!server->trace || event->phase < 1 || event->phase > 6) return;
	bool preview = event->phase <= PREVIEW_INTERACTION_PHASE_PREVIEW_ENDED;
	bool cancelled = event->phase == PREVIEW_INTERACTION_PHASE_CANCELLED;
	bool ended = event->phase == PREVIEW_INTERACTION_PHASE_PREVIEW_ENDED || event->phase == PREVIEW_INTERACTION_PHASE_COMPLETED;
	FILE *f = server->trace;
	trace_start(f, event, cancelled ? "cancel" : preview ? "preview" : "commit");
	fprintf(f, ",\"ended\":%s,\"phase\":\"%s\",\"x\":%.9g,\"y\":%.9g", ended ? "true" : "false",
		phase_names[event->phase], event->x, event->y);
	if (cancelled && event->reason >= 1 && event->reason <= 10)
		fprintf(f, ",\"reason\":\"%s\"", reason_names[event->reason]);
	fputs("}\n", f);
	fflush(f);
}

/* An accelerator's stage level (since 1.2): the same trace line as preview-compositor's. */
static void on_stage(void *data, const struct preview_interaction_phase_event *event) {
	struct server *server = data;
	if (!server->trace || event->phase != PREVIEW_INTERACTION_PHASE_STAGE) return;
	FILE *f = server->trace;
	trace_start(f, event, "stage");
	fprintf(f, ",\"ended\":false,\"phase\":\"stage\",\"x\":%.9g,\"y\":%.9g,\"stage\":%u}\n",
		event->x, event->y, event->stage);
	fflush(f);
}

static int32_t region_boxes(void *data, struct wl_resource *region, struct preview_interaction_box *boxes, int32_t capacity) {
	(void)data;
	pixman_region32_t *pixman = wlr_region_from_resource(region);
	int count = 0;
	pixman_box32_t *rects = pixman_region32_rectangles(pixman, &count);
	for (int i = 0; i < count && i < capacity; i++) {
		boxes[i] = (struct preview_interaction_box){
			rects[i].x1, rects[i].y1, rects[i].x2 - rects[i].x1, rects[i].y2 - rects[i].y1};
	}
	return count;
}

static void on_log(void *data, enum preview_interaction_log_level level, const char *message) {
	(void)data;
	wlr_log(level >= PREVIEW_INTERACTION_LOG_WARNING ? WLR_ERROR : level == PREVIEW_INTERACTION_LOG_INFO ? WLR_INFO : WLR_DEBUG,
		"preview-interaction: %s", message);
}

/* MARK: --run, --exit-when-done */

static pid_t run_command(const char *command, const char *socket) {
	pid_t pid = fork();
	if (pid == 0) {
		/* Its own process group: stopping it reaches what the shell started, too. */
		setpgid(0, 0);
		setenv("WAYLAND_DISPLAY", socket, 1);
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		execl("/bin/sh", "/bin/sh", "-c", command, (char *)NULL);
		_exit(127);
	}
	return pid;
}

pid_t run_command_argv(char *const argv[]) {
	pid_t pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		execvp(argv[0], argv);
		_exit(127);
	}
	return pid;
}

/* Reaps our own children only: the library's (preview-lookup) are the library's to wait for. */
static int on_sigchld(int signal, void *data) {
	(void)signal;
	struct server *server = data;
	int status;
	if (server->shot_child > 0 && waitpid(server->shot_child, &status, WNOHANG) == server->shot_child) {
		wlr_log(WLR_INFO, "look up: screenshot taken (grim exited with %d)", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		server->shot_child = 0;
	}
	pid_t pid;
	while (server->run_child > 0 && (pid = waitpid(server->run_child, &status, WNOHANG)) > 0) {
		server->run_child = 0;
		int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		wlr_log(WLR_INFO, "--run child exited with %d", code);
		if (server->exit_when_done) {
			server->exit_status = code;
			wl_display_terminate(server->display);
		}
	}
	return 0;
}

static int on_terminate(int signal, void *data) {
	(void)signal;
	wl_display_terminate(((struct server *)data)->display);
	return 0;
}

/* Done: the replay ended, no contact is down, no interaction runs, for 300 ms. */
static int check_done(void *data) {
	struct server *server = data;
	uint32_t running = 0;
	preview_interaction_running_count(server->preview, &running);
	bool idle = (!server->replay || replay_finished(server->replay)) && running == 0 && !any_contact_down(server) &&
		server->shot_child <= 0;
	server->quiet_ticks = idle ? server->quiet_ticks + 1 : 0;
	if (server->quiet_ticks >= 6) {
		wlr_log(WLR_INFO, "replay done and settled: exiting");
		wl_display_terminate(server->display);
		return 0;
	}
	wl_event_source_timer_update(server->done_timer, 50);
	return 0;
}

/* MARK: main */

static void usage(FILE *out) {
	fprintf(out,
		"usage: preview-wlroots-compositor [--socket NAME] [--run CMD] [--replay FILE...] [--await-clients]\n"
		"                                  [--trace FILE]\n"
		"                                  [--exit-when-done] [--decoder PATH] [--width W --height H]\n"
		"                                  [--backend headless|auto] [--sensitivity light|medium|firm]\n"
		"                                  [--completion on-force|on-release] [--should-begin-timeout MS]\n"
		"                                  [--lookup on|off] [--lookup-path PATH] [--lookup-long-press]\n"
		"                                  [--lookup-deadline MS] [--lookup-screenshot FILE]\n"
		"                                  [--lookup-growing-screenshot FILE]\n"
		"                                  [--haptics off|light|medium|strong]\n"
		"                                  [--verbose]\n");
}

int main(int argc, char **argv) {
	/* A replay skips idle gaps once the clients caught up, as preview-compositor's --fast. */
	struct server server = {.width = 1280, .height = 800, .replay_pacing = PREVIEW_INTERACTION_REPLAY_FAST};
	const char *socket_name = NULL, *run = NULL, *trace_path = NULL, *decoder = NULL, *backend_name = "headless";
	enum preview_interaction_sensitivity sensitivity = PREVIEW_INTERACTION_SENSITIVITY_MEDIUM;
	enum preview_interaction_completion completion = PREVIEW_INTERACTION_COMPLETION_ON_FORCE;
	/* The user's: clicks felt on haptic touchpads of the libinput backend (--backend auto). */
	enum preview_interaction_haptics haptics = PREVIEW_INTERACTION_HAPTICS_OFF;
	uint32_t should_begin_timeout = 0, lookup_deadline = 0;
	bool verbose = false, lookup = false, lookup_long_press = false;
	const char *lookup_path = NULL;
	char **replay_files = NULL;
	int replay_count = 0;
	static const struct option options[] = {
		{"socket", required_argument, 0, 's'}, {"run", required_argument, 0, 'r'},
		{"replay", no_argument, 0, 'R'}, {"trace", required_argument, 0, 't'},
		{"exit-when-done", no_argument, 0, 'x'}, {"decoder", required_argument, 0, 'd'},
		{"width", required_argument, 0, 'W'}, {"height", required_argument, 0, 'H'},
		{"backend", required_argument, 0, 'b'}, {"sensitivity", required_argument, 0, 'S'},
		{"should-begin-timeout", required_argument, 0, 'T'}, {"verbose", no_argument, 0, 'v'},
		{"completion", required_argument, 0, 'C'}, {"lookup", required_argument, 0, 'L'},
		{"lookup-path", required_argument, 0, 'P'}, {"lookup-long-press", no_argument, 0, 'l'},
		{"lookup-deadline", required_argument, 0, 'D'}, {"lookup-screenshot", required_argument, 0, 'Z'},
		{"lookup-growing-screenshot", required_argument, 0, 'G'},
		{"haptics", required_argument, 0, 'F'}, {"await-clients", no_argument, 0, 'A'},
		{"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
	int option;
	while ((option = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (option) {
		case 's': socket_name = optarg; break;
		case 'r': run = optarg; break;
		case 'R':
			/* --replay FILE...: every following argument up to the next option. */
			replay_files = &argv[optind];
			while (optind < argc && strncmp(argv[optind], "--", 2) != 0) {
				optind++;
				replay_count++;
			}
			break;
		case 't': trace_path = optarg; break;
		case 'x': server.exit_when_done = true; break;
		case 'd': decoder = optarg; break;
		case 'W': server.width = atoi(optarg); break;
		case 'H': server.height = atoi(optarg); break;
		case 'b': backend_name = optarg; break;
		case 'S':
			if (strcmp(optarg, "light") == 0) sensitivity = PREVIEW_INTERACTION_SENSITIVITY_LIGHT;
			else if (strcmp(optarg, "firm") == 0) sensitivity = PREVIEW_INTERACTION_SENSITIVITY_FIRM;
			else if (strcmp(optarg, "medium") != 0) { usage(stderr); return 2; }
			break;
		case 'C':
			if (strcmp(optarg, "on-release") == 0) completion = PREVIEW_INTERACTION_COMPLETION_ON_RELEASE;
			else if (strcmp(optarg, "on-force") != 0) { usage(stderr); return 2; }
			break;
		case 'F':
			if (strcmp(optarg, "light") == 0) haptics = PREVIEW_INTERACTION_HAPTICS_LIGHT;
			else if (strcmp(optarg, "medium") == 0) haptics = PREVIEW_INTERACTION_HAPTICS_MEDIUM;
			else if (strcmp(optarg, "strong") == 0) haptics = PREVIEW_INTERACTION_HAPTICS_STRONG;
			else if (strcmp(optarg, "off") != 0) { usage(stderr); return 2; }
			break;
		case 'T': should_begin_timeout = (uint32_t)strtoul(optarg, NULL, 10); break;
		case 'v': verbose = true; break;
		case 'L':
			if (strcmp(optarg, "on") == 0) lookup = true;
			else if (strcmp(optarg, "off") != 0) { usage(stderr); return 2; }
			break;
		case 'P': lookup_path = optarg; break;
		case 'l': lookup_long_press = true; break;
		case 'D': lookup_deadline = (uint32_t)strtoul(optarg, NULL, 10); break;
		case 'Z': server.lookup_screenshot = optarg; break;
		case 'G': server.lookup_growing_screenshot = optarg; break;
		case 'A': server.replay_pacing = PREVIEW_INTERACTION_REPLAY_AWAIT_CLIENTS; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc || server.width < 64 || server.height < 64 || server.width > 8192 || server.height > 8192 ||
		(replay_files && replay_count == 0)) {
		usage(stderr);
		return 2;
	}
	wlr_log_init(verbose ? WLR_DEBUG : WLR_INFO, NULL);
	if (preview_interaction_version() >> 16 != PREVIEW_INTERACTION_VERSION_MAJOR) {
		wlr_log(WLR_ERROR, "libpreview-interaction %s does not match the header's %s",
			preview_interaction_version_string(), PREVIEW_INTERACTION_VERSION);
		return 1;
	}
	/* A private runtime directory when there is none (CI, a bare shell). */
	char runtime[] = "/tmp/preview-wlroots-XXXXXX";
	if (!getenv("XDG_RUNTIME_DIR")) {
		if (!mkdtemp(runtime)) return 1;
		setenv("XDG_RUNTIME_DIR", runtime, 1);
	}
	bool headless = strcmp(backend_name, "headless") == 0;

	server.display = wl_display_create();
	server.backend = headless ? wlr_headless_backend_create(server.display) : wlr_backend_autocreate(server.display);
	if (!server.backend) {
		wlr_log(WLR_ERROR, "cannot create the %s backend", backend_name);
		return 1;
	}
	/* Headless draws with pixman unless WLR_RENDERER says otherwise: asked for directly, since
	 * wlr_renderer_autocreate first looks for a GPU render node and logs an error without one. */
	server.renderer = headless && !getenv("WLR_RENDERER") ? wlr_pixman_renderer_create()
							      : wlr_renderer_autocreate(server.backend);
	if (!server.renderer) return 1;
	wlr_renderer_init_wl_display(server.renderer, server.display);
	server.allocator = wlr_allocator_autocreate(server.backend, server.renderer);
	if (!server.allocator) return 1;
	/* No commit listener: the library sees wl_surface.commit itself (since 1.3). */
	wlr_compositor_create(server.display, server.renderer);
	wlr_data_device_manager_create(server.display);
	/* grim's screenshots (--lookup-screenshot). */
	wlr_screencopy_manager_v1_create(server.display);

	server.layout = wlr_output_layout_create();
	wlr_xdg_output_manager_v1_create(server.display, server.layout);
	server.new_output.notify = new_output;
	wl_signal_add(&server.backend->events.new_output, &server.new_output);
	server.scene = wlr_scene_create();
	wlr_scene_attach_output_layout(server.scene, server.layout);
	wl_list_init(&server.views);
	server.xdg_shell = wlr_xdg_shell_create(server.display);
	server.new_xdg_surface.notify = new_xdg_surface;
	wl_signal_add(&server.xdg_shell->events.new_surface, &server.new_xdg_surface);
	server.seat = wlr_seat_create(server.display, "seat0");
	server.tablet_manager = wlr_tablet_v2_create(server.display);
	server.cursor = wlr_cursor_create();
	wlr_cursor_attach_output_layout(server.cursor, server.layout);

	/* The preview interaction: attached to our display, on our loop, with our callbacks. */
	struct preview_interaction_callbacks callbacks = {
		.size = sizeof(callbacks), .take_away = take_away, .give_back = give_back, .phase = on_phase,
		.stage = on_stage, .region_boxes = region_boxes, .log = on_log, .lookup_highlight = lookup_highlight,
		.lookup_panel = lookup_panel, .window_geometry = window_geometry, .lookup_event = lookup_event,
		.replay_wake = replay_wake};
	int status = preview_interaction_create(server.display, &callbacks, &server, &server.preview);
	if (status != PREVIEW_INTERACTION_OK) {
		wlr_log(WLR_ERROR, "preview_interaction_create: %s", preview_interaction_status_string(status));
		return 1;
	}
	if (verbose) preview_interaction_set_log_level(server.preview, PREVIEW_INTERACTION_LOG_DEBUG);
	preview_interaction_set_sensitivity(server.preview, sensitivity);
	preview_interaction_set_completion(server.preview, completion);
	preview_interaction_set_haptics(server.preview, haptics);
	if (should_begin_timeout && preview_interaction_set_should_begin_timeout(server.preview, should_begin_timeout)) {
		wlr_log(WLR_ERROR, "--should-begin-timeout must be 1...60000 ms");
		return 2;
	}
	preview_interaction_set_lookup_long_press(server.preview, lookup_long_press);
	if (lookup_deadline && preview_interaction_set_lookup_deadline(server.preview, lookup_deadline)) {
		wlr_log(WLR_ERROR, "--lookup-deadline must be 100...5000 ms");
		return 2;
	}
	if (lookup && !lookup_start(&server, lookup_path)) return 1;
	if (trace_path && !(server.trace = fopen(trace_path, "w"))) {
		wlr_log(WLR_ERROR, "cannot write the trace %s", trace_path);
		return 1;
	}
	input_init(&server);

	if (replay_files) {
		if (!headless) {
			wlr_log(WLR_ERROR, "--replay drives virtual devices of the headless backend");
			return 2;
		}
		server.replay = replay_load(&server, decoder, replay_files, replay_count);
		if (!server.replay) return 1;
		replay_create_devices(server.replay);
	}
	if (headless) wlr_headless_add_output(server.backend, (unsigned)server.width, (unsigned)server.height);

	const char *socket = NULL;
	if (socket_name) socket = wl_display_add_socket(server.display, socket_name) == 0 ? socket_name : NULL;
	else socket = wl_display_add_socket_auto(server.display);
	if (!socket) {
		wlr_log(WLR_ERROR, "cannot listen on a Wayland socket");
		return 1;
	}
	if (!wlr_backend_start(server.backend)) {
		wlr_log(WLR_ERROR, "cannot start the backend");
		return 1;
	}
	setenv("WAYLAND_DISPLAY", socket, 1);
	wlr_log(WLR_INFO, "running on WAYLAND_DISPLAY=%s with libpreview-interaction %s", socket,
		preview_interaction_version_string());

	struct wl_event_loop *loop = wl_display_get_event_loop(server.display);
	sigset_t mask;
	sigemptyset(&mask);
	sigaddset(&mask, SIGCHLD);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	struct wl_event_source *sources[] = {
		wl_event_loop_add_signal(loop, SIGCHLD, on_sigchld, &server),
		wl_event_loop_add_signal(loop, SIGINT, on_terminate, &server),
		wl_event_loop_add_signal(loop, SIGTERM, on_terminate, &server)};
	if (run) server.run_child = run_command(run, socket);
	if (server.exit_when_done && server.replay) {
		server.done_timer = wl_event_loop_add_timer(loop, check_done, &server);
		wl_event_source_timer_update(server.done_timer, 50);
	}

	wl_display_run(server.display);

	/* One teardown path: the library first (it cancels what runs), then wlroots. */
	/* The --run child ends before its connection does: a client cut off first would report a
	 * broken pipe. */
	if (server.run_child > 0) {
		kill(-server.run_child, SIGTERM);
		waitpid(server.run_child, NULL, 0);
	}
	if (server.replay) replay_destroy(server.replay);
	if (server.done_timer) wl_event_source_remove(server.done_timer);
	for (size_t i = 0; i < sizeof(sources) / sizeof(sources[0]); i++) if (sources[i]) wl_event_source_remove(sources[i]);
	preview_interaction_destroy(server.preview);
	if (server.trace) fclose(server.trace);
	wl_display_destroy_clients(server.display);
	wlr_backend_destroy(server.backend);
	wl_display_destroy(server.display);
	if (strcmp(runtime, "/tmp/preview-wlroots-XXXXXX") != 0) rmdir(runtime);
	return server.exit_status;
}
