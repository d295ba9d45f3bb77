/*
 * preview-wlroots-compositor: a tinywl-sized wlroots 0.15 compositor that offers the preview
 * interaction through libpreview-interaction's C API only (see docs/embedding.md).
 */
#ifndef PREVIEW_WLROOTS_COMPOSITOR_H
#define PREVIEW_WLROOTS_COMPOSITOR_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <wayland-server-core.h>
#include <wlr/backend.h>
#include <wlr/render/allocator.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/types/wlr_cursor.h>
#include <wlr/types/wlr_input_device.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_tablet_tool.h>
#include <wlr/types/wlr_tablet_v2.h>
#include <wlr/types/wlr_xdg_shell.h>

#include "preview-interaction.h"

#define MAX_TOUCH_POINTS 10

struct server {
	struct wl_display *display;
	struct wlr_backend *backend;
	struct wlr_renderer *renderer;
	struct wlr_allocator *allocator;
	struct wlr_scene *scene;
	struct wlr_output_layout *layout;
	struct wlr_xdg_shell *xdg_shell;
	struct wlr_cursor *cursor;
	struct wlr_seat *seat;
	struct wlr_tablet_manager_v2 *tablet_manager;
	struct preview_interaction *preview;

	struct wl_list views; /* struct view.link, top first */
	struct wl_list inputs; /* struct input.link */
	struct wl_listener new_output, new_xdg_surface, new_input;
	struct wl_listener cursor_motion, cursor_motion_absolute, cursor_button, cursor_axis, cursor_frame;

	int width, height;
	/* The pointer's press is the interaction's: while taken away, no pointer focus. */
	bool pointer_taken;
	FILE *trace;
	struct replay *replay;
	enum preview_interaction_replay_pacing replay_pacing;
	bool exit_when_done;
	pid_t run_child;
	int exit_status;
	struct wl_event_source *done_timer;
	int quiet_ticks;

	/* Look Up (lookup.c): a layer above every window, the highlight, the panel. */
	struct wlr_scene_tree *lookup_layer;
	struct wlr_scene_rect *lookup_highlight;
	struct wlr_scene_surface *lookup_panel;
	struct wl_listener lookup_panel_destroy; /* its node goes with preview-lookup's surface */
	/* While the panel grows into view: the top of its buffer, cropped (lookup.c). */
	struct wlr_scene_buffer *lookup_growing;
	const char *lookup_screenshot;
	/* --lookup-growing-screenshot: one while a panel grows into view. */
	const char *lookup_growing_screenshot;
	pid_t shot_child;
};

struct view {
	struct wl_list link;
	struct server *server;
	struct wlr_xdg_surface *xdg;
	struct wlr_scene_node *node;
	struct wl_listener map, unmap, destroy;
};

/* A contact's place: the surface it went down on and that surface's layout origin. */
struct contact {
	bool down;
	int32_t id;
	struct wlr_surface *surface;
	struct wl_listener surface_destroy;
	double origin_x, origin_y;
};

struct input {
	struct wl_list link;
	struct server *server;
	struct wlr_input_device *device;
	struct preview_interaction_device *preview;
	struct wl_listener destroy, a, b, c, d, e; /* the device type's signals */

	/* Tablets: the one tool, tablet-v2 objects, where the pen is. */
	struct wlr_tablet_v2_tablet *tablet_v2;
	struct wlr_tablet_v2_tablet_tool *tool_v2;
	bool in_proximity, over_tablet_client, tool_taken;
	double x, y, pressure; /* layout coordinates, 0...1 (a pen's, or a pressure touchpad's finger) */
	struct contact tip; /* contact 0 of pens and pointers */
	int buttons; /* a pointer's buttons down: the last press placed its click (the library knows which are the click) */
	struct contact touches[MAX_TOUCH_POINTS];
};

uint64_t now_usec(void);
uint64_t event_usec(uint32_t time_msec);
uint32_t now_msec(void);
struct wlr_surface *surface_at(struct server *server, double lx, double ly, double *sx, double *sy);
void focus_surface(struct server *server, struct wlr_surface *surface);

/* input.c */
void input_init(struct server *server);
/* Our input for a library device (its user data). */
struct input *input_of_preview_device(struct preview_interaction_device *device);
void take_away(void *data, struct preview_interaction_device *device, int32_t contact, struct wl_resource *surface);
void give_back(void *data, struct preview_interaction_device *device, int32_t contact, struct wl_resource *surface);
bool any_contact_down(struct server *server);
void input_pressure(struct input *input, double pressure);
/* The pointer enters the surface under the cursor (or leaves), unless it is taken away. */
void pointer_focus(struct server *server, uint32_t time);

/* lookup.c: the library's Look Up callbacks, and --lookup on. */
bool lookup_start(struct server *server, const char *path);
void lookup_highlight(void *data, struct wl_resource *surface, const struct preview_interaction_box *word,
	double progress);
void lookup_panel(void *data, const struct preview_interaction_lookup_panel *panel);
void window_geometry(void *data, struct wl_resource *surface, int32_t *x, int32_t *y);
void lookup_event(void *data, const struct preview_interaction_lookup_event *event);
/* main.c: a JSON string (quotes, backslashes and control characters escaped), for the trace. */
void write_json_string(FILE *file, const char *text);
/* main.c: a command of our own (its own process group), reaped by our SIGCHLD handler. */
pid_t run_command_argv(char *const argv[]);

/* replay.c: --replay FILE... through `preview-replay --events` into virtual wlroots devices. */
struct replay *replay_load(struct server *server, const char *decoder, char **files, int count);
void replay_create_devices(struct replay *replay);
void replay_start(struct replay *replay, enum preview_interaction_replay_pacing pacing);
/* The library's replay_wake callback. */
void replay_wake(void *data);
bool replay_finished(struct replay *replay);
/* A replayed touchpad (a pointer to wlroots); `force`: the decoder measures its force. */
bool replay_is_touchpad(struct replay *replay, struct wlr_input_device *device, bool *force);
void replay_destroy(struct replay *replay);

#endif
