/* What is at an offset of an accessible text: a link (the hypertext interface), a datum a
 * detector recognises in the text around it (detect.c), or the word there; with its extents. */
#include <atspi/atspi.h>
#include <string.h>

#include "lookup.h"

/* Characters fetched either side of the offset: the word's bounds, a date with its time, an
 * address. */
#define CONTEXT_CHARS 128

static bool failed(GError **error)
{
	if (!*error)
		return false;
	g_clear_error(error);
	return true;
}

static bool extents_of(AtspiText *text, gint offset, AtspiRect *out)
{
	GError *error = NULL;
	AtspiRect *rect = atspi_text_get_character_extents(text, offset, lookup_coordinates(), &error);
	if (failed(&error) || !rect)
		return false;
	*out = *rect;
	g_free(rect);
	return true;
}

static void range_extents(AtspiText *text, gint start, gint end, struct lookup_rect *out)
{
	GError *error = NULL;
	AtspiRect *rect = atspi_text_get_range_extents(text, start, end, lookup_coordinates(), &error);
	if (!failed(&error) && rect && rect->width > 0 && rect->height > 0) {
		*out = (struct lookup_rect){rect->x, rect->y, rect->width, rect->height};
		g_free(rect);
		return;
	}
	g_free(rect);
	AtspiRect first, last;
	if (extents_of(text, start, &first) && extents_of(text, end - 1, &last) && first.y == last.y) {
		*out = (struct lookup_rect){first.x, first.y, last.x + last.width - first.x, first.height};
		return;
	}
	*out = (struct lookup_rect){0, 0, 0, 0};
}

static void link_at(AtspiAccessible *accessible, AtspiText *text, gint offset, struct lookup_found *found)
{
	GError *error = NULL;
	AtspiHypertext *hypertext = atspi_accessible_get_hypertext_iface(accessible);
	if (!hypertext)
		return;
	gint index = atspi_hypertext_get_link_index(hypertext, offset, &error);
	if (!failed(&error) && index >= 0) {
		AtspiHyperlink *link = atspi_hypertext_get_link(hypertext, index, &error);
		if (!failed(&error) && link) {
			gchar *uri = atspi_hyperlink_get_uri(link, 0, &error);
			if (!failed(&error) && uri && uri[0]) {
				found->kind = LOOKUP_KIND_LINK;
				g_strlcpy(found->uri, uri, sizeof found->uri);
				gint start = atspi_hyperlink_get_start_index(link, &error);
				gint end = failed(&error) ? -1 : atspi_hyperlink_get_end_index(link, &error);
				if (!failed(&error) && start >= 0 && end > start) {
					gchar *words = atspi_text_get_text(text, start, MIN(end, start + 200), &error);
					if (!failed(&error) && words)
						g_strlcpy(found->link_text, words, sizeof found->link_text);
					g_free(words);
					range_extents(text, start, end, &found->extents);
				}
			}
			g_free(uri);
			g_object_unref(link);
		}
	}
	g_object_unref(hypertext);
}

static bool word_character(gunichar c)
{
	return g_unichar_isalnum(c) || c == '\'' || c == 0x2019 || c == '-';
}

/* The word around character `at` of `context`: its character range and text. */
static bool word_in(const char *context, glong at, glong *start, glong *end, char *word, size_t size)
{
	glong length = g_utf8_strlen(context, -1);
	if (at >= length || !g_unichar_isalnum(g_utf8_get_char(g_utf8_offset_to_pointer(context, at))))
		return false;
	glong left = at, right = at + 1;
	while (left > 0 && word_character(g_utf8_get_char(g_utf8_offset_to_pointer(context, left - 1))))
		left--;
	while (right < length && word_character(g_utf8_get_char(g_utf8_offset_to_pointer(context, right))))
		right++;
	const char *begin = g_utf8_offset_to_pointer(context, left);
	const char *finish = g_utf8_offset_to_pointer(context, right);
	size_t bytes = (size_t)(finish - begin);
	if (bytes >= size)
		bytes = size - 1;
	memcpy(word, begin, bytes);
	word[bytes] = '\0';
	/* Never a broken character at the cut. */
	g_utf8_validate(word, -1, &finish);
	word[finish - word] = '\0';
	*start = left;
	*end = right;
	return true;
}

/* A link that holds the text itself (Chromium puts a link's text in a child of the link): the
 * nearest link among the text's first ancestors, its address and extents. */
#define LINK_ANCESTORS_MAX 3
static void link_around(AtspiAccessible *accessible, struct lookup_found *found)
{
	GError *error = NULL;
	AtspiAccessible *node = g_object_ref(accessible);
	for (int level = 0; level <= LINK_ANCESTORS_MAX && node && lookup_in_time(); level++) {
		if (atspi_accessible_get_role(node, NULL) == ATSPI_ROLE_LINK) {
			AtspiHyperlink *link = atspi_accessible_get_hyperlink(node);
			gchar *uri = link ? atspi_hyperlink_get_uri(link, 0, &error) : NULL;
			if (!failed(&error) && uri && uri[0]) {
				found->kind = LOOKUP_KIND_LINK;
				g_strlcpy(found->uri, uri, sizeof found->uri);
				gchar *name = atspi_accessible_get_name(node, NULL);
				g_strlcpy(found->link_text, name ? name : "", sizeof found->link_text);
				g_free(name);
			}
			g_free(uri);
			if (link)
				g_object_unref(link);
			break;
		}
		AtspiAccessible *parent = atspi_accessible_get_parent(node, &error);
		g_object_unref(node);
		node = failed(&error) ? NULL : parent;
	}
	if (node)
		g_object_unref(node);
}

bool text_found_at(AtspiAccessible *accessible, AtspiText *text, gint offset, struct lookup_found *found)
{
	GError *error = NULL;
	gint from = offset > CONTEXT_CHARS ? offset - CONTEXT_CHARS : 0;
	/* Gecko and LibreOffice fail a range past the end. */
	gint count = atspi_text_get_character_count(text, &error);
	if (failed(&error) || count <= offset)
		return false;
	gint to = MIN(count, offset + CONTEXT_CHARS);
	gchar *context = atspi_text_get_text(text, from, to, &error);
	if (failed(&error) || !context)
		return false;
	/* An app may answer with more than was asked (any length): only the range asked is read. */
	const char *last = context;
	for (gint i = 0; i < to - from && *last; i++)
		last = g_utf8_next_char(last);
	if (!g_utf8_validate(context, last - context, NULL)) {
		g_free(context);
		return false;
	}
	context[last - context] = '\0';
	glong at = offset - from, start = 0, end = 0;
	bool has_word = word_in(context, at, &start, &end, found->word, sizeof found->word);
	if (has_word) {
		found->kind = LOOKUP_KIND_WORD;
		range_extents(text, from + (gint)start, from + (gint)end, &found->extents);
		if (lookup_in_time())
			link_at(accessible, text, offset, found);
		if (found->kind != LOOKUP_KIND_LINK && lookup_in_time())
			link_around(accessible, found);
	}
	struct lookup_detected detected;
	char path[LOOKUP_STRING_MAX];
	const char *why = NULL;
	bool detected_here = found->kind != LOOKUP_KIND_LINK && lookup_in_time() && detect_at(context, at, &detected);
	/* A path is looked at only when it is one of the user's own files (files.c); else the word. */
	if (detected_here && detected.kind == LOOKUP_KIND_FILE) {
		detected_here = file_resolve(detected.value, path, sizeof path, &why);
		if (detected_here)
			g_strlcpy(detected.value, path, sizeof detected.value);
		else
			lookup_trace("path %s: %s\n", detected.value, why);
	}
	if (detected_here) {
		found->kind = detected.kind;
		g_strlcpy(found->word, detected.text, sizeof found->word);
		g_strlcpy(found->uri, detected.value, sizeof found->uri);
		g_strlcpy(found->display, detected.display, sizeof found->display);
		found->when = detected.when;
		range_extents(text, from + (gint)detected.start, from + (gint)detected.end, &found->extents);
		lookup_trace("detected kind %d: %s (%s)\n", detected.kind, detected.text, detected.value);
	}
	g_free(context);
	return found->kind != LOOKUP_KIND_NOTHING;
}
