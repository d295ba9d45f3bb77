/*
 * Look Up (--lookup on): the library looks up the word or link under a firm press where no
 * client declared a preview area, through preview-lookup, which it starts as a private client
 * of our display. We draw what it asks: the highlight is a scene rect over the word, the
 * panel is preview-lookup's own surface in a scene tree above every window, grown into view
 * from the top of its buffer.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <unistd.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/util/log.h>

#include "compositor.h"

struct surface_origin {
	struct wlr_surface *surface;
	int x, y;
	bool found;
};

static void find_surface(struct wlr_surface *surface, int sx, int sy, void *data) {
	struct surface_origin *origin = data;
	if (surface != origin->surface || origin->found) return;
	origin->x = sx;
	origin->y = sy;
	origin->found = true;
}

/* Where `resource`'s surface is in layout coordinates (false: not shown). */
static bool layout_origin(struct server *server, struct wl_resource *resource, int *x, int *y) {
	struct surface_origin origin = {.surface = wlr_surface_from_resource(resource)};
	wlr_scene_node_for_each_surface(&server->scene->node, find_surface, &origin);
	*x = origin.x;
	*y = origin.y;
	return origin.found;
}

void lookup_highlight(void *data, struct wl_resource *surface, const struct preview_interaction_box *word,
		double progress) {
	struct server *server = data;
	int x, y;
	if (!surface || !word || !layout_origin(server, surface, &x, &y)) {
		if (server->lookup_highlight) wlr_scene_node_destroy(&server->lookup_highlight->node);
		server->lookup_highlight = NULL;
		return;
	}
	/* A marker that deepens and grows with the preview's progress, as preview-compositor's. */
	int grow = (int)(2 * progress + 0.5);
	float alpha = (float)(0.18 + 0.27 * progress);
	const float color[4] = {alpha, alpha * 0.84f, 0, alpha}; /* premultiplied yellow */
	int width = word->width + 2 * (2 + grow), height = word->height + 2 * (1 + grow);
	if (!server->lookup_highlight) {
		server->lookup_highlight = wlr_scene_rect_create(&server->lookup_layer->node, width, height, color);
		if (!server->lookup_highlight) return;
	} else {
		wlr_scene_rect_set_size(server->lookup_highlight, width, height);
		wlr_scene_rect_set_color(server->lookup_highlight, color);
	}
	wlr_scene_node_set_position(&server->lookup_highlight->node, x + word->x - (2 + grow), y + word->y - (1 + grow));
}

static void forget_growing(struct server *server) {
	if (server->lookup_growing) wlr_scene_node_destroy(&server->lookup_growing->node);
	server->lookup_growing = NULL;
}

/* wlroots destroys the panel's node with its surface (preview-lookup gone): forget it then. */
static void lookup_panel_destroyed(struct wl_listener *listener, void *data) {
	(void)data;
	struct server *server = wl_container_of(listener, server, lookup_panel_destroy);
	wl_list_remove(&server->lookup_panel_destroy.link);
	server->lookup_panel = NULL;
	forget_growing(server);
}

/* The trace's record of how much of the panel shows while it grows. */
static void trace_shown(struct server *server, int height, int of) {
	if (!server->trace) return;
	fprintf(server->trace, "{\"event\":\"lookup-panel-shown\",\"height\":%d,\"of\":%d}\n", height, of);
	fflush(server->trace);
}

/* The panel grows into view with the commit (`shown` of its height, from its top). wlroots
 * 0.15's scene cannot clip a surface, but it crops a buffer: while it grows, a scene buffer of
 * our own shows the top of the panel's buffer (locked, so a new commit leaves it whole), and
 * the surface's own node (its input, wl_surface.enter) is off until the panel is whole. */
static void lookup_panel_grow(struct server *server, struct wlr_surface *surface, double shown) {
	struct wlr_scene_node *whole = &server->lookup_panel->node;
	bool growing = shown < 1 && surface->buffer && surface->current.height > 0;
	if (!growing) {
		if (server->lookup_growing) trace_shown(server, surface->current.height, surface->current.height);
		forget_growing(server);
		wlr_scene_node_set_enabled(whole, true);
		return;
	}
	struct wlr_buffer *buffer = &surface->buffer->base;
	if (server->lookup_growing && server->lookup_growing->buffer != buffer) forget_growing(server);
	if (!server->lookup_growing) {
		server->lookup_growing = wlr_scene_buffer_create(&server->lookup_layer->node, buffer);
		if (!server->lookup_growing) {
			wlr_scene_node_set_enabled(whole, true);
			return;
		}
	}
	wlr_scene_node_set_enabled(whole, false);
	double fraction = shown > 0 ? shown : 0;
	int height = (int)(surface->current.height * fraction + 0.5);
	if (height < 1) height = 1;
	/* The source in buffer pixels, the destination in layout ones (the buffer's scale). */
	const struct wlr_fbox source = {0, 0, buffer->width, (double)buffer->height * height / surface->current.height};
	wlr_scene_buffer_set_source_box(server->lookup_growing, &source);
	wlr_scene_buffer_set_dest_size(server->lookup_growing, surface->current.width, height);
	wlr_scene_node_set_position(&server->lookup_growing->node, whole->state.x, whole->state.y);
	wlr_scene_node_raise_to_top(&server->lookup_growing->node);
	trace_shown(server, height, surface->current.height);
	if (server->lookup_growing_screenshot && server->shot_child <= 0) {
		server->shot_child = run_command_argv((char *const[]){"grim", (char *)server->lookup_growing_screenshot, NULL});
		server->lookup_growing_screenshot = NULL; /* one */
	}
}

void lookup_panel(void *data, const struct preview_interaction_lookup_panel *panel) {
	struct server *server = data;
	if (!panel->panel) {
		forget_growing(server);
		if (server->lookup_panel) wlr_scene_node_destroy(&server->lookup_panel->node);
		server->lookup_panel = NULL;
		return;
	}
	struct wlr_surface *surface = wlr_surface_from_resource(panel->panel);
	if (!panel->place) {
		if (server->lookup_panel) lookup_panel_grow(server, surface, panel->shown);
		return;
	}
	int x, y;
	if (!layout_origin(server, panel->surface, &x, &y)) return;
	if (!server->lookup_panel) {
		server->lookup_panel = wlr_scene_surface_create(&server->lookup_layer->node, surface);
		if (!server->lookup_panel) return;
		server->lookup_panel_destroy.notify = lookup_panel_destroyed;
		wl_signal_add(&server->lookup_panel->node.events.destroy, &server->lookup_panel_destroy);
	}
	/* Below the word, left-aligned with it; above it when there is no room below; inside the output. */
	int width = surface->current.width, height = surface->current.height;
	int px = x + panel->word.x, py = y + panel->word.y + panel->word.height + 6;
	if (py + height > server->height) py = y + panel->word.y - height - 6;
	if (px + width > server->width) px = server->width - width;
	if (px < 0) px = 0;
	if (py < 0) py = 0;
	wlr_scene_node_set_position(&server->lookup_panel->node, px, py);
	wlr_scene_node_raise_to_top(&server->lookup_panel->node);
	lookup_panel_grow(server, surface, panel->shown);
	if (server->trace) {
		fprintf(server->trace, "{\"event\":\"lookup-panel\",\"x\":%d,\"y\":%d,\"width\":%d,\"height\":%d}\n", px, py,
			width, height);
		fflush(server->trace);
	}
	wlr_log(WLR_INFO, "look up: panel %dx%d at %d,%d", width, height, px, py);
}

void window_geometry(void *data, struct wl_resource *resource, int32_t *x, int32_t *y) {
	(void)data;
	struct wlr_surface *surface = wlr_surface_from_resource(resource);
	if (!wlr_surface_is_xdg_surface(surface)) return;
	struct wlr_box box;
	wlr_xdg_surface_get_geometry(wlr_xdg_surface_from_wlr_surface(surface), &box);
	*x = box.x;
	*y = box.y;
}

bool lookup_start(struct server *server, const char *path) {
	/* Above every window: windows are inserted below this layer. */
	server->lookup_layer = wlr_scene_tree_create(&server->scene->node);
	if (!server->lookup_layer) return false;
	int status = preview_interaction_set_lookup(server->preview, true, path);
	if (status != PREVIEW_INTERACTION_OK) {
		wlr_log(WLR_ERROR, "Look Up: %s (%s)", preview_interaction_status_string(status),
			path ? path : PREVIEW_INTERACTION_LOOKUP_PATH);
		return false;
	}
	return true;
}

static const char *outcome_names[] = {"", "found", "nothing", "late"};
static const char *reason_names[] = {"", "lifted", "client-cancelled", "declined", "timeout", "device-removed",
	"surface-gone", "desynchronised", "moved", "system", "dismissed"};

/* Each lookup's news: the trace's lookup records (as preview-compositor's --trace writes them),
 * and at completion --lookup-screenshot's screenshot (grim, through screencopy). */
void lookup_event(void *data, const struct preview_interaction_lookup_event *event) {
	struct server *server = data;
	FILE *trace = server->trace;
	switch (event->kind) {
	case PREVIEW_INTERACTION_LOOKUP_ANSWERED:
		if (!trace || event->outcome > PREVIEW_INTERACTION_LOOKUP_OUTCOME_LATE) break;
		fprintf(trace, "{\"event\":\"lookup\",\"interaction\":%u,\"outcome\":\"%s\",\"answer_us\":%llu,\"word\":",
			event->lookup, outcome_names[event->outcome], (unsigned long long)event->waited_usec);
		write_json_string(trace, event->word);
		fputs(",\"link\":", trace);
		write_json_string(trace, event->link);
		fputs(",\"toolkit\":", trace);
		write_json_string(trace, event->toolkit);
		fputs(",\"definition\":", trace);
		write_json_string(trace, event->definition);
		fputs("}\n", trace);
		break;
	case PREVIEW_INTERACTION_LOOKUP_COMPLETED:
		if (trace) fprintf(trace, "{\"event\":\"lookup-completed\",\"interaction\":%u}\n", event->lookup);
		if (server->lookup_screenshot && server->shot_child <= 0) {
			server->shot_child = run_command_argv((char *const[]){"grim", (char *)server->lookup_screenshot, NULL});
			server->lookup_screenshot = NULL; /* one */
		}
		break;
	case PREVIEW_INTERACTION_LOOKUP_CANCELLED:
		if (trace && event->reason <= PREVIEW_INTERACTION_CANCEL_DISMISSED)
			fprintf(trace, "{\"event\":\"lookup-cancelled\",\"interaction\":%u,\"reason\":\"%s\"}\n", event->lookup,
				reason_names[event->reason]);
		break;
	case PREVIEW_INTERACTION_LOOKUP_DISMISSED:
		if (trace) fprintf(trace, "{\"event\":\"lookup-dismissed\",\"interaction\":%u}\n", event->lookup);
		break;
	}
	if (trace) fflush(trace);
}
