/*
 * preview-lookup: Look Up for apps that know nothing of the preview protocol. The compositor
 * starts it with two descriptors: 3, a Wayland connection (WAYLAND_SOCKET) on which it shows
 * its panel, and 4, the private channel on which the compositor asks what is at a point.
 */
#ifndef PREVIEW_LOOKUP_H
#define PREVIEW_LOOKUP_H

#include <stdbool.h>
#include <stdint.h>

/* The channel: frames of a u32 length (of what follows, at most LOOKUP_FRAME_MAX) and a
 * body starting with a u32 type; integers in the machine's order (both ends are on it),
 * strings as a u16 length and that many bytes. */
#define LOOKUP_FRAME_MAX 16384
#define LOOKUP_STRING_MAX 1024

enum lookup_message {
	/* compositor → lookup: u32 id, i32 pid, i32 x, i32 y (surface-local),
	 * i32 geometry x, i32 geometry y (the window geometry's offset in the surface) */
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
	LOOKUP_KIND_LINK = 2,
};

struct lookup_rect {
	int32_t x, y, width, height;
};

/* What the accessibility tree has at a point. */
struct lookup_found {
	enum lookup_kind kind;
	char toolkit[64];
	char word[128];
	char uri[LOOKUP_STRING_MAX];
	char link_text[256];
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
 * Bounded: every D-Bus call has a timeout, and the whole search gives up after `budget_ms`. */
bool accessible_init(void);
/* Starts the accessibility bus and its registry and learns the apps there (at start). */
void accessible_warm(void);
void accessible_find(int32_t pid, int32_t surface_x, int32_t surface_y, int32_t geometry_x, int32_t geometry_y,
	bool caret, int budget_ms, struct lookup_found *found);

/* A reply slower than this is no answer (a hung app must not hold a press for long). */
#define LOOKUP_CALL_TIMEOUT_MS 150
/* accessible.c: is the current search still within its budget; PREVIEW_LOOKUP_DEBUG's steps. */
bool lookup_in_time(void);
void lookup_trace(const char *format, ...) __attribute__((format(printf, 1, 2)));

/* offset.c: the offset of the character under (x, y) (window coordinates) of `text`, the text
 * interface of `accessible`; -1 when none is there. */
#ifdef _ATSPI_H
gint text_offset_at(AtspiAccessible *accessible, AtspiText *text, gint x, gint y);
#endif

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
void panel_show_link(struct panel *panel, uint32_t id, const char *uri, const char *text);
void panel_hide(struct panel *panel);

/* main.c: the panel's buttons end the panel (Open, Copy link). */
void channel_send_dismiss(uint32_t id);

#endif
