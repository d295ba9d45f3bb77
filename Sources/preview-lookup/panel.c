/* The Look Up panel: a surface of our own Wayland connection, drawn with Pango and cairo
 * in the system font, laid out like a dictionary panel: the word, then numbered senses under
 * their part of speech; for a link, its address, its text and the Open and Copy link buttons.
 * The compositor places it beside the word and shows it from the commit phase on. */
#define _GNU_SOURCE
#include <cairo.h>
#include <pango/pangocairo.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>

#include "lookup.h"

#define PANEL_WIDTH 380
#define PANEL_HEIGHT_MAX 520
#define MARGIN 16

extern char **environ;

struct button {
	double x, y, width, height;
};

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
	uint32_t id;
	bool shown;
	double pointer_x, pointer_y;
	char uri[LOOKUP_STRING_MAX];
	struct button open, copy;
	/* The button a press went down on, with what it acts on: the release completes that click
	 * even when the panel was hidden in between (the compositor's hide for a later input comes
	 * over the channel, which may be read before the release on the Wayland connection). */
	struct {
		enum { PRESSED_NONE, PRESSED_OPEN, PRESSED_COPY } action;
		struct button button;
		uint32_t id;
		char uri[LOOKUP_STRING_MAX];
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

static bool inside(const struct button *button, double x, double y)
{
	return button->width > 0 && x >= button->x && x < button->x + button->width && y >= button->y &&
		y < button->y + button->height;
}

/* xdg-open in a process of its own, not waited for (SIGCHLD is ignored: no zombies). */
static void open_uri(const char *uri)
{
	char *arguments[] = {"xdg-open", (char *)uri, NULL};
	pid_t pid;
	if (posix_spawnp(&pid, "xdg-open", NULL, NULL, arguments, environ) != 0)
		fprintf(stderr, "preview-lookup: cannot start xdg-open\n");
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

/* Copy link: the address becomes the selection, through the compositor's data device. */
static void copy_uri(struct panel *panel, const char *uri, uint32_t serial)
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

static void pointer_button(void *data, struct wl_pointer *pointer, uint32_t serial, uint32_t time, uint32_t button,
	uint32_t state)
{
	struct panel *panel = data;
	(void)pointer, (void)time, (void)button;
	if (state == WL_POINTER_BUTTON_STATE_PRESSED) {
		panel->pressed.action = PRESSED_NONE;
		if (!panel->shown || !panel->uri[0])
			return;
		if (inside(&panel->open, panel->pointer_x, panel->pointer_y)) {
			panel->pressed.action = PRESSED_OPEN;
			panel->pressed.button = panel->open;
		} else if (inside(&panel->copy, panel->pointer_x, panel->pointer_y)) {
			panel->pressed.action = PRESSED_COPY;
			panel->pressed.button = panel->copy;
		} else {
			return;
		}
		panel->pressed.id = panel->id;
		g_strlcpy(panel->pressed.uri, panel->uri, sizeof panel->pressed.uri);
		return;
	}
	int action = panel->pressed.action;
	panel->pressed.action = PRESSED_NONE;
	/* A click is a press and a release on the same button. */
	if (action == PRESSED_NONE || !inside(&panel->pressed.button, panel->pointer_x, panel->pointer_y))
		return;
	if (action == PRESSED_OPEN)
		open_uri(panel->pressed.uri);
	else
		copy_uri(panel, panel->pressed.uri, serial);
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

/* Text of `size` points, `weight`, colour, wrapped to `width`; returns its height. */
static double draw_text(cairo_t *cr, const char *text, double size, PangoWeight weight, PangoStyle style,
	double grey, double x, double y, double width, bool markup)
{
	PangoLayout *layout = pango_cairo_create_layout(cr);
	PangoFontDescription *font = pango_font_description_from_string("Sans");
	pango_font_description_set_absolute_size(font, size * PANGO_SCALE);
	pango_font_description_set_weight(font, weight);
	pango_font_description_set_style(font, style);
	pango_layout_set_font_description(layout, font);
	pango_layout_set_width(layout, (int)(width * PANGO_SCALE));
	pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR);
	if (markup)
		pango_layout_set_markup(layout, text, -1);
	else
		pango_layout_set_text(layout, text, -1);
	int w, h;
	pango_layout_get_pixel_size(layout, &w, &h);
	if (cr) {
		cairo_set_source_rgb(cr, grey, grey, grey);
		cairo_move_to(cr, x, y);
		pango_cairo_show_layout(cr, layout);
	}
	pango_font_description_free(font);
	g_object_unref(layout);
	return h;
}

static void rounded(cairo_t *cr, double x, double y, double width, double height, double radius)
{
	cairo_new_sub_path(cr);
	cairo_arc(cr, x + width - radius, y + radius, radius, -G_PI / 2, 0);
	cairo_arc(cr, x + width - radius, y + height - radius, radius, 0, G_PI / 2);
	cairo_arc(cr, x + radius, y + height - radius, radius, G_PI / 2, G_PI);
	cairo_arc(cr, x + radius, y + radius, radius, G_PI, 3 * G_PI / 2);
	cairo_close_path(cr);
}

struct content {
	const char *word;
	const struct lookup_definition *definition;
	const char *uri;
	const char *link_text;
};

/* Lays the panel out on `cr` (NULL: only measures); returns its height. */
static double layout_panel(struct panel *panel, cairo_t *cr, const struct content *content)
{
	double x = MARGIN, y = MARGIN, width = PANEL_WIDTH - 2 * MARGIN;
	if (content->uri) {
		y += draw_text(cr, "Link", 12, PANGO_WEIGHT_BOLD, PANGO_STYLE_NORMAL, 0.45, x, y, width, false) + 4;
		y += draw_text(cr, content->uri, 15, PANGO_WEIGHT_SEMIBOLD, PANGO_STYLE_NORMAL, 0.1, x, y, width, false) + 6;
		if (content->link_text && content->link_text[0])
			y += draw_text(cr, content->link_text, 13, PANGO_WEIGHT_NORMAL, PANGO_STYLE_NORMAL, 0.35, x, y,
				width, false) + 6;
		y += 8;
		const char *labels[2] = {"Open", "Copy link"};
		struct button *buttons[2] = {&panel->open, &panel->copy};
		double bx = x;
		for (int i = 0; i < 2; i++) {
			double label_width = 0;
			if (cr) {
				PangoLayout *layout = pango_cairo_create_layout(cr);
				PangoFontDescription *font = pango_font_description_from_string("Sans 10");
				pango_layout_set_font_description(layout, font);
				pango_layout_set_text(layout, labels[i], -1);
				int w, h;
				pango_layout_get_pixel_size(layout, &w, &h);
				label_width = w;
				*buttons[i] = (struct button){bx, y, w + 28, 30};
				rounded(cr, bx, y, w + 28, 30, 7);
				cairo_set_source_rgb(cr, i == 0 ? 0.0 : 0.9, i == 0 ? 0.45 : 0.9, i == 0 ? 0.9 : 0.92);
				cairo_fill(cr);
				double grey = i == 0 ? 1.0 : 0.1;
				cairo_set_source_rgb(cr, grey, grey, grey);
				cairo_move_to(cr, bx + 14, y + (30 - h) / 2.0);
				pango_cairo_show_layout(cr, layout);
				pango_font_description_free(font);
				g_object_unref(layout);
			}
			bx += label_width + 28 + 10;
		}
		y += 30;
		return y + MARGIN;
	}
	const struct lookup_definition *definition = content->definition;
	const char *title = definition->found ? definition->lemma : content->word;
	y += draw_text(cr, title, 22, PANGO_WEIGHT_BOLD, PANGO_STYLE_NORMAL, 0.08, x, y, width, false) + 8;
	if (!definition->found) {
		y += draw_text(cr, "No definition found", 14, PANGO_WEIGHT_NORMAL, PANGO_STYLE_ITALIC, 0.4, x, y, width,
			false);
		return y + MARGIN;
	}
	const char *part = NULL;
	int number = 0;
	for (int i = 0; i < definition->count && y < PANEL_HEIGHT_MAX - 3 * MARGIN; i++) {
		if (!part || strcmp(part, definition->senses[i].part_of_speech) != 0) {
			part = definition->senses[i].part_of_speech;
			number = 0;
			y += 4;
			y += draw_text(cr, part, 13, PANGO_WEIGHT_NORMAL, PANGO_STYLE_ITALIC, 0.45, x, y, width, false) + 4;
		}
		char line[520];
		char *escaped = g_markup_escape_text(definition->senses[i].gloss, -1);
		snprintf(line, sizeof line, "<b>%d</b>  %s", ++number, escaped);
		g_free(escaped);
		y += draw_text(cr, line, 14, PANGO_WEIGHT_NORMAL, PANGO_STYLE_NORMAL, 0.12, x + 4, y, width - 4, true) + 5;
	}
	return y + MARGIN - 5;
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

static void render(struct panel *panel, uint32_t id, const struct content *content)
{
	memset(&panel->open, 0, sizeof panel->open);
	memset(&panel->copy, 0, sizeof panel->copy);
	cairo_surface_t *scratch = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1);
	cairo_t *measure = cairo_create(scratch);
	struct panel ignored = *panel;
	int height = (int)layout_panel(&ignored, measure, content) + 1;
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
	cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR);
	cairo_paint(cr);
	cairo_set_operator(cr, CAIRO_OPERATOR_OVER);
	rounded(cr, 0.5, 0.5, width - 1, height - 1, 12);
	cairo_set_source_rgb(cr, 0.98, 0.98, 0.97);
	cairo_fill_preserve(cr);
	cairo_set_source_rgba(cr, 0, 0, 0, 0.25);
	cairo_set_line_width(cr, 1);
	cairo_stroke(cr);
	layout_panel(panel, cr, content);
	cairo_destroy(cr);
	cairo_surface_flush(image);
	cairo_surface_destroy(image);
	munmap(pixels, size);

	struct wl_shm_pool *pool = wl_shm_create_pool(panel->shm, fd, (int32_t)size);
	struct wl_buffer *buffer =
		wl_shm_pool_create_buffer(pool, 0, width, height, stride, WL_SHM_FORMAT_ARGB8888);
	wl_shm_pool_destroy(pool);
	close(fd);
	wl_surface_attach(panel->surface, buffer, 0, 0);
	wl_surface_damage_buffer(panel->surface, 0, 0, width, height);
	wl_surface_commit(panel->surface);
	/* The compositor copies the pixels at the commit: the old buffer can go. */
	if (panel->buffer)
		wl_buffer_destroy(panel->buffer);
	panel->buffer = buffer;
	panel->id = id;
	panel->shown = true;
	wl_display_flush(panel->display);
}

void panel_show_word(struct panel *panel, uint32_t id, const char *word, const struct lookup_definition *definition)
{
	panel->uri[0] = '\0';
	struct content content = {.word = word, .definition = definition};
	render(panel, id, &content);
}

void panel_show_link(struct panel *panel, uint32_t id, const char *uri, const char *text)
{
	g_strlcpy(panel->uri, uri, sizeof panel->uri);
	struct content content = {.uri = uri, .link_text = text};
	render(panel, id, &content);
}

void panel_hide(struct panel *panel)
{
	if (!panel->shown)
		return;
	panel->shown = false;
	panel->uri[0] = '\0';
	wl_surface_attach(panel->surface, NULL, 0, 0);
	wl_surface_commit(panel->surface);
	wl_display_flush(panel->display);
}
