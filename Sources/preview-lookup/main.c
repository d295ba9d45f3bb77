/* preview-lookup: answers the compositor's "what is at this point?" over descriptor 4 and
 * shows the answer on its own Wayland connection (descriptor 3, WAYLAND_SOCKET). It keeps
 * nothing: each request reads one app's accessibility tree at one point. */
#include <errno.h>
#include <glib-unix.h>
#include <glib.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lookup.h"
#include "panel.h"

#define CHANNEL_FD 4

static struct panel *panel;
static GMainLoop *loop;
static uint8_t incoming[2 * LOOKUP_FRAME_MAX];
static size_t incoming_length;

struct writer {
	uint8_t bytes[LOOKUP_FRAME_MAX + 4];
	size_t length;
};

static void put(struct writer *writer, const void *value, size_t size)
{
	if (writer->length + size > sizeof writer->bytes)
		return;
	memcpy(writer->bytes + writer->length, value, size);
	writer->length += size;
}

static void put_u32(struct writer *writer, uint32_t value)
{
	put(writer, &value, 4);
}

static void put_string(struct writer *writer, const char *text)
{
	size_t length = strnlen(text, LOOKUP_STRING_MAX);
	uint16_t prefix = (uint16_t)length;
	put(writer, &prefix, 2);
	put(writer, text, length);
}

static void begin(struct writer *writer, uint32_t type)
{
	writer->length = 4;
	put_u32(writer, type);
}

static void send_frame(struct writer *writer)
{
	uint32_t body = (uint32_t)(writer->length - 4);
	memcpy(writer->bytes, &body, 4);
	size_t sent = 0;
	while (sent < writer->length) {
		ssize_t n = send(CHANNEL_FD, writer->bytes + sent, writer->length - sent, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			g_main_loop_quit(loop);
			return;
		}
		sent += (size_t)n;
	}
}

void channel_send_dismiss(uint32_t id)
{
	struct writer writer;
	begin(&writer, LOOKUP_DISMISS);
	put_u32(&writer, id);
	send_frame(&writer);
}

/* The card of a link or a detected datum, and the line the trace shows for it. */
static void show_card(uint32_t id, const struct lookup_found *found, char *line, size_t size)
{
	struct panel_card card = {.title = found->uri, .subtitle = found->word};
	char described[256] = "", details[512] = "";
	struct file_preview file = {0};
	struct panel_action *first = &card.actions[0], *second = &card.actions[1];
	*second = (struct panel_action){PANEL_ACTION_COPY, "Copy", ""};
	g_strlcpy(second->payload, found->word, sizeof second->payload);
	switch (found->kind) {
	case LOOKUP_KIND_LINK:
		card.label = "Link";
		card.subtitle = found->link_text[0] ? found->link_text : NULL;
		*first = (struct panel_action){PANEL_ACTION_OPEN, "Open", ""};
		g_strlcpy(first->payload, found->uri, sizeof first->payload);
		second->label = "Copy link";
		g_strlcpy(second->payload, found->uri, sizeof second->payload);
		snprintf(line, size, "link: %s", found->uri);
		break;
	case LOOKUP_KIND_DATE:
		card.label = found->when.has_date ? "Date" : "Time";
		calendar_describe(&found->when, described, sizeof described);
		card.title = described;
		*first = (struct panel_action){PANEL_ACTION_CALENDAR, "Add to Calendar", ""};
		if (!calendar_event(&found->when, found->word, first->payload, sizeof first->payload))
			first->kind = PANEL_ACTION_NONE;
		snprintf(line, size, "date: %s", described);
		break;
	case LOOKUP_KIND_PHONE:
		card.label = "Phone number";
		card.title = found->display;
		*first = (struct panel_action){PANEL_ACTION_OPEN, "Call", ""};
		g_strlcpy(first->payload, found->uri, sizeof first->payload);
		snprintf(line, size, "phone: %s", found->display);
		break;
	case LOOKUP_KIND_EMAIL:
		card.label = "E-mail address";
		card.title = found->uri + strlen("mailto:");
		*first = (struct panel_action){PANEL_ACTION_OPEN, "Send Mail", ""};
		g_strlcpy(first->payload, found->uri, sizeof first->payload);
		snprintf(line, size, "email: %s", card.title);
		break;
	case LOOKUP_KIND_FILE:
		if (!file_preview_read(found->uri, &file)) {
			snprintf(line, size, "file: unreadable");
			break;
		}
		card.label = file.directory ? "Folder" : "File";
		card.title = file.name;
		gchar *size_text = g_format_size((guint64)file.size);
		GDateTime *modified = g_date_time_new_from_unix_local(file.modified);
		gchar *date = modified ? g_date_time_format(modified, "%x %X") : g_strdup("");
		snprintf(details, sizeof details, "%s · %s · %s", file.type, size_text, date ? date : "");
		card.subtitle = details;
		card.lines = file.lines;
		card.image = file.thumbnail;
		*first = (struct panel_action){PANEL_ACTION_PREVIEW, "Open", ""};
		g_strlcpy(first->payload, file.path, sizeof first->payload);
		second->label = "Copy path";
		g_strlcpy(second->payload, file.path, sizeof second->payload);
		if (action_previewer_present())
			card.preview_path = file.path;
		snprintf(line, size, "file: %s", details);
		g_free(size_text);
		g_free(date);
		if (modified)
			g_date_time_unref(modified);
		break;
	default:
		break;
	}
	if (card.subtitle && card.title && strcmp(card.subtitle, card.title) == 0)
		card.subtitle = NULL;
	panel_show_card(panel, id, &card);
	file_preview_clear(&file);
}

/* The definition's first line, as the trace shows it: "verb: move forward by leaps". */
static void first_line(const struct lookup_definition *definition, char *out, size_t size)
{
	if (!definition->found) {
		snprintf(out, size, "No definition found");
		return;
	}
	snprintf(out, size, "%s: %s", definition->senses[0].part_of_speech, definition->senses[0].gloss);
}

static void answer(uint32_t id, int32_t pid, int32_t x, int32_t y, int32_t geometry_x, int32_t geometry_y, bool caret,
	uint32_t deadline_ms)
{
	gint64 started = g_get_monotonic_time();
	struct lookup_found found;
	accessible_find(pid, x, y, geometry_x, geometry_y, caret, deadline_ms, &found);
	struct lookup_definition definition = {0};
	char line[LOOKUP_STRING_MAX] = "";
	if (found.kind == LOOKUP_KIND_WORD) {
		dictionary_define(found.word, &definition);
		first_line(&definition, line, sizeof line);
		panel_show_word(panel, id, found.word, &definition);
	} else if (found.kind != LOOKUP_KIND_NOTHING) {
		show_card(id, &found, line, sizeof line);
	}
	/* The panel's commit is applied before the compositor reads the answer that names it. */
	if (found.kind != LOOKUP_KIND_NOTHING)
		panel_sync(panel);
	struct writer writer;
	begin(&writer, LOOKUP_ANSWER);
	put_u32(&writer, id);
	put_u32(&writer, found.kind);
	put_u32(&writer, (uint32_t)found.extents.x);
	put_u32(&writer, (uint32_t)found.extents.y);
	put_u32(&writer, (uint32_t)found.extents.width);
	put_u32(&writer, (uint32_t)found.extents.height);
	put_u32(&writer, (uint32_t)(g_get_monotonic_time() - started));
	put_string(&writer, found.toolkit);
	put_string(&writer, found.word);
	put_string(&writer, found.uri);
	put_string(&writer, line);
	send_frame(&writer);
}

static uint32_t read_u32(const uint8_t *bytes)
{
	uint32_t value;
	memcpy(&value, bytes, 4);
	return value;
}

static void handle(const uint8_t *body, uint32_t length)
{
	if (length < 4)
		return;
	switch (read_u32(body)) {
	case LOOKUP_REQUEST:
	case LOOKUP_REQUEST_CARET:
		if (length >= 4 + 6 * 4)
			answer(read_u32(body + 4), (int32_t)read_u32(body + 8), (int32_t)read_u32(body + 12),
				(int32_t)read_u32(body + 16), (int32_t)read_u32(body + 20), (int32_t)read_u32(body + 24),
				read_u32(body) == LOOKUP_REQUEST_CARET,
				length >= 4 + 7 * 4 ? read_u32(body + 28) : LOOKUP_DEADLINE_DEFAULT_MS);
		break;
	case LOOKUP_HIDE:
		panel_hide(panel);
		break;
	default:
		break; /* a newer compositor's message */
	}
}

static gboolean channel_readable(gint fd, GIOCondition condition, gpointer data)
{
	(void)condition, (void)data;
	ssize_t n = recv(fd, incoming + incoming_length, sizeof incoming - incoming_length, 0);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return G_SOURCE_CONTINUE;
	if (n <= 0) {
		/* The compositor is gone: so is the reason to run. */
		g_main_loop_quit(loop);
		return G_SOURCE_REMOVE;
	}
	incoming_length += (size_t)n;
	size_t offset = 0;
	while (incoming_length - offset >= 4) {
		uint32_t length = read_u32(incoming + offset);
		if (length > LOOKUP_FRAME_MAX) {
			fprintf(stderr, "preview-lookup: a frame of %u bytes: closing\n", length);
			g_main_loop_quit(loop);
			return G_SOURCE_REMOVE;
		}
		if (incoming_length - offset - 4 < length)
			break;
		handle(incoming + offset + 4, length);
		offset += 4 + length;
	}
	memmove(incoming, incoming + offset, incoming_length - offset);
	incoming_length -= offset;
	return G_SOURCE_CONTINUE;
}

static gboolean wayland_readable(gint fd, GIOCondition condition, gpointer data)
{
	(void)fd, (void)data;
	if ((condition & (G_IO_ERR | G_IO_HUP)) || !panel_dispatch(panel)) {
		g_main_loop_quit(loop);
		return G_SOURCE_REMOVE;
	}
	panel_flush(panel);
	return G_SOURCE_CONTINUE;
}

/* --detect: the detectors alone, on text given (their tests in every locale's formats). */
static int detect_command(const char *text, const char *offset)
{
	if (!g_utf8_validate(text, -1, NULL))
		return 2;
	struct lookup_detected detected;
	if (!detect_at(text, atol(offset), &detected)) {
		printf("nothing\n");
		return 1;
	}
	static const char *kinds[] = {"nothing", "word", "link", "date", "phone", "email", "file"};
	printf("%s\t%ld\t%ld\t%s\t%s", kinds[detected.kind], detected.start, detected.end, detected.text, detected.value);
	if (detected.kind == LOOKUP_KIND_PHONE)
		printf("\t%s", detected.display);
	printf("\n");
	return 0;
}

/* --file: the rule for paths and what the card shows (their tests). */
static int file_command(const char *written)
{
	char resolved[LOOKUP_STRING_MAX];
	const char *why = "";
	struct file_preview preview;
	if (!file_resolve(written, resolved, sizeof resolved, &why)) {
		printf("refused\t%s\n", why);
		return 1;
	}
	if (!file_preview_read(resolved, &preview)) {
		printf("refused\tunreadable\n");
		return 1;
	}
	printf("allowed\t%s\t%s\t%lld\t%s\t%s\n", preview.path, preview.type, preview.size,
		preview.thumbnail ? "thumbnail" : "-", preview.lines[0] ? "lines" : "-");
	file_preview_clear(&preview);
	return 0;
}

int main(int argc, char **argv)
{
	/* The user's language: the names of months and weekdays in dates, shown and detected. */
	setlocale(LC_ALL, "");
	if (argc == 4 && strcmp(argv[1], "--detect") == 0)
		return detect_command(argv[2], argv[3]);
	if (argc == 3 && strcmp(argv[1], "--file") == 0)
		return file_command(argv[2]);
	if (argc == 3 && strcmp(argv[1], "--limits") == 0) {
		struct lookup_limits limits = lookup_limits(g_ascii_strtoll(argv[2], NULL, 10));
		printf("budget %d ms, call timeout %d ms\n", limits.budget_ms, limits.call_timeout_ms);
		return 0;
	}
	if (argc > 1) {
		fprintf(stderr,
			"usage: preview-lookup\n"
			"       preview-lookup --detect TEXT OFFSET   (what the data detectors find at character OFFSET)\n"
			"       preview-lookup --file PATH            (whether PATH is one of the user's files, and its card)\n"
			"       preview-lookup --limits DEADLINE      (the search's budget and call timeout for a deadline in ms)\n"
			"Started by preview-compositor: descriptor 3 is its Wayland connection, 4 its lookup channel.\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	signal(SIGCHLD, SIG_IGN);
	const char *socket = getenv("WAYLAND_SOCKET");
	if (!socket) {
		fprintf(stderr, "preview-lookup: no WAYLAND_SOCKET: it runs only under the compositor\n");
		return 2;
	}
	int wayland_fd = atoi(socket);
	unsetenv("WAYLAND_SOCKET");
	panel = panel_create(wayland_fd);
	if (!panel) {
		fprintf(stderr, "preview-lookup: cannot use the compositor's connection\n");
		return 1;
	}
	if (!dictionary_init())
		fprintf(stderr, "preview-lookup: no WordNet data: words show without definitions\n");
	if (!accessible_init()) {
		fprintf(stderr, "preview-lookup: no accessibility bus\n");
		return 1;
	}
	loop = g_main_loop_new(NULL, FALSE);
	g_unix_fd_add(CHANNEL_FD, G_IO_IN | G_IO_HUP | G_IO_ERR, channel_readable, NULL);
	g_unix_fd_add(panel_fd(panel), G_IO_IN | G_IO_HUP | G_IO_ERR, wayland_readable, NULL);
	/* Before the first question is read: the first press then finds the bus, the fonts, the
	 * dictionary's files and the detectors' data warm. */
	accessible_warm();
	panel_warm();
	struct lookup_definition warm;
	dictionary_define("warm", &warm);
	struct lookup_detected detected; /* libphonenumber's metadata, the locale's names */
	detect_at("+1 650 253 0000 on March 14", 4, &detected);
	fprintf(stderr, "preview-lookup: ready\n");
	g_main_loop_run(loop);
	action_forget_event();
	return 0;
}
