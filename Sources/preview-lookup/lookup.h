/*
 * preview-lookup: Look Up for apps that know nothing of the preview protocol. The compositor
 * starts it with two descriptors: 3, a Wayland connection (WAYLAND_SOCKET) on which it shows
 * its panel, and 4, the private channel on which the compositor asks what is at a point.
 */
#ifndef PREVIEW_LOOKUP_H
#define PREVIEW_LOOKUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The channel: frames of a u32 length (of what follows, at most LOOKUP_FRAME_MAX) and a
 * body starting with a u32 type; integers in the machine's order (both ends are on it),
 * strings as a u16 length and that many bytes. */
#define LOOKUP_FRAME_MAX 16384
#define LOOKUP_STRING_MAX 1024

enum lookup_message {
	/* compositor → lookup: u32 id, i32 pid, i32 x, i32 y (surface-local),
	 * i32 geometry x, i32 geometry y (the window geometry's offset in the surface),
	 * u32 deadline (ms: how long the compositor waits for the answer; a compositor that
	 * sends none waits LOOKUP_DEADLINE_DEFAULT_MS) */
	LOOKUP_REQUEST = 1,
	/* compositor → lookup: u32 id; the panel of that lookup is no longer shown */
	LOOKUP_HIDE = 2,
	/* compositor → lookup: as LOOKUP_REQUEST, at the text caret of the active window's
	 * focused text, or at the point when it has none (the user's preview key) */
	LOOKUP_REQUEST_CARET = 3,
	/* lookup → compositor: u32 id, u32 kind, i32 x, y, width, height (the word's extents,
	 * surface-local; width 0: unknown), u32 microseconds taken, strings toolkit, word,
	 * link address, the definition's first line */
	LOOKUP_ANSWER = 101,
	/* lookup → compositor: u32 id; the user is done with the panel (Open, Copy link) */
	LOOKUP_DISMISS = 103,
};

enum lookup_kind {
	LOOKUP_KIND_NOTHING = 0,
	LOOKUP_KIND_WORD = 1,
	/* a hyperlink, or an address (URL) written in the text */
	LOOKUP_KIND_LINK = 2,
	/* data detectors: a date or time, a phone number, an e-mail address, a file's path */
	LOOKUP_KIND_DATE = 3,
	LOOKUP_KIND_PHONE = 4,
	LOOKUP_KIND_EMAIL = 5,
	LOOKUP_KIND_FILE = 6,
};

struct lookup_rect {
	int32_t x, y, width, height;
};

/* A date, a time or both, as written (no time zone: the user's local time). */
struct lookup_when {
	int year, month, day, hour, minute;
	bool has_date, has_year, has_time;
};

/* What a data detector found in the text around the press. */
struct lookup_detected {
	enum lookup_kind kind;
	long start, end; /* characters of the text given */
	char text[256]; /* as written */
	char value[LOOKUP_STRING_MAX]; /* the URL, tel:+E.164, mailto:address, the path */
	char display[128]; /* a phone number in its international form */
	struct lookup_when when;
};

/* What the accessibility tree has at a point. */
struct lookup_found {
	enum lookup_kind kind;
	char toolkit[64];
	char word[256]; /* the word, or the detected text as written */
	char uri[LOOKUP_STRING_MAX]; /* a link's address, or what a detector's action opens */
	char link_text[256];
	struct lookup_when when;
	char display[128];
	struct lookup_rect extents; /* window coordinates of the toolkit (see accessible.c) */
};

/* A dictionary entry: up to LOOKUP_SENSES_MAX senses over the parts of speech. */
#define LOOKUP_SENSES_MAX 6
struct lookup_definition {
	bool found;
	char lemma[128];
	int count;
	struct {
		const char *part_of_speech; /* "noun", "verb", "adjective", "adverb" */
		char gloss[400];
	} senses[LOOKUP_SENSES_MAX];
};

/* accessible.c: finds the app of `pid` and what is at (x, y) in its window (the caller gives
 * both surface-local and window-geometry coordinates; the toolkit decides which it uses);
 * `caret`: at the text caret of the active window's focused text first.
 * Bounded: every D-Bus call has a timeout, and the whole search gives up within its budget,
 * both from the compositor's `deadline_ms` (lookup_limits). */
bool accessible_init(void);
/* Starts the accessibility bus and its registry and learns the apps there (at start). */
void accessible_warm(void);
void accessible_find(int32_t pid, int32_t surface_x, int32_t surface_y, int32_t geometry_x, int32_t geometry_y,
	bool caret, int64_t deadline_ms, struct lookup_found *found);

/* The compositor's deadline (the user's setting) and what follows from it. A call in flight
 * may end up to its timeout after the search gave up, so the search's budget is the deadline
 * less one call's timeout: the default, 500 ms, gives 350 ms and 150 ms. A reply slower than
 * the timeout is no answer (a hung app must not hold a press for long): 3/10 of the deadline,
 * within 50...1000 ms. A deadline out of 100...5000 ms is taken as the nearest end. */
#define LOOKUP_DEADLINE_DEFAULT_MS 500
#define LOOKUP_DEADLINE_MIN_MS 100
#define LOOKUP_DEADLINE_MAX_MS 5000
#define LOOKUP_CALL_TIMEOUT_MIN_MS 50
#define LOOKUP_CALL_TIMEOUT_MAX_MS 1000
struct lookup_limits {
	int budget_ms, call_timeout_ms;
};
struct lookup_limits lookup_limits(int64_t deadline_ms);
/* The current search's call timeout (ms). */
int lookup_call_timeout(void);
/* accessible.c: is the current search still within its budget; PREVIEW_LOOKUP_DEBUG's steps. */
bool lookup_in_time(void);
void lookup_trace(const char *format, ...) __attribute__((format(printf, 1, 2)));

/* offset.c: the offset of the character under (x, y) (window coordinates) of `text`, the text
 * interface of `accessible`; -1 when none is there. */
#ifdef _ATSPI_H
/* The coordinates the current app is asked in (its toolkit's: accessible.c). */
AtspiCoordType lookup_coordinates(void);
/* `answers`: the toolkit may answer GetOffsetAtPoint (GTK 4.8 never does). */
gint text_offset_at(AtspiAccessible *accessible, AtspiText *text, gint x, gint y, bool answers);
#endif

/* text.c: what is at `offset` of `text` (of `accessible`): a link, a detected datum or a word,
 * with its extents. */
#ifdef _ATSPI_H
bool text_found_at(AtspiAccessible *accessible, AtspiText *text, gint offset, struct lookup_found *found);
#endif

/* detect.c: a URL, e-mail address, path, phone number, date or time holding character `at` of
 * the UTF-8 `context`. */
bool detect_at(const char *context, long at, struct lookup_detected *detected);
/* phone.cpp: the phone number holding byte `at` of `text` (libphonenumber). */
bool phone_find(const char *text, size_t at, size_t *start, size_t *end, char *uri, size_t uri_size,
	char *international, size_t international_size);

/* calendar.c: a detected date as the user reads it (their locale), and as an iCalendar event. */
bool calendar_describe(const struct lookup_when *when, char *out, size_t size);
bool calendar_event(const struct lookup_when *when, const char *summary, char *out, size_t size);

/* files.c: a path written in the text, resolved, if it is one of the user's own files (the
 * rule is at the top of files.c); `why` says why not. What the panel shows of it. */
#define FILE_PREVIEW_LINES 6
struct file_preview {
	char path[4096];
	char name[256];
	char type[128];
	long long size;
	long long modified;
	bool directory;
	char lines[1024]; /* a text file's first lines */
	struct _GdkPixbuf *thumbnail; /* an image's, at most 96 pixels a side */
};
bool file_resolve(const char *written, char *resolved, size_t size, const char **why);
bool file_preview_read(const char *resolved, struct file_preview *preview);
void file_preview_clear(struct file_preview *preview);

/* actions.c: the desktop's ways to open, add an event and preview (see there). */
void action_open_uri(const char *uri);
void action_add_event(const char *calendar);
void action_forget_event(void);
bool action_previewer_present(void);
void action_preview_file(const char *path);

/* dictionary.c: WordNet, the word reduced to its base form (jumps → jump). */
bool dictionary_init(void);
void dictionary_define(const char *word, struct lookup_definition *definition);
/* The word as it is looked up: letters, inner hyphens and apostrophes, lower case. */
bool dictionary_normalise(const char *word, char *out, size_t size);

/* panel.c: the panel, a surface of our own Wayland connection. */
struct panel;
struct panel *panel_create(int wayland_fd);
int panel_fd(struct panel *panel);
/* Dispatches what the compositor sent; false when the connection is gone. */
bool panel_dispatch(struct panel *panel);
void panel_flush(struct panel *panel);
/* Returns once the compositor has applied every request sent so far. */
void panel_sync(struct panel *panel);
/* Renders and commits the panel for lookup `id` (the compositor shows it at the commit). */
void panel_show_word(struct panel *panel, uint32_t id, const char *word, const struct lookup_definition *definition);
void panel_hide(struct panel *panel);

/* main.c: the panel's buttons end the panel (Open, Copy link). */
void channel_send_dismiss(uint32_t id);

#endif
