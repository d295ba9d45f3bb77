/* A C host of the installed libpreview-interaction, built against the installed files only
 * (pkg-config): attaches to a display, reports a device and a bad contact, detaches. With a
 * path argument it also dlopens that second copy of the library and does the same on a second
 * display: two Swift runtimes, each hidden in its library, in one process.
 *   cc embed.c $(pkg-config --cflags --libs preview-interaction wayland-server) -ldl -o embed
 *   ./embed [/path/to/copy-of-libpreview-interaction.so.1] */
#include <dlfcn.h>
#include <preview-interaction.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <wayland-server-core.h>

typedef int (*create_fn)(struct wl_display *, const struct preview_interaction_callbacks *, void *,
	struct preview_interaction **);
typedef int (*destroy_fn)(struct preview_interaction *);

static int failures;

static void check(int ok, const char *what) {
	printf("%s: %s\n", ok ? "ok" : "FAILED", what);
	failures += !ok;
}

static void quiet(void *data, enum preview_interaction_log_level level, const char *message) {
	(void)data, (void)level, (void)message;
}

int main(int argc, char **argv) {
	check(preview_interaction_version() >> 16 == PREVIEW_INTERACTION_VERSION_MAJOR, "header and library agree on the major version");
	printf("libpreview-interaction %s\n", preview_interaction_version_string());

	struct wl_display *display = wl_display_create();
	struct preview_interaction_callbacks callbacks = {.size = sizeof(callbacks), .log = quiet};
	struct preview_interaction *context = NULL;
	check(preview_interaction_create(display, &callbacks, NULL, &context) == PREVIEW_INTERACTION_OK, "create");
	struct preview_interaction_device *pen = NULL;
	check(preview_interaction_device_add(context, PREVIEW_INTERACTION_DEVICE_PEN, "pen", 0, 1, 0, &pen) ==
			PREVIEW_INTERACTION_OK, "device_add");
	check(preview_interaction_contact_down(pen, 0, NULL, 1, 1, 0.5, 1000) == PREVIEW_INTERACTION_OK, "contact_down");
	check(preview_interaction_contact_down(pen, 0, NULL, 1, 1, 0.5, 1100) == PREVIEW_INTERACTION_ERROR_CONTACT_EXISTS,
		"a second down of the contact is refused");
	bool swallow = true;
	check(preview_interaction_contact_up(pen, 7, 1200, &swallow) == PREVIEW_INTERACTION_ERROR_UNKNOWN_CONTACT,
		"an unknown contact is refused");
	check(preview_interaction_contact_up(pen, 0, 1300, &swallow) == PREVIEW_INTERACTION_OK && !swallow, "contact_up");
	uint32_t running = 99;
	check(preview_interaction_running_count(context, &running) == PREVIEW_INTERACTION_OK && running == 0, "running_count");

	if (argc > 1) {
		void *copy = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
		check(copy != NULL, "dlopen of a second copy");
		if (copy) {
			create_fn create = (create_fn)dlsym(copy, "preview_interaction_create");
			destroy_fn destroy = (destroy_fn)dlsym(copy, "preview_interaction_destroy");
			check(create && (void *)create != (void *)preview_interaction_create, "the copy is a second library");
			struct wl_display *second = wl_display_create();
			struct preview_interaction *other = NULL;
			check(create && create(second, &callbacks, NULL, &other) == PREVIEW_INTERACTION_OK, "create in the copy");
			check(destroy && destroy(other) == PREVIEW_INTERACTION_OK, "destroy in the copy");
			wl_display_destroy(second);
		}
	}

	check(preview_interaction_device_remove(pen, 2000) == PREVIEW_INTERACTION_OK, "device_remove");
	check(preview_interaction_destroy(context) == PREVIEW_INTERACTION_OK, "destroy");
	wl_display_destroy(display);
	printf("%s\n", failures ? "FAILED" : "all ok");
	return failures ? 1 : 0;
}
