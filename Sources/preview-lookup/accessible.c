/* The accessibility tree at a point: the app of a process, its window, the accessible under
 * the point, the word there and any link. Every D-Bus call is bounded by atspi's timeout and
 * the whole search by a budget; descents and scans have fixed limits. */
#include <atspi/atspi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lookup.h"

#define APPS_MAX 256
#define WINDOWS_MAX 32
#define DEPTH_MAX 48
/* Accessibles looked at for the focused text (the preview key's caret). */
#define NODES_MAX 512
#define CHILDREN_MAX 256
/* How long the walk for the focused text may take (each accessible costs a few D-Bus calls):
 * after it, an editable text met on the way is taken. */
#define FOCUS_WALK_MS 120
/* The search for the text under the point: accessibles visited in all, and children of one
 * accessible looked at when the one at the point names none of them. */
#define NODES_VISITED_MAX 1024
#define CHILDREN_SCANNED_MAX 512
/* How long the registry's first reply may take at start (the bus starting it). */
#define REGISTRY_START_TIMEOUT_MS 10000

static gint64 deadline;
/* Each D-Bus call's timeout in the current search (lookup_limits). */
static int call_timeout_ms = LOOKUP_DEADLINE_DEFAULT_MS * 3 / 10;
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

/* The coordinates the current app's accessibles are asked in (uses_screen_coordinates). */
static AtspiCoordType coordinates = ATSPI_COORD_TYPE_WINDOW;
/* The current app's toolkit never answers GetOffsetAtPoint (GTK 4.8): no wait for it. */
static bool never_answers_offset;

AtspiCoordType lookup_coordinates(void)
{
	return coordinates;
}

struct lookup_limits lookup_limits(int64_t deadline_ms)
{
	int64_t deadline = CLAMP(deadline_ms, LOOKUP_DEADLINE_MIN_MS, LOOKUP_DEADLINE_MAX_MS);
	int timeout = (int)CLAMP(deadline * 3 / 10, LOOKUP_CALL_TIMEOUT_MIN_MS, LOOKUP_CALL_TIMEOUT_MAX_MS);
	return (struct lookup_limits){.budget_ms = (int)deadline - timeout, .call_timeout_ms = timeout};
}

int lookup_call_timeout(void)
{
	return call_timeout_ms;
}

bool lookup_in_time(void)
{
	return in_time();
}

void lookup_trace(const char *format, ...)
{
	if (!debug)
		return;
	fprintf(stderr, "preview-lookup: %5.1f ms: ", (g_get_monotonic_time() - search_began) / 1000.0);
	va_list arguments;
	va_start(arguments, format);
	vfprintf(stderr, format, arguments);
	va_end(arguments);
}

static bool failed(GError **error)
{
	if (!*error)
		return false;
	g_clear_error(error);
	return true;
}

/* atspi_init answers 0 once connected to the accessibility bus, 2 when it found none: any
 * later call would then end the process inside libatspi (g_error). */
bool accessible_init(void)
{
	debug = g_getenv("PREVIEW_LOOKUP_DEBUG") != NULL;
	if (atspi_init() != 0)
		return false;
	atspi_set_timeout(call_timeout_ms, 2 * call_timeout_ms);
	return true;
}

/* Done once at start, so that the first press does not pay for it against the compositor's
 * deadline: the accessibility bus (started on demand by the session bus) and its registry
 * answer, and the apps already there are known (their names and process ids; nothing of
 * their content is read). The registry's first reply may wait for the bus to start it, which
 * takes longer than a lookup's call on a loaded machine: that one reply is waited for up to
 * REGISTRY_START_TIMEOUT_MS. */
void accessible_warm(void)
{
	GError *error = NULL;
	search_began = g_get_monotonic_time();
	AtspiAccessible *desktop = atspi_get_desktop(0);
	if (!desktop)
		return;
	atspi_set_timeout(REGISTRY_START_TIMEOUT_MS, REGISTRY_START_TIMEOUT_MS);
	gint count = atspi_accessible_get_child_count(desktop, &error);
	atspi_set_timeout(call_timeout_ms, 2 * call_timeout_ms);
	if (failed(&error)) {
		trace_step("warm: the registry did not answer\n");
		count = 0;
	}
	deadline = g_get_monotonic_time() + 2 * G_USEC_PER_SEC;
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

static AtspiAccessible *application_in(AtspiAccessible *desktop, int32_t pid)
{
	GError *error = NULL;
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
	return found;
}

/* The app of `pid` among the registry's: the list libatspi keeps from the registry's events
 * first, then (an app that registered a moment ago, its event not read yet) the registry's own. */
static AtspiAccessible *application_of(int32_t pid)
{
	AtspiAccessible *desktop = atspi_get_desktop(0);
	if (!desktop)
		return NULL;
	AtspiAccessible *found = application_in(desktop, pid);
	if (!found && in_time()) {
		trace_step("app %d not among the known apps: asking the registry\n", pid);
		atspi_accessible_clear_cache(desktop);
		found = application_in(desktop, pid);
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

/* Chromium's text in window coordinates counts from the web page's view, not the window (its
 * other accessibles count from the surface); its screen coordinates count from the surface, as
 * a Wayland client places its window at the screen's origin. */
static bool uses_screen_coordinates(const char *toolkit)
{
	return g_ascii_strcasecmp(toolkit, "chromium") == 0;
}

static bool has_text(AtspiAccessible *accessible)
{
	AtspiText *text = atspi_accessible_get_text_iface(accessible);
	if (!text)
		return false;
	g_object_unref(text);
	return true;
}

static bool contains(const AtspiRect *rect, gint x, gint y)
{
	return rect->width > 0 && rect->height > 0 && x >= rect->x && x < rect->x + rect->width && y >= rect->y &&
		y < rect->y + rect->height;
}

/* Shown now and holding the point (window coordinates), or shown with no extents of its own: a
 * GTK 3 notebook's page tab names none when its tab is hidden, and holds the page all the same. */
static bool holds_point(AtspiAccessible *accessible, gint x, gint y)
{
	AtspiStateSet *states = atspi_accessible_get_state_set(accessible);
	bool showing = states && atspi_state_set_contains(states, ATSPI_STATE_SHOWING) &&
		!atspi_state_set_contains(states, ATSPI_STATE_DEFUNCT);
	if (states)
		g_object_unref(states);
	if (!showing)
		return false;
	AtspiComponent *component = atspi_accessible_get_component_iface(accessible);
	if (!component)
		return false;
	GError *error = NULL;
	AtspiRect *rect = atspi_component_get_extents(component, lookup_coordinates(), &error);
	g_object_unref(component);
	bool held = !failed(&error) && rect && (contains(rect, x, y) || (rect->width < 0 && rect->height < 0));
	g_free(rect);
	return held;
}

struct descent {
	gint x, y;
	/* Where the coordinates of the accessibles below count from, in the window's (a root pane's). */
	gint origin_x, origin_y;
	int visited;
	AtspiAccessible *accessible; /* the text found, with the character under the point */
	gint offset;
};

static void trace_node(AtspiAccessible *accessible, int depth, const char *how)
{
	if (!debug)
		return;
	gchar *role = atspi_accessible_get_role_name(accessible, NULL);
	trace_step("depth %d: %s (%s)\n", depth, role ? role : "?", how);
	g_free(role);
}

static bool text_under_point(AtspiAccessible *node, int depth, struct descent *descent);

static bool extents_in_window(AtspiAccessible *accessible, AtspiRect *out)
{
	AtspiComponent *component = atspi_accessible_get_component_iface(accessible);
	if (!component)
		return false;
	GError *error = NULL;
	AtspiRect *rect = atspi_component_get_extents(component, lookup_coordinates(), &error);
	g_object_unref(component);
	bool read = !failed(&error) && rect;
	if (read)
		*out = *rect;
	g_free(rect);
	return read;
}

/* LibreOffice's accessibles (VCL's, as Java's) hang from a root pane that counts from its own
 * corner: a root pane at (0, 0) inside a parent that is not there counts from its parent. */
static void nested_origin(AtspiAccessible *parent, AtspiAccessible *child, gint *dx, gint *dy)
{
	*dx = *dy = 0;
	if (atspi_accessible_get_role(child, NULL) != ATSPI_ROLE_ROOT_PANE)
		return;
	AtspiRect outer, inner;
	if (!extents_in_window(parent, &outer) || !extents_in_window(child, &inner))
		return;
	if (inner.x == 0 && inner.y == 0 && (outer.x > 0 || outer.y > 0) && inner.width <= outer.width &&
		inner.height <= outer.height) {
		*dx = outer.x;
		*dy = outer.y;
		trace_step("a root pane counting from (%d, %d)\n", outer.x, outer.y);
	}
}

/* The text under the point in `child` of `parent`, in the child's coordinates. */
static bool descend(AtspiAccessible *parent, AtspiAccessible *child, int depth, struct descent *descent)
{
	gint dx, dy;
	nested_origin(parent, child, &dx, &dy);
	descent->x -= dx, descent->y -= dy, descent->origin_x += dx, descent->origin_y += dy;
	bool found = text_under_point(child, depth, descent);
	if (!found)
		descent->x += dx, descent->y += dy, descent->origin_x -= dx, descent->origin_y -= dy;
	return found;
}

/* The children whose extents hold the point, the last first (drawn last, so on top): where the
 * accessible at the point names no child (a notebook's page tab list, a document frame and its
 * pages), the text is in one of them, as a screen reader finds it. */
static bool text_in_children(AtspiAccessible *node, AtspiAccessible *tried, int depth, struct descent *descent)
{
	GError *error = NULL;
	gint count = atspi_accessible_get_child_count(node, &error);
	if (failed(&error) || count <= 0)
		return false;
	if (count > CHILDREN_SCANNED_MAX)
		trace_step("depth %d: %d children, the last %d scanned\n", depth, count, CHILDREN_SCANNED_MAX);
	for (gint i = count - 1; i >= 0 && i >= count - CHILDREN_SCANNED_MAX && in_time(); i--) {
		if (descent->visited >= NODES_VISITED_MAX)
			return false;
		AtspiAccessible *child = atspi_accessible_get_child_at_index(node, i, &error);
		if (failed(&error) || !child)
			continue;
		descent->visited++;
		bool found = child != node && child != tried && holds_point(child, descent->x, descent->y) &&
			(trace_node(child, depth, "holds the point"), descend(node, child, depth + 1, descent));
		g_object_unref(child);
		if (found)
			return true;
	}
	return false;
}

/* The deepest text under the point with a character there: the accessible at the point first,
 * down the tree; then this node's own text (Qt puts a text edit's text on the edit and a plain
 * filler, its viewport, under it); then the children that hold the point. Bounded by depth,
 * accessibles visited and the search's time. */
static bool text_under_point(AtspiAccessible *node, int depth, struct descent *descent)
{
	if (depth >= DEPTH_MAX || descent->visited >= NODES_VISITED_MAX || !in_time())
		return false;
	descent->visited++;
	GError *error = NULL;
	AtspiAccessible *child = NULL;
	AtspiComponent *component = atspi_accessible_get_component_iface(node);
	if (component) {
		child = atspi_component_get_accessible_at_point(
			component, descent->x, descent->y, lookup_coordinates(), &error);
		g_object_unref(component);
		if (failed(&error))
			child = NULL;
	}
	if (child == node)
		g_clear_object(&child);
	if (child) {
		trace_node(child, depth, "at the point");
		if (descend(node, child, depth + 1, descent)) {
			g_object_unref(child);
			return true;
		}
	}
	/* A window's own text is its title (Gecko's claims the whole window for its last character),
	 * never what is under the press. */
	AtspiRole role = atspi_accessible_get_role(node, NULL);
	bool window = role == ATSPI_ROLE_FRAME || role == ATSPI_ROLE_WINDOW;
	AtspiText *text = in_time() && !window ? atspi_accessible_get_text_iface(node) : NULL;
	if (text) {
		gint offset = text_offset_at(node, text, descent->x, descent->y, !never_answers_offset);
		g_object_unref(text);
		if (offset >= 0) {
			descent->accessible = g_object_ref(node);
			descent->offset = offset;
			g_clear_object(&child);
			return true;
		}
	}
	bool found = text_in_children(node, child, depth, descent);
	g_clear_object(&child);
	return found;
}

static bool lookup_in(AtspiAccessible *window, gint x, gint y, struct lookup_found *found)
{
	struct descent descent = {.x = x, .y = y};
	if (!text_under_point(window, 0, &descent))
		return false;
	AtspiText *text = atspi_accessible_get_text_iface(descent.accessible);
	bool done = text && in_time() && text_found_at(descent.accessible, text, descent.offset, found);
	if (done && found->extents.width > 0) {
		found->extents.x += descent.origin_x;
		found->extents.y += descent.origin_y;
	}
	trace_step("text at depth-first visit %d, offset %d\n", descent.visited, descent.offset);
	if (text)
		g_object_unref(text);
	g_object_unref(descent.accessible);
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
		done = text_found_at(accessible, text, offset, found);
	if (text)
		g_object_unref(text);
	g_object_unref(accessible);
	return done;
}

void accessible_find(int32_t pid, int32_t surface_x, int32_t surface_y, int32_t geometry_x, int32_t geometry_y,
	bool caret, int64_t deadline_ms, struct lookup_found *found)
{
	GError *error = NULL;
	memset(found, 0, sizeof *found);
	struct lookup_limits limits = lookup_limits(deadline_ms);
	/* libatspi's second timeout is for an app it met less than its startup time ago. */
	call_timeout_ms = limits.call_timeout_ms;
	atspi_set_timeout(call_timeout_ms, 2 * call_timeout_ms);
	search_began = g_get_monotonic_time();
	deadline = search_began + (gint64)limits.budget_ms * 1000;
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
	coordinates = toolkit && uses_screen_coordinates(toolkit) ? ATSPI_COORD_TYPE_SCREEN : ATSPI_COORD_TYPE_WINDOW;
	/* GTK 4 answers GetOffsetAtPoint from 4.10 on (its accessible text interface). */
	never_answers_offset = geometry && version && g_str_has_prefix(version, "4.") && atoi(version + 2) < 10;
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
