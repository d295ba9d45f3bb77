/* The accessibility tree at a point: the app of a process, its window, the accessible under
 * the point, the word there and any link. Every D-Bus call is bounded by atspi's timeout and
 * the whole search by a budget; descents and scans have fixed limits. */
#include <atspi/atspi.h>
#include <stdio.h>
#include <string.h>

#include "lookup.h"

/* A reply slower than this is no answer (a hung app must not hold a press for long). */
#define CALL_TIMEOUT_MS 150
#define APPS_MAX 256
#define WINDOWS_MAX 32
#define DEPTH_MAX 48
/* Accessibles looked at for the focused text (the preview key's caret). */
#define NODES_MAX 512
#define CHILDREN_MAX 256
/* How long the walk for the focused text may take (each accessible costs a few D-Bus calls):
 * after it, an editable text met on the way is taken. */
#define FOCUS_WALK_MS 120
/* Characters fetched either side of the offset to find the word's bounds. */
#define CONTEXT_CHARS 64
/* Character-extents probes when the toolkit does not answer GetOffsetAtPoint. */
#define PROBES_MAX 40

static gint64 deadline;
/* PREVIEW_LOOKUP_DEBUG=1: each step on standard error (what docs/look-up.md measured). */
static bool debug;

/* When the current search began: each step shows the milliseconds since. */
static gint64 search_began;

#define trace_step(...) \
	do { \
		if (debug) { \
			fprintf(stderr, "preview-lookup: %5.1f ms: ", (g_get_monotonic_time() - search_began) / 1000.0); \
			fprintf(stderr, __VA_ARGS__); \
		} \
	} while (0)

static bool in_time(void)
{
	return g_get_monotonic_time() < deadline;
}

static bool failed(GError **error)
{
	if (!*error)
		return false;
	g_clear_error(error);
	return true;
}

bool accessible_init(void)
{
	debug = g_getenv("PREVIEW_LOOKUP_DEBUG") != NULL;
	if (atspi_init() < 0)
		return false;
	atspi_set_timeout(CALL_TIMEOUT_MS, 2 * CALL_TIMEOUT_MS);
	return true;
}

/* Done once at start, so that the first press does not pay for it against the compositor's
 * deadline: the accessibility bus (started on demand by the session bus) and its registry
 * answer, and the apps already there are known (their names and process ids; nothing of
 * their content is read). */
void accessible_warm(void)
{
	GError *error = NULL;
	search_began = g_get_monotonic_time();
	deadline = search_began + 2 * G_USEC_PER_SEC;
	AtspiAccessible *desktop = atspi_get_desktop(0);
	if (!desktop)
		return;
	gint count = atspi_accessible_get_child_count(desktop, &error);
	if (failed(&error))
		count = 0;
	for (gint i = 0; i < count && i < APPS_MAX && in_time(); i++) {
		AtspiAccessible *app = atspi_accessible_get_child_at_index(desktop, i, &error);
		if (failed(&error) || !app)
			continue;
		atspi_accessible_get_process_id(app, &error);
		g_clear_error(&error);
		g_object_unref(app);
	}
	g_object_unref(desktop);
	trace_step("warm: the registry and %d apps\n", count);
}

/* Events the registry sent since the last lookup (apps that came and went). */
static void drain_events(void)
{
	for (int i = 0; i < 256 && g_main_context_pending(NULL); i++)
		g_main_context_iteration(NULL, FALSE);
}

static AtspiAccessible *application_of(int32_t pid)
{
	GError *error = NULL;
	AtspiAccessible *desktop = atspi_get_desktop(0);
	if (!desktop)
		return NULL;
	AtspiAccessible *found = NULL;
	gint count = atspi_accessible_get_child_count(desktop, &error);
	if (failed(&error))
		count = 0;
	for (gint i = 0; i < count && i < APPS_MAX && !found && in_time(); i++) {
		AtspiAccessible *app = atspi_accessible_get_child_at_index(desktop, i, &error);
		if (failed(&error) || !app)
			continue;
		guint app_pid = atspi_accessible_get_process_id(app, &error);
		if (!failed(&error) && (int32_t)app_pid == pid)
			found = app;
		else
			g_object_unref(app);
	}
	g_object_unref(desktop);
	return found;
}

/* The toolkit's window coordinates: GTK 3 counts from the surface (its shadow included),
 * GTK 4 from the window geometry, Qt from its content area (our surface: no decorations
 * are drawn by the client here). docs/look-up.md has the measurements. */
static bool uses_window_geometry(const char *toolkit, const char *version)
{
	return g_ascii_strcasecmp(toolkit, "gtk") == 0 && version && version[0] >= '4';
}

static bool has_text(AtspiAccessible *accessible)
{
	AtspiText *text = atspi_accessible_get_text_iface(accessible);
	if (!text)
		return false;
	g_object_unref(text);
	return true;
}

/* The deepest accessible under the point that has text: Qt puts a text edit's text on the
 * edit and a plain filler (its viewport) under it. */
static AtspiAccessible *deepest_at(AtspiAccessible *window, gint x, gint y)
{
	GError *error = NULL;
	AtspiAccessible *current = g_object_ref(window);
	AtspiAccessible *with_text = has_text(current) ? g_object_ref(current) : NULL;
	for (int depth = 0; depth < DEPTH_MAX && in_time(); depth++) {
		AtspiComponent *component = atspi_accessible_get_component_iface(current);
		if (!component)
			break;
		AtspiAccessible *child =
			atspi_component_get_accessible_at_point(component, x, y, ATSPI_COORD_TYPE_WINDOW, &error);
		g_object_unref(component);
		if (failed(&error) || !child)
			break;
		if (child == current) {
			g_object_unref(child);
			break;
		}
		g_object_unref(current);
		current = child;
		if (has_text(current)) {
			if (with_text)
				g_object_unref(with_text);
			with_text = g_object_ref(current);
		}
		if (debug) {
			gchar *role = atspi_accessible_get_role_name(current, NULL);
			trace_step("depth %d: %s\n", depth, role ? role : "?");
			g_free(role);
		}
	}
	if (with_text) {
		g_object_unref(current);
		return with_text;
	}
	return current;
}

static bool extents_of(AtspiText *text, gint offset, AtspiRect *out)
{
	GError *error = NULL;
	AtspiRect *rect = atspi_text_get_character_extents(text, offset, ATSPI_COORD_TYPE_WINDOW, &error);
	if (failed(&error) || !rect)
		return false;
	*out = *rect;
	g_free(rect);
	return true;
}

/* Reading order: is the character at `rect` before the point? */
static bool before_point(const AtspiRect *rect, gint x, gint y)
{
	if (rect->y + rect->height <= y)
		return true;
	if (rect->y > y)
		return false;
	return rect->x <= x;
}

/* GetOffsetAtPoint, or a bisection over character extents (GTK 4.8 never answers it). */
static gint offset_at(AtspiText *text, gint x, gint y)
{
	GError *error = NULL;
	gint offset = atspi_text_get_offset_at_point(text, x, y, ATSPI_COORD_TYPE_WINDOW, &error);
	trace_step("offset at (%d, %d): %d\n", x, y, offset);
	if (!failed(&error) && offset >= 0) {
		AtspiRect rect;
		if (debug && extents_of(text, offset, &rect))
			trace_step("its extents: (%d, %d) %dx%d\n", rect.x, rect.y, rect.width, rect.height);
		return offset;
	}
	gint count = atspi_text_get_character_count(text, &error);
	if (failed(&error) || count <= 0)
		return -1;
	gint low = 0, high = count - 1;
	AtspiRect rect;
	for (int probe = 0; probe < PROBES_MAX && low < high && in_time(); probe++) {
		gint middle = low + (high - low + 1) / 2;
		if (!extents_of(text, middle, &rect))
			return -1;
		if (before_point(&rect, x, y))
			low = middle;
		else
			high = middle - 1;
	}
	if (!extents_of(text, low, &rect))
		return -1;
	trace_step("bisected to %d: (%d, %d) %dx%d\n", low, rect.x, rect.y, rect.width, rect.height);
	/* The point must be on the character (a press in the margin looks nothing up). */
	if (x < rect.x || x >= rect.x + rect.width + 1 || y < rect.y || y >= rect.y + rect.height)
		return -1;
	return low;
}

static bool word_character(gunichar c)
{
	return g_unichar_isalnum(c) || c == '\'' || c == 0x2019 || c == '-';
}

/* The word around `offset`: its character range and text. */
static bool word_at(AtspiText *text, gint offset, gint *start, gint *end, char *word, size_t size)
{
	GError *error = NULL;
	gint from = offset > CONTEXT_CHARS ? offset - CONTEXT_CHARS : 0;
	gchar *context = atspi_text_get_text(text, from, offset + CONTEXT_CHARS, &error);
	if (failed(&error) || !context)
		return false;
	glong length = g_utf8_strlen(context, -1);
	glong at = offset - from;
	bool found = false;
	if (at < length && g_unichar_isalnum(g_utf8_get_char(g_utf8_offset_to_pointer(context, at)))) {
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
		*start = from + (gint)left;
		*end = from + (gint)right;
		found = true;
	}
	g_free(context);
	return found;
}

static void range_extents(AtspiText *text, gint start, gint end, struct lookup_rect *out)
{
	GError *error = NULL;
	AtspiRect *rect = atspi_text_get_range_extents(text, start, end, ATSPI_COORD_TYPE_WINDOW, &error);
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

/* The word at `offset` of `text` (and its extents, and any link there) into `found`. */
static bool found_word_at(AtspiAccessible *accessible, AtspiText *text, gint offset, struct lookup_found *found)
{
	gint start, end;
	if (!word_at(text, offset, &start, &end, found->word, sizeof found->word))
		return false;
	found->kind = LOOKUP_KIND_WORD;
	range_extents(text, start, end, &found->extents);
	if (in_time())
		link_at(accessible, text, offset, found);
	return true;
}

static bool lookup_in(AtspiAccessible *window, gint x, gint y, struct lookup_found *found)
{
	AtspiAccessible *accessible = deepest_at(window, x, y);
	AtspiText *text = atspi_accessible_get_text_iface(accessible);
	bool done = false;
	if (text && in_time()) {
		gint offset = offset_at(text, x, y);
		done = offset >= 0 && in_time() && found_word_at(accessible, text, offset, found);
	}
	if (text)
		g_object_unref(text);
	g_object_unref(accessible);
	return done;
}

/* The focused accessible with text under `node`: a bounded walk (depth, children, count).
 * `editable` keeps the first editable text met, for when none is focused (the preview key
 * may have opened the app's context menu, which has the focus then). */
static AtspiAccessible *focused_text_in(AtspiAccessible *node, int depth, int *visited, AtspiAccessible **editable,
	gint64 walk_deadline)
{
	GError *error = NULL;
	if (depth > DEPTH_MAX || *visited >= NODES_MAX || !in_time() ||
		(*editable && g_get_monotonic_time() > walk_deadline))
		return NULL;
	(*visited)++;
	AtspiStateSet *states = atspi_accessible_get_state_set(node);
	bool focused = states && atspi_state_set_contains(states, ATSPI_STATE_FOCUSED);
	bool can_edit = states && atspi_state_set_contains(states, ATSPI_STATE_EDITABLE);
	if (states)
		g_object_unref(states);
	if ((focused || (can_edit && !*editable)) && has_text(node)) {
		if (focused)
			return g_object_ref(node);
		*editable = g_object_ref(node);
	}
	gint count = atspi_accessible_get_child_count(node, &error);
	if (failed(&error))
		return NULL;
	for (gint i = 0; i < count && i < CHILDREN_MAX && in_time(); i++) {
		AtspiAccessible *child = atspi_accessible_get_child_at_index(node, i, &error);
		if (failed(&error) || !child)
			continue;
		AtspiAccessible *result = child == node ? NULL : focused_text_in(child, depth + 1, visited, editable, walk_deadline);
		g_object_unref(child);
		if (result)
			return result;
	}
	return NULL;
}

/* The word at the text caret of the window's focused text (the word the caret is in or
 * just after), and any link there. */
static bool lookup_caret_in(AtspiAccessible *window, struct lookup_found *found)
{
	GError *error = NULL;
	int visited = 0;
	AtspiAccessible *editable = NULL;
	AtspiAccessible *accessible =
		focused_text_in(window, 0, &visited, &editable, g_get_monotonic_time() + FOCUS_WALK_MS * 1000);
	if (accessible && editable)
		g_object_unref(editable);
	else if (!accessible)
		accessible = editable;
	if (!accessible) {
		trace_step("no focused or editable text in the active window (%d accessibles)\n", visited);
		return false;
	}
	AtspiText *text = atspi_accessible_get_text_iface(accessible);
	bool done = false;
	gint caret = text ? atspi_text_get_caret_offset(text, &error) : -1;
	if (failed(&error))
		caret = -1;
	trace_step("caret of the %s text: %d (%d accessibles)\n", editable == accessible ? "editable" : "focused", caret,
		visited);
	for (gint offset = caret; offset >= 0 && offset >= caret - 1 && !done && in_time(); offset--)
		done = found_word_at(accessible, text, offset, found);
	if (text)
		g_object_unref(text);
	g_object_unref(accessible);
	return done;
}

void accessible_find(int32_t pid, int32_t surface_x, int32_t surface_y, int32_t geometry_x, int32_t geometry_y,
	bool caret, int budget_ms, struct lookup_found *found)
{
	GError *error = NULL;
	memset(found, 0, sizeof *found);
	search_began = g_get_monotonic_time();
	deadline = search_began + (gint64)budget_ms * 1000;
	drain_events();
	AtspiAccessible *app = application_of(pid);
	if (!app)
		return;
	gchar *toolkit = atspi_accessible_get_toolkit_name(app, &error);
	if (failed(&error))
		toolkit = NULL;
	gchar *version = toolkit ? atspi_accessible_get_toolkit_version(app, &error) : NULL;
	if (failed(&error))
		version = NULL;
	g_strlcpy(found->toolkit, toolkit ? toolkit : "", sizeof found->toolkit);
	bool geometry = toolkit && uses_window_geometry(toolkit, version);
	if (version && found->toolkit[0]) {
		size_t used = strlen(found->toolkit);
		g_snprintf(found->toolkit + used, sizeof found->toolkit - used, " %s", version);
	}
	trace_step("app %d: %s %s\n", pid, toolkit ? toolkit : "?", version ? version : "?");
	gint x = geometry ? surface_x - geometry_x : surface_x;
	gint y = geometry ? surface_y - geometry_y : surface_y;
	gint windows = atspi_accessible_get_child_count(app, &error);
	if (failed(&error))
		windows = 0;
	/* The active window first: a press lands on the focused window in most cases. The caret
	 * (the preview key) is looked for in the active window only, then the point everywhere. */
	for (int pass = caret ? -1 : 0; pass < 2 && found->kind == LOOKUP_KIND_NOTHING; pass++) {
		for (gint i = 0; i < windows && i < WINDOWS_MAX && in_time(); i++) {
			AtspiAccessible *window = atspi_accessible_get_child_at_index(app, i, &error);
			if (failed(&error) || !window)
				continue;
			AtspiStateSet *states = atspi_accessible_get_state_set(window);
			bool active = states && atspi_state_set_contains(states, ATSPI_STATE_ACTIVE);
			if (states)
				g_object_unref(states);
			if (pass < 0)
				trace_step("window %d: %s\n", i, active ? "active" : "inactive");
			bool done = pass < 0 ? active && lookup_caret_in(window, found)
					     : (active == (pass == 0)) && lookup_in(window, x, y, found);
			g_object_unref(window);
			if (done)
				break;
		}
	}
	if (found->kind != LOOKUP_KIND_NOTHING && geometry) {
		found->extents.x += geometry_x;
		found->extents.y += geometry_y;
	}
	trace_step("done: %s\n", found->kind == LOOKUP_KIND_NOTHING ? "nothing" : found->word[0] ? found->word : found->uri);
	g_free(toolkit);
	g_free(version);
	g_object_unref(app);
}
