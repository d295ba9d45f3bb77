/* What the panel's buttons hand to the desktop: an address to open (the XDG desktop portal's
 * OpenURI where a portal runs, xdg-open otherwise), a calendar event (an .ics file opened the
 * same way: the user's calendar is the handler of text/calendar) and a file to preview (GNOME's
 * previewer, Sushi, where it runs). Nothing waits for the desktop: calls are asynchronous and
 * children are not waited for (SIGCHLD is ignored). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <gio/gio.h>
#include <gio/gunixfdlist.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lookup.h"

#define PORTAL_NAME "org.freedesktop.portal.Desktop"
#define PORTAL_PATH "/org/freedesktop/portal/desktop"
#define OPEN_URI_INTERFACE "org.freedesktop.portal.OpenURI"
#define PREVIEWER_NAME "org.gnome.NautilusPreviewer2"
#define PREVIEWER_PATH "/org/gnome/NautilusPreviewer2"
/* The portal may ask the user to choose an app: its reply may take as long as that. */
#define CALL_TIMEOUT_MS 2000

extern char **environ;

static GDBusConnection *session(void)
{
	static GDBusConnection *connection;
	if (!connection)
		connection = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, NULL);
	return connection;
}

/* A service that is running or that the bus starts on demand. */
static bool service_present(const char *name)
{
	GDBusConnection *bus = session();
	if (!bus)
		return false;
	bool present = false;
	const char *methods[] = {"NameHasOwner", "ListActivatableNames"};
	for (int i = 0; i < 2 && !present; i++) {
		GVariant *reply = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
			"org.freedesktop.DBus", methods[i], i == 0 ? g_variant_new("(s)", name) : NULL, NULL,
			G_DBUS_CALL_FLAGS_NONE, 500, NULL, NULL);
		if (!reply)
			continue;
		if (i == 0) {
			gboolean owned = FALSE;
			g_variant_get(reply, "(b)", &owned);
			present = owned;
		} else {
			const gchar **names = NULL;
			g_variant_get(reply, "(^a&s)", &names);
			present = names && g_strv_contains(names, name);
			g_free(names);
		}
		g_variant_unref(reply);
	}
	return present;
}

static void call_done(GObject *source, GAsyncResult *result, gpointer data)
{
	const char *what = data;
	GError *error = NULL;
	GVariant *reply = g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), result, &error);
	if (error) {
		fprintf(stderr, "preview-lookup: %s: %s\n", what, error->message);
		g_error_free(error);
	}
	if (reply)
		g_variant_unref(reply);
}

static void spawn_xdg_open(const char *target)
{
	char *arguments[] = {"xdg-open", (char *)target, NULL};
	pid_t pid;
	if (posix_spawnp(&pid, "xdg-open", NULL, NULL, arguments, environ) != 0)
		fprintf(stderr, "preview-lookup: cannot start xdg-open\n");
}

static GVariant *no_options(void)
{
	return g_variant_new_array(G_VARIANT_TYPE("{sv}"), NULL, 0);
}

void action_open_uri(const char *uri)
{
	if (!service_present(PORTAL_NAME)) {
		spawn_xdg_open(uri);
		return;
	}
	g_dbus_connection_call(session(), PORTAL_NAME, PORTAL_PATH, OPEN_URI_INTERFACE, "OpenURI",
		g_variant_new("(ss@a{sv})", "", uri, no_options()), NULL, G_DBUS_CALL_FLAGS_NONE, CALL_TIMEOUT_MS, NULL,
		call_done, "OpenURI");
}

/* A local file through the portal's OpenFile (it takes the open descriptor, not the path). */
static void open_file(const char *path)
{
	if (!service_present(PORTAL_NAME)) {
		spawn_xdg_open(path);
		return;
	}
	int fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return;
	GUnixFDList *descriptors = g_unix_fd_list_new_from_array(&fd, 1);
	g_dbus_connection_call_with_unix_fd_list(session(), PORTAL_NAME, PORTAL_PATH, OPEN_URI_INTERFACE, "OpenFile",
		g_variant_new("(sh@a{sv})", "", 0, no_options()), NULL, G_DBUS_CALL_FLAGS_NONE, CALL_TIMEOUT_MS,
		descriptors, NULL, (GAsyncReadyCallback)call_done, "OpenFile");
	g_object_unref(descriptors);
}

/* The event's file lives in the user's runtime directory (private to the user, gone at logout)
 * until the next event or the end of this process: the calendar reads it when it opens it. */
static char event_path[512];

void action_forget_event(void)
{
	if (event_path[0])
		unlink(event_path);
	event_path[0] = '\0';
}

void action_add_event(const char *calendar)
{
	action_forget_event();
	const char *runtime = g_get_user_runtime_dir();
	snprintf(event_path, sizeof event_path, "%s/preview-lookup-event-%d.ics", runtime, (int)getpid());
	int fd = open(event_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0) {
		event_path[0] = '\0';
		return;
	}
	size_t length = strlen(calendar), written = 0;
	while (written < length) {
		ssize_t n = write(fd, calendar + written, length - written);
		if (n <= 0)
			break;
		written += (size_t)n;
	}
	close(fd);
	open_file(event_path);
}

bool action_previewer_present(void)
{
	return service_present(PREVIEWER_NAME);
}

void action_preview_file(const char *path)
{
	gchar *uri = g_filename_to_uri(path, NULL, NULL);
	if (!uri)
		return;
	if (service_present(PREVIEWER_NAME))
		g_dbus_connection_call(session(), PREVIEWER_NAME, PREVIEWER_PATH, PREVIEWER_NAME, "ShowFile",
			g_variant_new("(ssb)", uri, "", TRUE), NULL, G_DBUS_CALL_FLAGS_NONE, CALL_TIMEOUT_MS, NULL, call_done,
			"ShowFile");
	else
		open_file(path);
	g_free(uri);
}
