/*
 * The README's C snippet ("For apps"), extracted by the Makefile into readme-snippet.c and
 * run as an app would: against the scripted protocol server, a press on the item at
 * (10.5, 20.25) previews, grows and opens it. Prints "N passed, N failed".
 *
 * usage: readme-app PATH/TO/preview-protocol-test-server
 */
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>

struct app {
	int blurs, grows, undos, opened;
};

static bool item_at(void *app, double x, double y) {
	(void)app;
	return x > 10 && x < 11 && y > 20 && y < 21;
}
static void blur(void *app, double progress) {
	(void)progress;
	((struct app *)app)->blurs++;
}
static void grow(void *app, double progress) {
	(void)progress;
	((struct app *)app)->grows++;
}
static void open_item(void *app, double x, double y) {
	if (item_at(app, x, y)) ((struct app *)app)->opened++;
}
static void undo(void *app) {
	((struct app *)app)->undos++;
}

#include "readme-snippet.c"

static struct wl_compositor *compositor;

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
	(void)data, (void)version;
	if (strcmp(interface, "wl_compositor") == 0) compositor = wl_registry_bind(registry, name, &wl_compositor_interface, 1);
}
static void global_remove(void *data, struct wl_registry *registry, uint32_t name) {
	(void)data, (void)registry, (void)name;
}
static const struct wl_registry_listener registry_listener = {global, global_remove};

int main(int argc, char **argv) {
	if (argc < 2) return 2;
	char runtime[] = "/tmp/readme-app-XXXXXX";
	int out[2];
	if (!mkdtemp(runtime) || pipe(out) != 0) return 2;
	pid_t server = fork();
	if (server == 0) {
		char env[300];
		snprintf(env, sizeof env, "XDG_RUNTIME_DIR=%s", runtime);
		char *const envp[] = {env, NULL};
		char *const args[] = {argv[1], "readme", NULL};
		dup2(out[1], 1);
		execve(argv[1], args, envp);
		_exit(127);
	}
	close(out[1]);
	char line[300] = {0};
	for (size_t used = 0; used < sizeof line - 1 && read(out[0], line + used, 1) == 1 && line[used] != '\n'; used++) {}
	*strchrnul(line, '\n') = 0;
	close(out[0]);
	char socket[640];
	snprintf(socket, sizeof socket, "%s/%s", runtime, line + strlen("WAYLAND_DISPLAY="));

	struct wl_display *display = wl_display_connect(socket);
	if (!display) return 1;
	struct wl_registry *registry = wl_display_get_registry(display);
	wl_registry_add_listener(registry, &registry_listener, NULL);
	wl_display_roundtrip(display);
	struct wl_surface *surface = wl_compositor_create_surface(compositor);

	struct app app = {0};
	struct preview_interaction_client *context = NULL;
	int fd = start_previews(display, surface, &app, &context);
	wl_surface_commit(surface); /* the scripted server presses at every commit */
	wl_display_flush(display);
	struct timespec start, now;
	clock_gettime(CLOCK_MONOTONIC, &start);
	bool committed_again = false;
	while (!app.opened && fd >= 0) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - start.tv_sec > 10) break;
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		if (poll(&pfd, 1, 100) > 0) preview_interaction_client_dispatch(context);
		if (app.grows > 0 && !committed_again) { /* in the commit phase: the next commit completes */
			committed_again = true;
			wl_surface_commit(surface);
			wl_display_flush(display);
		}
	}
	int failed = (fd < 0) + (app.blurs == 0) + (app.grows == 0) + (app.opened != 1) + (app.undos != 0);
	printf("blurs %d, grows %d, opened %d, undos %d\n%d passed, %d failed\n", app.blurs, app.grows, app.opened,
		app.undos, 5 - failed, failed);
	preview_interaction_client_destroy(context);
	wl_surface_destroy(surface);
	wl_compositor_destroy(compositor);
	wl_registry_destroy(registry);
	wl_display_disconnect(display);
	waitpid(server, NULL, 0);
	rmdir(runtime);
	return failed ? 1 : 0;
}
