/* A path under the press, previewed only when it is one of the user's own files:
 * - it resolves (symbolic links followed, `~/` and file:// read) to a place inside the user's
 *   home directory, so a link that points out of the home is refused where it points;
 * - it is not in /proc, /sys or /dev, whatever the home is;
 * - the file and every directory from the home down to it belong to the user;
 * - it is opened without following a link at the last step, and checked again once open.
 * What is read is bounded: a text file's first 4 KiB, an image of at most 32 MiB (scaled as it is
 * decoded), and nothing of a directory but its own metadata. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <gdk-pixbuf/gdk-pixbuf.h>
#include <gio/gio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lookup.h"

#define TEXT_BYTES_MAX 4096
#define IMAGE_BYTES_MAX (32 * 1024 * 1024)
#define THUMBNAIL_SIZE 96

static bool under(const char *path, const char *directory)
{
	size_t length = strlen(directory);
	return strncmp(path, directory, length) == 0 && (path[length] == '/' || path[length] == '\0');
}

/* Every directory from the home down to `path`'s own directory is the user's. */
static bool owned_down_to(const char *home, const char *path)
{
	char walk[PATH_MAX];
	g_strlcpy(walk, path, sizeof walk);
	for (char *slash = strrchr(walk, '/'); slash && strlen(walk) > strlen(home); slash = strrchr(walk, '/')) {
		*slash = '\0';
		struct stat status;
		if (lstat(walk[0] ? walk : "/", &status) != 0 || status.st_uid != getuid())
			return false;
	}
	return true;
}

bool file_resolve(const char *written, char *resolved, size_t size, const char **why)
{
	const char *home_name = g_get_home_dir();
	char home[PATH_MAX];
	if (!home_name || !realpath(home_name, home)) {
		*why = "no home directory";
		return false;
	}
	gchar *path = NULL;
	if (g_str_has_prefix(written, "file://"))
		path = g_filename_from_uri(written, NULL, NULL);
	else if (g_str_has_prefix(written, "~/"))
		path = g_build_filename(home, written + 2, NULL);
	else if (written[0] == '/')
		path = g_strdup(written);
	if (!path) {
		*why = "not a path";
		return false;
	}
	char real[PATH_MAX];
	bool exists = realpath(path, real) != NULL;
	g_free(path);
	if (!exists) {
		*why = "no such file";
		return false;
	}
	if (under(real, "/proc") || under(real, "/sys") || under(real, "/dev")) {
		*why = "a system file";
		return false;
	}
	if (!under(real, home) || strcmp(real, home) == 0) {
		*why = "outside the home directory";
		return false;
	}
	struct stat status;
	if (lstat(real, &status) != 0 || status.st_uid != getuid() || !owned_down_to(home, real)) {
		*why = "not the user's";
		return false;
	}
	if (!S_ISREG(status.st_mode) && !S_ISDIR(status.st_mode)) {
		*why = "not a file or directory";
		return false;
	}
	g_strlcpy(resolved, real, size);
	return true;
}

static void read_text(int fd, struct file_preview *preview)
{
	char bytes[TEXT_BYTES_MAX + 1];
	ssize_t length = pread(fd, bytes, TEXT_BYTES_MAX, 0);
	if (length <= 0)
		return;
	bytes[length] = '\0';
	const char *end = NULL;
	g_utf8_validate(bytes, length, &end);
	/* The first lines, whole characters only. */
	size_t used = 0;
	int lines = 0;
	for (const char *c = bytes; c < end && lines < FILE_PREVIEW_LINES && used + 1 < sizeof preview->lines; c++) {
		preview->lines[used++] = *c == '\t' ? ' ' : *c;
		lines += *c == '\n';
	}
	while (used > 0 && (preview->lines[used - 1] & 0xc0) == 0x80)
		used--;
	if (used > 0 && (unsigned char)preview->lines[used - 1] >= 0xc0)
		used--;
	while (used > 0 && (preview->lines[used - 1] == '\n' || preview->lines[used - 1] == '\r'))
		used--;
	preview->lines[used] = '\0';
}

static void scale_down(GdkPixbufLoader *loader, gint width, gint height, gpointer data)
{
	(void)data;
	if (width <= THUMBNAIL_SIZE && height <= THUMBNAIL_SIZE)
		return;
	double scale = (double)THUMBNAIL_SIZE / (width > height ? width : height);
	gdk_pixbuf_loader_set_size(loader, (int)(width * scale) > 0 ? (int)(width * scale) : 1,
		(int)(height * scale) > 0 ? (int)(height * scale) : 1);
}

/* Decoded from the descriptor already opened and checked (never from the path again). */
static void read_image(int fd, const struct stat *status, struct file_preview *preview)
{
	if (status->st_size <= 0 || status->st_size > IMAGE_BYTES_MAX)
		return;
	GdkPixbufLoader *loader = gdk_pixbuf_loader_new();
	g_signal_connect(loader, "size-prepared", G_CALLBACK(scale_down), NULL);
	guchar *bytes = g_malloc(64 * 1024);
	off_t offset = 0;
	bool good = true;
	while (good && offset < status->st_size) {
		ssize_t length = pread(fd, bytes, 64 * 1024, offset);
		if (length <= 0)
			break;
		good = gdk_pixbuf_loader_write(loader, bytes, (gsize)length, NULL);
		offset += length;
	}
	g_free(bytes);
	if (gdk_pixbuf_loader_close(loader, NULL) && good) {
		GdkPixbuf *pixbuf = gdk_pixbuf_loader_get_pixbuf(loader);
		if (pixbuf)
			preview->thumbnail = g_object_ref(pixbuf);
	}
	g_object_unref(loader);
}

bool file_preview_read(const char *resolved, struct file_preview *preview)
{
	memset(preview, 0, sizeof *preview);
	int fd = open(resolved, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
	struct stat status;
	if (fd < 0 || fstat(fd, &status) != 0 || status.st_uid != getuid()) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	g_strlcpy(preview->path, resolved, sizeof preview->path);
	gchar *name = g_path_get_basename(resolved);
	g_strlcpy(preview->name, name, sizeof preview->name);
	preview->size = status.st_size;
	preview->modified = status.st_mtime;
	preview->directory = S_ISDIR(status.st_mode);
	guchar head[512];
	ssize_t length = preview->directory ? 0 : pread(fd, head, sizeof head, 0);
	gchar *type = preview->directory ? g_strdup("inode/directory")
					 : g_content_type_guess(name, head, length > 0 ? (gsize)length : 0, NULL);
	gchar *description = g_content_type_get_description(type);
	g_strlcpy(preview->type, description ? description : type, sizeof preview->type);
	if (g_content_type_is_a(type, "text/plain"))
		read_text(fd, preview);
	else if (g_str_has_prefix(type, "image/"))
		read_image(fd, &status, preview);
	g_free(description);
	g_free(type);
	g_free(name);
	close(fd);
	return true;
}

void file_preview_clear(struct file_preview *preview)
{
	if (preview->thumbnail)
		g_object_unref(preview->thumbnail);
	preview->thumbnail = NULL;
}
