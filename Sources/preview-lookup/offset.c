/* The character under a point of an accessible text. GetOffsetAtPoint answers in most toolkits
 * (in a millisecond or two); GTK 4.8 never answers it (the call would cost its whole timeout).
 * So the question goes out first, and, if it has no answer within ANSWER_GRACE_MS (at once for
 * a toolkit known never to answer), a search over character extents starts beside it, pipelined
 * on the app's connection: each round asks for the extents of up to PROBES_PER_ROUND characters
 * at once (one round trip for all of them) and narrows the range to one of the gaps between
 * them. Whichever ends first gives the offset: GetOffsetAtPoint's answer, or the search (a
 * million characters take 5 rounds). A reply that never comes costs nothing once the search is
 * done. Apps that answer are asked two questions, not dozens (a loaded machine feels each). */
#include <atspi/atspi.h>
#include <dbus/dbus.h>
#include <string.h>

#include "lookup.h"

#define TEXT_INTERFACE "org.a11y.atspi.Text"
#define PROBES_PER_ROUND 24
#define ROUNDS_MAX 8
#define ANSWER_GRACE_MS 40

struct probe {
	gint offset;
	DBusPendingCall *pending;
};

static DBusPendingCall *ask(AtspiAccessible *accessible, const char *method, int first_type, ...)
{
	AtspiObject *object = ATSPI_OBJECT(accessible);
	if (!object->app || !object->app->bus || !object->app->bus_name || !object->path)
		return NULL;
	DBusMessage *message = dbus_message_new_method_call(object->app->bus_name, object->path, TEXT_INTERFACE, method);
	if (!message)
		return NULL;
	va_list arguments;
	va_start(arguments, first_type);
	dbus_bool_t appended = dbus_message_append_args_valist(message, first_type, arguments);
	va_end(arguments);
	DBusPendingCall *pending = NULL;
	if (!appended || !dbus_connection_send_with_reply(object->app->bus, message, &pending, lookup_call_timeout()))
		pending = NULL;
	dbus_message_unref(message);
	return pending;
}

static void forget(DBusPendingCall **pending)
{
	if (!*pending)
		return;
	dbus_pending_call_cancel(*pending);
	dbus_pending_call_unref(*pending);
	*pending = NULL;
}

/* The reply of a call, waited for (the call's own timeout bounds the wait). */
static DBusMessage *reply_of(DBusPendingCall **pending)
{
	if (!*pending)
		return NULL;
	dbus_pending_call_block(*pending);
	DBusMessage *reply = dbus_pending_call_steal_reply(*pending);
	dbus_pending_call_unref(*pending);
	*pending = NULL;
	if (reply && dbus_message_get_type(reply) != DBUS_MESSAGE_TYPE_METHOD_RETURN) {
		dbus_message_unref(reply);
		return NULL;
	}
	return reply;
}

static DBusPendingCall *ask_extents(AtspiAccessible *accessible, gint offset)
{
	dbus_int32_t value = offset;
	dbus_uint32_t coordinates = lookup_coordinates();
	return ask(accessible, "GetCharacterExtents", DBUS_TYPE_INT32, &value, DBUS_TYPE_UINT32, &coordinates,
		DBUS_TYPE_INVALID);
}

static bool extents_reply(DBusPendingCall **pending, AtspiRect *rect)
{
	DBusMessage *reply = reply_of(pending);
	if (!reply)
		return false;
	dbus_int32_t x, y, width, height;
	bool read = dbus_message_get_args(reply, NULL, DBUS_TYPE_INT32, &x, DBUS_TYPE_INT32, &y, DBUS_TYPE_INT32,
		&width, DBUS_TYPE_INT32, &height, DBUS_TYPE_INVALID);
	dbus_message_unref(reply);
	if (read)
		*rect = (AtspiRect){x, y, width, height};
	return read;
}

/* GetOffsetAtPoint's answer if it came already (`wait`: waits for it); -1 otherwise. */
static gint offset_reply(DBusPendingCall **pending, bool wait)
{
	if (!*pending || (!wait && !dbus_pending_call_get_completed(*pending)))
		return -1;
	DBusMessage *reply = reply_of(pending);
	if (!reply)
		return -1;
	dbus_int32_t offset = -1;
	if (!dbus_message_get_args(reply, NULL, DBUS_TYPE_INT32, &offset, DBUS_TYPE_INVALID))
		offset = -1;
	dbus_message_unref(reply);
	return offset;
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

static bool on_character(const AtspiRect *rect, gint x, gint y)
{
	return x >= rect->x && x < rect->x + rect->width + 1 && y >= rect->y && y < rect->y + rect->height;
}

/* Waits up to `milliseconds` for `pending` to complete, reading the app's connection. */
static bool completes_within(AtspiAccessible *accessible, DBusPendingCall *pending, int milliseconds)
{
	DBusConnection *bus = ATSPI_OBJECT(accessible)->app->bus;
	gint64 until = g_get_monotonic_time() + (gint64)milliseconds * 1000;
	while (!dbus_pending_call_get_completed(pending)) {
		gint64 left = until - g_get_monotonic_time();
		if (left <= 0 || !dbus_connection_read_write_dispatch(bus, (int)MAX(1, left / 1000)))
			return false;
	}
	return true;
}

gint text_offset_at(AtspiAccessible *accessible, AtspiText *text, gint x, gint y, bool answers)
{
	GError *error = NULL;
	dbus_int32_t px = x, py = y;
	dbus_uint32_t coordinates = lookup_coordinates();
	DBusPendingCall *asked = ask(accessible, "GetOffsetAtPoint", DBUS_TYPE_INT32, &px, DBUS_TYPE_INT32, &py,
		DBUS_TYPE_UINT32, &coordinates, DBUS_TYPE_INVALID);
	gint count = atspi_text_get_character_count(text, &error);
	if (error) {
		g_clear_error(&error);
		count = 0;
	}
	if (count <= 0) {
		forget(&asked);
		return -1;
	}
	gint answer = -1;
	if (asked && answers && completes_within(accessible, asked, ANSWER_GRACE_MS))
		answer = offset_reply(&asked, false);
	/* The largest offset whose character is before the point, in [low, high]. */
	gint low = 0, high = count - 1;
	AtspiRect low_rect = {0, 0, 0, 0};
	bool low_known = false, failed = false;
	for (int round = 0; round < ROUNDS_MAX && answer < 0 && !failed && low < high && lookup_in_time(); round++) {
		struct probe probes[PROBES_PER_ROUND];
		int used = 0;
		gint span = high - low;
		for (int i = 1; i <= PROBES_PER_ROUND && used < PROBES_PER_ROUND; i++) {
			gint offset = low + (gint)(((gint64)span * i + PROBES_PER_ROUND) / (PROBES_PER_ROUND + 1));
			if (offset <= low || offset > high || (used > 0 && offset == probes[used - 1].offset))
				continue;
			probes[used++] = (struct probe){offset, ask_extents(accessible, offset)};
		}
		gint new_low = low, new_high = high;
		AtspiRect rect;
		for (int i = 0; i < used; i++) {
			if (failed || !extents_reply(&probes[i].pending, &rect)) {
				failed = true;
				forget(&probes[i].pending);
				continue;
			}
			if (before_point(&rect, x, y)) {
				if (probes[i].offset > new_low) {
					new_low = probes[i].offset;
					low_rect = rect;
					low_known = true;
				}
			} else if (probes[i].offset - 1 < new_high) {
				new_high = probes[i].offset - 1;
			}
		}
		low = new_low;
		high = new_high < low ? low : new_high;
		lookup_trace("round %d: %d probes, offsets %d..%d\n", round, used, low, high);
		answer = offset_reply(&asked, false);
		if (answer >= 0)
			break;
	}
	if (answer < 0 && failed)
		answer = offset_reply(&asked, true);
	else if (answer < 0 && low >= high)
		answer = offset_reply(&asked, false);
	forget(&asked);
	if (answer >= count) /* past the end: Gecko's window title names its window's extents there */
		answer = -1;
	if (answer >= 0) {
		/* Toolkits answer with the nearest character (the end of the text below its last line):
		 * the point must be on it, as on a searched one. */
		DBusPendingCall *check = ask_extents(accessible, answer);
		AtspiRect rect;
		bool on = extents_reply(&check, &rect) && on_character(&rect, x, y);
		lookup_trace("offset at (%d, %d): %d (the toolkit's answer)%s\n", x, y, answer, on ? "" : ", not under the point");
		return on ? answer : -1;
	}
	if (failed)
		return -1;
	if (!low_known) {
		DBusPendingCall *first = ask_extents(accessible, low);
		if (!extents_reply(&first, &low_rect))
			return -1;
	}
	lookup_trace("searched to %d: (%d, %d) %dx%d\n", low, low_rect.x, low_rect.y, low_rect.width, low_rect.height);
	/* The point must be on the character (a press in the margin looks nothing up). */
	return on_character(&low_rect, x, y) ? low : -1;
}
