/* A detected date or time as the user reads it, and as a calendar event (iCalendar, RFC 5545):
 * a floating local time (the text names no zone), an hour long, or the whole day. */
#include <glib.h>
#include <langinfo.h>
#include <stdio.h>
#include <string.h>

#include "lookup.h"

/* The date meant: a date without its year is the next such day, a time alone is today. */
static GDateTime *moment(const struct lookup_when *when)
{
	GDateTime *now = g_date_time_new_now_local();
	int year = when->has_year ? when->year : g_date_time_get_year(now);
	int month = when->has_date ? when->month : g_date_time_get_month(now);
	int day = when->has_date ? when->day : g_date_time_get_day_of_month(now);
	if (when->has_date && !when->has_year &&
		(month < g_date_time_get_month(now) ||
			(month == g_date_time_get_month(now) && day < g_date_time_get_day_of_month(now))))
		year++;
	g_date_time_unref(now);
	if (!g_date_valid_dmy((GDateDay)day, (GDateMonth)month, (GDateYear)year))
		return NULL;
	return g_date_time_new_local(year, month, day, when->has_time ? when->hour : 0, when->has_time ? when->minute : 0, 0);
}

bool calendar_describe(const struct lookup_when *when, char *out, size_t size)
{
	GDateTime *at = moment(when);
	if (!at)
		return false;
	/* The locale's names of the weekday and month (%x is all numbers), and its clock: 12 hours
	 * where it has an a.m. and p.m. */
	const char *clock = nl_langinfo(AM_STR)[0] ? "%l:%M %p" : "%H:%M";
	char format[64];
	snprintf(format, sizeof format, "%s%s%s", when->has_date ? "%A %e %B %Y" : "", when->has_date && when->has_time ? ", " : "",
		when->has_time ? clock : "");
	gchar *text = g_date_time_format(at, format);
	/* Padded days and hours lose their padding ("Friday  7 March"). */
	gchar **parts = g_strsplit(text ? g_strstrip(text) : "", "  ", -1);
	gchar *joined = g_strjoinv(" ", parts);
	g_strlcpy(out, joined, size);
	g_free(joined);
	g_strfreev(parts);
	g_free(text);
	g_date_time_unref(at);
	return true;
}

/* Text in an iCalendar value: backslash, semicolon, comma and newlines escaped. */
static void escape(const char *text, char *out, size_t size)
{
	size_t used = 0;
	for (const char *c = text; *c && used + 3 < size; c++) {
		if (*c == '\\' || *c == ';' || *c == ',') {
			out[used++] = '\\';
			out[used++] = *c;
		} else if (*c == '\n' || *c == '\r') {
			out[used++] = ' ';
		} else {
			out[used++] = *c;
		}
	}
	out[used] = '\0';
}

bool calendar_event(const struct lookup_when *when, const char *summary, char *out, size_t size)
{
	GDateTime *start = moment(when);
	if (!start)
		return false;
	GDateTime *end = when->has_time ? g_date_time_add_hours(start, 1) : g_date_time_add_days(start, 1);
	GDateTime *now = g_date_time_new_now_utc();
	gchar *from = g_date_time_format(start, when->has_time ? "%Y%m%dT%H%M%S" : "%Y%m%d");
	gchar *to = g_date_time_format(end, when->has_time ? "%Y%m%dT%H%M%S" : "%Y%m%d");
	gchar *stamp = g_date_time_format(now, "%Y%m%dT%H%M%SZ");
	gchar *uid = g_uuid_string_random();
	char title[256];
	escape(summary, title, sizeof title);
	const char *kind = when->has_time ? "" : ";VALUE=DATE";
	int written = snprintf(out, size,
		"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//preview-interaction//Look Up//EN\r\n"
		"BEGIN:VEVENT\r\nUID:%s\r\nDTSTAMP:%s\r\nDTSTART%s:%s\r\nDTEND%s:%s\r\nSUMMARY:%s\r\n"
		"END:VEVENT\r\nEND:VCALENDAR\r\n",
		uid, stamp, kind, from, kind, to, title);
	g_free(from);
	g_free(to);
	g_free(stamp);
	g_free(uid);
	g_date_time_unref(start);
	g_date_time_unref(end);
	g_date_time_unref(now);
	return written > 0 && (size_t)written < size;
}
