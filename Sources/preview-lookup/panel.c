/* The Look Up panel: a surface of our own Wayland connection, drawn with Pango and cairo
 * in the system font, laid out like a dictionary panel: the word, then numbered senses under
 * their part of speech; for a link, its address, its text and the Open and Copy link buttons.
 * The compositor places it beside the word and shows it from the commit phase on. */
#define _GNU_SOURCE
#include <cairo.h>
#include <pango/pangocairo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>

#include "lookup.h"
#include "panel.h"


struct panel {
	struct wl_display *display;
	struct wl_registry *registry;
	struct wl_compositor *compositor;
	struct wl_shm *shm;
	struct wl_seat *seat;
	struct wl_pointer *pointer;
	struct wl_data_device_manager *data_device_manager;
	struct wl_data_device *data_device;
	struct wl_data_source *source;
	char copied[LOOKUP_STRING_MAX];
	struct wl_surface *surface;
	struct wl_buffer *buffer;
	struct wl_output *output;
	bool on_screen; /* between the compositor's wl_surface.enter and .leave */
	uint32_t id;
	bool shown;
	double pointer_x, pointer_y;
	/* The card's buttons and what they do; a file to preview once the panel is on screen. */
	struct panel_button buttons[PANEL_ACTIONS_MAX];
	struct panel_action actions[PANEL_ACTIONS_MAX];
	char preview_path[4096];
	/* The button a press went down on, with what it acts on: the release completes that click
	 * even when the panel was hidden in between (the compositor's hide for a later input comes
	 * over the channel, which may be read before the release on the Wayland connection). */
	struct {
		bool down;
		struct panel_button button;
		struct panel_action action;
		uint32_t id;
	} pressed;
};

static void pointer_enter(void *data, struct wl_pointer *pointer, uint32_t serial, struct wl_surface *surface,
	wl_fixed_t x, wl_fixed_t y)
{
	struct panel *panel = data;
	(void)pointer, (void)serial, (void)surface;
	panel->pointer_x = wl_fixed_to_double(x);
	panel->pointer_y = wl_fixed_to_double(y);
}

static void pointer_leave(void *data, struct wl_pointer *pointer, uint32_t serial, struct wl_surface *surface)
{
	(void)data, (void)pointer, (void)serial, (void)surface;
}

static void pointer_motion(void *data, struct wl_pointer *pointer, uint32_t time, wl_fixed_t x, wl_fixed_t y)
{
	struct panel *panel = data;
	(void)pointer, (void)time;
	panel->pointer_x = wl_fixed_to_double(x);
	panel->pointer_y = wl_fixed_to_double(y);
}

static bool inside(const struct panel_button *button, double x, double y)
{
	return button->width > 0 && x >= button->x && x < button->x + button->width && y >= button->y &&
		y < button->y + button->height;
}

static void source_target(void *data, struct wl_data_source *source, const char *mime_type)
{
	(void)data, (void)source, (void)mime_type;
}

/* A paste: the address goes down the descriptor (small enough never to block a pipe). */
static void source_send(void *data, struct wl_data_source *source, const char *mime_type, int32_t fd)
{
	struct panel *panel = data;
	(void)source, (void)mime_type;
	size_t length = strlen(panel->copied), written = 0;
	while (written < length) {
		ssize_t n = write(fd, panel->copied + written, length - written);
		if (n <= 0)
			break;
		written += (size_t)n;
	}
	close(fd);
}

static void source_cancelled(void *data, struct wl_data_source *source)
{
	struct panel *panel = data;
	if (panel->source == source)
		panel->source = NULL;
	wl_data_source_destroy(source);
}

static const struct wl_data_source_listener source_listener = {
	.target = source_target,
	.send = source_send,
	.cancelled = source_cancelled,
};

/* Copy: the text becomes the selection, through the compositor's data device. */
static void copy_text(struct panel *panel, const char *uri, uint32_t serial)
{
	if (!panel->data_device_manager || !panel->seat)
		return;
	if (!panel->data_device)
		panel->data_device = wl_data_device_manager_get_data_device(panel->data_device_manager, panel->seat);
	g_strlcpy(panel->copied, uri, sizeof panel->copied);
	struct wl_data_source *source = wl_data_device_manager_create_data_source(panel->data_device_manager);
	wl_data_source_add_listener(source, &source_listener, panel);
	wl_data_source_offer(source, "text/plain;charset=utf-8");
	wl_data_source_offer(source, "text/plain");
	wl_data_source_offer(source, "UTF8_STRING");
	wl_data_device_set_selection(panel->data_device, source, serial);
	panel->source = source;
}

static void perform(struct panel *panel, const struct panel_action *action, uint32_t serial)
{
	switch (action->kind) {
	case PANEL_ACTION_OPEN:
		action_open_uri(action->payload);
		break;
	case PANEL_ACTION_COPY:
		copy_text(panel, action->payload, serial);
		break;
	case PANEL_ACTION_CALENDAR:
		action_add_event(action->payload);
		break;
	case PANEL_ACTION_PREVIEW:
		action_preview_file(action->payload);
		break;
	case PANEL_ACTION_NONE:
		break;
	}
}

static void pointer_button(void *data, struct wl_pointer *pointer, uint32_t serial, uint32_t time, uint32_t button,
	uint32_t state)
{
	struct panel *panel = data;
	(void)pointer, (void)time, (void)button;
	if (state == WL_POINTER_BUTTON_STATE_PRESSED) {
		panel->pressed.down = false;
		for (int i = 0; i < PANEL_ACTIONS_MAX && panel->shown; i++) {
			if (panel->actions[i].kind == PANEL_ACTION_NONE ||
				!inside(&panel->buttons[i], panel->pointer_x, panel->pointer_y))
				continue;
			panel->pressed.down = true;
			panel->pressed.button = panel->buttons[i];
			panel->pressed.action = panel->actions[i];
			panel->pressed.id = panel->id;
		}
		return;
	}
	bool down = panel->pressed.down;
	panel->pressed.down = false;
	/* A click is a press and a release on the same button. */
	if (!down || !inside(&panel->pressed.button, panel->pointer_x, panel->pointer_y))
		return;
	perform(panel, &panel->pressed.action, serial);
	channel_send_dismiss(panel->pressed.id);
}

static void pointer_axis(void *data, struct wl_pointer *pointer, uint32_t time, uint32_t axis, wl_fixed_t value)
{
	(void)data, (void)pointer, (void)time, (void)axis, (void)value;
}

static const struct wl_pointer_listener pointer_listener = {
	.enter = pointer_enter,
	.leave = pointer_leave,
	.motion = pointer_motion,
	.button = pointer_button,
	.axis = pointer_axis,
};

static void seat_capabilities(void *data, struct wl_seat *seat, uint32_t capabilities)
{
	struct panel *panel = data;
	if ((capabilities & WL_SEAT_CAPABILITY_POINTER) && !panel->pointer) {
		panel->pointer = wl_seat_get_pointer(seat);
		wl_pointer_add_listener(panel->pointer, &pointer_listener, panel);
	}
}

static void seat_name(void *data, struct wl_seat *seat, const char *name)
{
	(void)data, (void)seat, (void)name;
}

static const struct wl_seat_listener seat_listener = {.capabilities = seat_capabilities, .name = seat_name};

static void registry_global(void *data, struct wl_registry *registry, uint32_t name, const char *interface,
	uint32_t version)
{
	struct panel *panel = data;
	(void)version;
	if (strcmp(interface, wl_compositor_interface.name) == 0 && !panel->compositor) {
		panel->compositor = wl_registry_bind(registry, name, &wl_compositor_interface, 4);
	} else if (strcmp(interface, wl_shm_interface.name) == 0 && !panel->shm) {
		panel->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
	} else if (strcmp(interface, wl_data_device_manager_interface.name) == 0 && !panel->data_device_manager) {
		panel->data_device_manager = wl_registry_bind(registry, name, &wl_data_device_manager_interface, 3);
	} else if (strcmp(interface, wl_output_interface.name) == 0 && !panel->output) {
		/* Bound for wl_surface.enter: the compositor tells when the panel is on screen. */
		panel->output = wl_registry_bind(registry, name, &wl_output_interface, 1);
	} else if (strcmp(interface, wl_seat_interface.name) == 0 && !panel->seat) {
		panel->seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
		wl_seat_add_listener(panel->seat, &seat_listener, panel);
	}
}

static void registry_global_remove(void *data, struct wl_registry *registry, uint32_t name)
{
	(void)data, (void)registry, (void)name;
}

static const struct wl_registry_listener registry_listener = {
	.global = registry_global,
	.global_remove = registry_global_remove,
};

/* The compositor put the panel on screen (the commit crossing): a file goes to the desktop's
 * previewer then, not at the answer (a light press must open nothing). */
static void surface_enter(void *data, struct wl_surface *surface, struct wl_output *output)
{
	struct panel *panel = data;
	(void)surface, (void)output;
	if (!panel->on_screen && panel->shown && panel->preview_path[0])
		action_preview_file(panel->preview_path);
	panel->on_screen = true;
}

static void surface_leave(void *data, struct wl_surface *surface, struct wl_output *output)
{
	struct panel *panel = data;
	(void)surface, (void)output;
	panel->on_screen = false;
}

static const struct wl_surface_listener surface_listener = {.enter = surface_enter, .leave = surface_leave};

struct panel *panel_create(int wayland_fd)
{
	struct panel *panel = calloc(1, sizeof *panel);
	if (!panel)
		return NULL;
	panel->display = wl_display_connect_to_fd(wayland_fd);
	if (!panel->display) {
		free(panel);
		return NULL;
	}
	panel->registry = wl_display_get_registry(panel->display);
	wl_registry_add_listener(panel->registry, &registry_listener, panel);
	wl_display_roundtrip(panel->display);
	if (!panel->compositor || !panel->shm) {
		wl_display_disconnect(panel->display);
		free(panel);
		return NULL;
	}
	panel->surface = wl_compositor_create_surface(panel->compositor);
	wl_surface_add_listener(panel->surface, &surface_listener, panel);
	wl_display_flush(panel->display);
	return panel;
}

int panel_fd(struct panel *panel)
{
	return wl_display_get_fd(panel->display);
}

bool panel_dispatch(struct panel *panel)
{
	if (wl_display_dispatch(panel->display) < 0)
		return false;
	return true;
}

void panel_flush(struct panel *panel)
{
	wl_display_flush(panel->display);
}

void panel_sync(struct panel *panel)
{
	wl_display_roundtrip(panel->display);
}

static int anonymous_file(size_t size)
{
	int fd = memfd_create("preview-lookup-panel", MFD_CLOEXEC);
	if (fd < 0)
		return -1;
	if (ftruncate(fd, (off_t)size) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static void render(struct panel *panel, uint32_t id, const struct panel_card *card)
{
	memset(panel->buttons, 0, sizeof panel->buttons);
	memset(panel->actions, 0, sizeof panel->actions);
	cairo_surface_t *scratch = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1);
	cairo_t *measure = cairo_create(scratch);
	int height = (int)panel_layout(measure, card, NULL) + 1;
	cairo_destroy(measure);
	cairo_surface_destroy(scratch);
	if (height > PANEL_HEIGHT_MAX)
		height = PANEL_HEIGHT_MAX;
	int width = PANEL_WIDTH, stride = width * 4;
	size_t size = (size_t)stride * (size_t)height;
	int fd = anonymous_file(size);
	if (fd < 0)
		return;
	void *pixels = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (pixels == MAP_FAILED) {
		close(fd);
		return;
	}
	cairo_surface_t *image =
		cairo_image_surface_create_for_data(pixels, CAIRO_FORMAT_ARGB32, width, height, stride);
	cairo_t *cr = cairo_create(image);
	panel_paint(cr, width, height, card, panel->buttons);
	cairo_destroy(cr);
	cairo_surface_flush(image);
	cairo_surface_destroy(image);
	munmap(pixels, size);
	for (int i = 0; i < PANEL_ACTIONS_MAX; i++)
		panel->actions[i] = card->actions[i];

	struct wl_shm_pool *pool = wl_shm_create_pool(panel->shm, fd, (int32_t)size);
	struct wl_buffer *buffer =
		wl_shm_pool_create_buffer(pool, 0, width, height, stride, WL_SHM_FORMAT_ARGB8888);
	wl_shm_pool_destroy(pool);
	close(fd);
	wl_surface_attach(panel->surface, buffer, 0, 0);
	wl_surface_damage_buffer(panel->surface, 0, 0, width, height);
	g_strlcpy(panel->preview_path, card->preview_path ? card->preview_path : "", sizeof panel->preview_path);
	wl_surface_commit(panel->surface);
	/* The compositor copies the pixels at the commit: the old buffer can go. */
	if (panel->buffer)
		wl_buffer_destroy(panel->buffer);
	panel->buffer = buffer;
	panel->id = id;
	panel->shown = true;
	wl_display_flush(panel->display);
}

void panel_show_card(struct panel *panel, uint32_t id, const struct panel_card *card)
{
	render(panel, id, card);
}

void panel_show_word(struct panel *panel, uint32_t id, const char *word, const struct lookup_definition *definition)
{
	struct panel_card card = {.word = word, .definition = definition};
	render(panel, id, &card);
}

void panel_hide(struct panel *panel)
{
	if (!panel->shown)
		return;
	panel->shown = false;
	panel->preview_path[0] = '\0';
	wl_surface_attach(panel->surface, NULL, 0, 0);
	wl_surface_commit(panel->surface);
	wl_display_flush(panel->display);
}
