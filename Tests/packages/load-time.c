/* The cost of loading a library and its first call, as a host pays it at start-up (BENCHMARKS.md):
 *   load-time preview-interaction [PATH]: dlopen libpreview-interaction, preview_interaction_create
 *     on a display, destroy (the Swift runtime's start-up inside the library included)
 *   load-time libinput: dlopen libinput.so.10, libinput_path_create_context, unref (the peer)
 * Both first dlopen libwayland-server and create a display. Prints the microseconds of dlopen
 * and of the first call.
 *   cc load-time.c -ldl -o load-time */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdio.h>
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

int main(int argc, char **argv) {
	if (argc < 2) return 2;
	void *wayland = dlopen("libwayland-server.so.0", RTLD_NOW);
	void *(*display_create)(void) = (void *(*)(void))need(wayland, "wl_display_create");
	if (!display_create) return 1;
	void *display = display_create();

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
