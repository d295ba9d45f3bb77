/* The panel's content (a dictionary entry or a card with buttons) and its drawing (panel_draw.c),
 * shared by panel.c, which shows it and handles its buttons, and main.c, which fills it. */
#ifndef PREVIEW_LOOKUP_PANEL_H
#define PREVIEW_LOOKUP_PANEL_H

#include <cairo.h>
#include <gdk-pixbuf/gdk-pixbuf.h>

#include "lookup.h"

#define PANEL_WIDTH 380
#define PANEL_HEIGHT_MAX 520
#define PANEL_ACTIONS_MAX 2

enum panel_action_kind {
	PANEL_ACTION_NONE,
	PANEL_ACTION_OPEN, /* payload: an address (https:, tel:, mailto:) */
	PANEL_ACTION_COPY, /* payload: the text */
	PANEL_ACTION_CALENDAR, /* payload: an iCalendar event */
	PANEL_ACTION_PREVIEW, /* payload: a file's path */
};

struct panel_action {
	enum panel_action_kind kind;
	const char *label;
	char payload[2048];
};

struct panel_button {
	double x, y, width, height;
};

/* A dictionary entry (`definition`), or a card: a small label ("Link", "Phone number"), a title,
 * a subtitle, a file's first lines or thumbnail, and up to two buttons. */
struct panel_card {
	const char *word;
	const struct lookup_definition *definition;
	const char *label;
	const char *title;
	const char *subtitle;
	const char *lines;
	GdkPixbuf *image;
	struct panel_action actions[PANEL_ACTIONS_MAX];
	/* A file the desktop's previewer shows once the panel is on screen. */
	const char *preview_path;
};

/* Lays the card out on `cr` (a scratch surface to measure) and returns its height; `buttons` (may be NULL)
 * gets where each action's button is. */
double panel_layout(cairo_t *cr, const struct panel_card *card, struct panel_button *buttons);
/* The panel's background and the card, on a `width` × `height` image. */
void panel_paint(cairo_t *cr, int width, int height, const struct panel_card *card, struct panel_button *buttons);

/* Draws a panel nobody sees: fontconfig, Pango's fonts and glyphs are loaded before the first
 * press, which then pays only for its own text. */
void panel_warm(void);

void panel_show_card(struct panel *panel, uint32_t id, const struct panel_card *card);

#endif
