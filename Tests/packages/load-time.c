/* The cost of loading a library and its first call, as a host pays it at start-up (BENCHMARKS.md):
 *   load-time preview-interaction [PATH]: dlopen libpreview-interaction, preview_interaction_create
 *     on a display, destroy (the Swift runtime's start-up inside the library included)
 *   load-time libinput: dlopen libinput.so.10, libinput_path_create_context, unref (the peer)
 *   load-time preview-interaction-client [PATH]: with libwayland-client loaded and connected,
 *     dlopen libpreview-interaction-client, preview_interaction_client_create (its own queue,
 *     a registry roundtrip, its reading thread), destroy
 *   load-time wayland-client: dlopen libwayland-client.so.0, connect, a registry roundtrip
 *     (the client library's peer)
 * All first dlopen libwayland-server and create a display (the client modes serve it from a
 * thread, over a socketpair). Prints the microseconds of dlopen and of the first call.
 *   cc load-time.c -ldl -lpthread -o load-time */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/socket.h>
#include <string.h>
#include <time.h>

static double now_us(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int open_restricted(const char *path, int flags, void *data) {
	(void)path, (void)flags, (void)data;
	return -1;
}

static void close_restricted(int fd, void *data) {
	(void)fd, (void)data;
}

static void *need(void *handle, const char *name) {
	void *address = handle ? dlsym(handle, name) : NULL;
	if (!address) fprintf(stderr, "load-time: %s: %s\n", name, dlerror());
	return address;
}

static void *serve(void *run) {
	void (*display_run)(void *) = (void (*)(void *))((void **)run)[0];
	display_run(((void **)run)[1]);
	return NULL;
}

/* The client modes: the server's end of a socketpair served from a thread; the client's end
 * connected before the clock starts for ours, after it for libwayland-client. */
static int client(void *server, void *display, int ours, const char *path) {
	int fds[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) return 1;
	void *(*client_create)(void *, int) = (void *(*)(void *, int))need(server, "wl_client_create");
	void *run[2] = {need(server, "wl_display_run"), display};
	pthread_t thread;
	if (!client_create || !run[0] || !client_create(display, fds[0]) || pthread_create(&thread, NULL, serve, run)) return 1;

	void *connection = NULL, *wayland = NULL;
	if (ours) {
		wayland = dlopen("libwayland-client.so.0", RTLD_NOW | RTLD_GLOBAL);
		void *(*connect)(int) = (void *(*)(int))need(wayland, "wl_display_connect_to_fd");
		if (!connect || !(connection = connect(fds[1]))) return 1;
	}
	double start = now_us();
	void *library = dlopen(ours ? path : "libwayland-client.so.0", RTLD_NOW | RTLD_LOCAL);
	double loaded = now_us();
	if (!library) {
		fprintf(stderr, "load-time: %s\n", dlerror());
		return 1;
	}
	if (ours) {
		void *context = NULL;
		int (*create)(void *, void *, void *, void **) = (int (*)(void *, void *, void *, void **))need(library, "preview_interaction_client_create");
		int (*destroy)(void *) = (int (*)(void *))need(library, "preview_interaction_client_destroy");
		if (!create || !destroy || create(connection, NULL, NULL, &context) != 0 || destroy(context) != 0) return 1;
	} else {
		/* wl_display_get_registry is an inline of wl_proxy_marshal_constructor: a sync request
		 * (wl_display_roundtrip) is the same round trip without the protocol tables. */
		void *(*connect)(int) = (void *(*)(int))need(library, "wl_display_connect_to_fd");
		int (*roundtrip)(void *) = (int (*)(void *))need(library, "wl_display_roundtrip");
		if (!connect || !roundtrip || !(connection = connect(fds[1])) || roundtrip(connection) < 0) return 1;
	}
	double called = now_us();
	printf("%s dlopen %.0f us, first call %.0f us\n", ours ? "preview-interaction-client" : "wayland-client", loaded - start, called - loaded);
	return 0;
}

int main(int argc, char **argv) {
	if (argc < 2) return 2;
	void *wayland = dlopen("libwayland-server.so.0", RTLD_NOW);
	void *(*display_create)(void) = (void *(*)(void))need(wayland, "wl_display_create");
	if (!display_create) return 1;
	void *display = display_create();
	if (strcmp(argv[1], "preview-interaction-client") == 0 || strcmp(argv[1], "wayland-client") == 0)
		return client(wayland, display, argv[1][0] == 'p',
			argc > 2 ? argv[2] : "libpreview-interaction-client.so.1");

	double start = now_us();
	int ours = strcmp(argv[1], "preview-interaction") == 0;
	const char *path = ours ? (argc > 2 ? argv[2] : "libpreview-interaction.so.1") : "libinput.so.10";
	void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	double loaded = now_us();
	if (!library) {
		fprintf(stderr, "load-time: %s\n", dlerror());
		return 1;
	}
	if (ours) {
		size_t callbacks[8] = {7 * sizeof(size_t)};
		void *context = NULL;
		int (*create)(void *, void *, void *, void **) = (int (*)(void *, void *, void *, void **))need(library, "preview_interaction_create");
		int (*destroy)(void *) = (int (*)(void *))need(library, "preview_interaction_destroy");
		if (!create || !destroy || create(display, callbacks, NULL, &context) != 0 || destroy(context) != 0) return 1;
	} else {
		/* struct libinput_interface: open_restricted, close_restricted (never called: no device). */
		struct {
			int (*open_restricted)(const char *, int, void *);
			void (*close_restricted)(int, void *);
		} interface = {open_restricted, close_restricted};
		void *(*create)(void *, void *) = (void *(*)(void *, void *))need(library, "libinput_path_create_context");
		void *(*unref)(void *) = (void *(*)(void *))need(library, "libinput_unref");
		if (!create || !unref) return 1;
		unref(create(&interface, NULL));
	}
	double called = now_us();
	printf("%s dlopen %.0f us, first call %.0f us\n", argv[1], loaded - start, called - loaded);
	return 0;
}
