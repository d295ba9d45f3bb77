/* The panel's drawing, with Pango and cairo in the system font, laid out like a dictionary panel:
 * the word, then numbered senses under their part of speech; or a card (a link, a date, a phone
 * number, an e-mail address, a file) with its buttons. */
#include <cairo.h>
#include <gdk-pixbuf/gdk-pixbuf.h>
#include <pango/pangocairo.h>
#include <stdio.h>
#include <string.h>

#include "panel.h"

#define MARGIN 16

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

/* A thumbnail, scaled already (files.c), drawn from its pixels. */
static double draw_image(cairo_t *cr, GdkPixbuf *image, double x, double y)
{
	int width = gdk_pixbuf_get_width(image), height = gdk_pixbuf_get_height(image);
	cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
	unsigned char *to = cairo_image_surface_get_data(surface);
	const guint8 *from = gdk_pixbuf_read_pixels(image);
	int channels = gdk_pixbuf_get_n_channels(image), from_stride = gdk_pixbuf_get_rowstride(image);
	int to_stride = cairo_image_surface_get_stride(surface);
	for (int row = 0; row < height; row++)
		for (int column = 0; column < width; column++) {
			const guint8 *p = from + row * from_stride + column * channels;
			unsigned alpha = channels == 4 ? p[3] : 255;
			uint32_t pixel = alpha << 24 | (p[0] * alpha / 255) << 16 | (p[1] * alpha / 255) << 8 | (p[2] * alpha / 255);
			memcpy(to + row * to_stride + column * 4, &pixel, 4);
		}
	cairo_surface_mark_dirty(surface);
	cairo_set_source_surface(cr, surface, x, y);
	cairo_paint(cr);
	cairo_surface_destroy(surface);
	return height;
}

static double layout_card(cairo_t *cr, const struct panel_card *card, struct panel_button *buttons)
{
	double x = MARGIN, y = MARGIN, width = PANEL_WIDTH - 2 * MARGIN;
	if (card->label)
		y += draw_text(cr, card->label, 12, PANGO_WEIGHT_BOLD, PANGO_STYLE_NORMAL, 0.45, x, y, width, false) + 4;
	if (card->title)
		y += draw_text(cr, card->title, 15, PANGO_WEIGHT_SEMIBOLD, PANGO_STYLE_NORMAL, 0.1, x, y, width, false) + 6;
	if (card->subtitle && card->subtitle[0])
		y += draw_text(cr, card->subtitle, 13, PANGO_WEIGHT_NORMAL, PANGO_STYLE_NORMAL, 0.35, x, y, width, false) + 6;
	if (card->image)
		y += draw_image(cr, card->image, x, y + 2) + 8;
	if (card->lines && card->lines[0]) {
		gchar *escaped = g_markup_escape_text(card->lines, -1);
		gchar *markup = g_strdup_printf("<tt>%s</tt>", escaped);
		y += draw_text(cr, markup, 11, PANGO_WEIGHT_NORMAL, PANGO_STYLE_NORMAL, 0.2, x, y, width, true) + 6;
		g_free(markup);
		g_free(escaped);
	}
	y += 8;
	double bx = x;
	bool any = false;
	for (int i = 0; i < PANEL_ACTIONS_MAX; i++) {
		if (card->actions[i].kind == PANEL_ACTION_NONE || !card->actions[i].label)
			continue;
		any = true;
		PangoLayout *layout = pango_cairo_create_layout(cr);
		PangoFontDescription *font = pango_font_description_from_string("Sans 10");
		pango_layout_set_font_description(layout, font);
		pango_layout_set_text(layout, card->actions[i].label, -1);
		int w, h;
		pango_layout_get_pixel_size(layout, &w, &h);
		if (buttons)
			buttons[i] = (struct panel_button){bx, y, w + 28, 30};
		{
			rounded(cr, bx, y, w + 28, 30, 7);
			cairo_set_source_rgb(cr, i == 0 ? 0.0 : 0.9, i == 0 ? 0.45 : 0.9, i == 0 ? 0.9 : 0.92);
			cairo_fill(cr);
			double grey = i == 0 ? 1.0 : 0.1;
			cairo_set_source_rgb(cr, grey, grey, grey);
			cairo_move_to(cr, bx + 14, y + (30 - h) / 2.0);
			pango_cairo_show_layout(cr, layout);
		}
		pango_font_description_free(font);
		g_object_unref(layout);
		bx += w + 28 + 10;
	}
	if (any)
		y += 30;
	return y + MARGIN;
}

double panel_layout(cairo_t *cr, const struct panel_card *card, struct panel_button *buttons)
{
	if (!card->definition)
		return layout_card(cr, card, buttons);
	const struct panel_card *content = card;
	double x = MARGIN, y = MARGIN, width = PANEL_WIDTH - 2 * MARGIN;
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


void panel_paint(cairo_t *cr, int width, int height, const struct panel_card *card, struct panel_button *buttons)
{
	cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR);
	cairo_paint(cr);
	cairo_set_operator(cr, CAIRO_OPERATOR_OVER);
	rounded(cr, 0.5, 0.5, width - 1, height - 1, 12);
	cairo_set_source_rgb(cr, 0.98, 0.98, 0.97);
	cairo_fill_preserve(cr);
	cairo_set_source_rgba(cr, 0, 0, 0, 0.25);
	cairo_set_line_width(cr, 1);
	cairo_stroke(cr);
	panel_layout(cr, card, buttons);
}

void panel_warm(void)
{
	struct lookup_definition definition = {.found = true, .lemma = "warm", .count = 1};
	definition.senses[0].part_of_speech = "noun";
	g_strlcpy(definition.senses[0].gloss, "fonts and glyphs, loaded before the first press", sizeof definition.senses[0].gloss);
	struct panel_card card = {.word = "warm", .definition = &definition};
	cairo_surface_t *scratch = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, PANEL_WIDTH, 200);
	cairo_t *cr = cairo_create(scratch);
	panel_paint(cr, PANEL_WIDTH, 200, &card, NULL);
	cairo_destroy(cr);
	cairo_surface_destroy(scratch);
}
