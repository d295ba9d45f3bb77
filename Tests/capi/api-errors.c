/*
 * The C API's error paths, built with AddressSanitizer: every misuse a host can make
 * (NULL and stale handles, unknown contacts, removing twice, calls after destroy, the wrong
 * thread, destroy from inside a callback, a display destroyed first, a second context on
 * one display) returns its status and touches no freed memory; misuse reaches the log
 * callback as a warning, as far as the host's log level lets it. Prints "N passed, N failed".
 */
#define WL_HIDE_DEPRECATED 1
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include "preview-interaction.h"

#define CHECK_STATUS_STRING preview_interaction_status_string
#include "check.h"

/* The log callback can destroy the context from inside a call. */
struct host {
	struct preview_interaction *context;
	int logs;
	int destroy_from_log;
	int destroy_status;
	enum preview_interaction_log_level last_level;
	char last_message[256];
};

static void on_log(void *data, enum preview_interaction_log_level level, const char *message) {
	struct host *host = data;
	CHECK(message != NULL);
	host->logs++;
	host->last_level = level;
	snprintf(host->last_message, sizeof(host->last_message), "%s", message ? message : "");
	if (host->destroy_from_log) {
		host->destroy_from_log = 0;
		host->destroy_status = preview_interaction_destroy(host->context);
	}
}

static uint64_t fixed_clock(void *data) {
	(void)data;
	return 1000000;
}

static struct preview_interaction *create(struct wl_display *display, struct host *host) {
	struct preview_interaction_callbacks callbacks = {
		.size = sizeof(callbacks), .log = on_log, .now_usec = fixed_clock};
	struct preview_interaction *context = NULL;
	STATUS(preview_interaction_create(display, &callbacks, host, &context), PREVIEW_INTERACTION_OK);
	CHECK(context != NULL);
	host->context = context;
	return context;
}

static void *other_thread(void *context) {
	static int status;
	status = preview_interaction_set_sensitivity(context, PREVIEW_INTERACTION_SENSITIVITY_FIRM);
	return &status;
}

static void version_and_strings(void) {
	CHECK(preview_interaction_version() == PREVIEW_INTERACTION_VERSION_NUMBER);
	CHECK(strcmp(preview_interaction_version_string(), PREVIEW_INTERACTION_VERSION) == 0);
	for (int status = -12; status <= 1; status++) CHECK(preview_interaction_status_string(status) != NULL);
	CHECK(strcmp(preview_interaction_status_string(PREVIEW_INTERACTION_OK), "success") == 0);
}

static void creation(struct wl_display *display) {
	struct preview_interaction *context = (void *)1;
	struct preview_interaction_callbacks callbacks = {.size = sizeof(callbacks)};
	STATUS(preview_interaction_create(NULL, &callbacks, NULL, &context), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	CHECK(context == NULL);
	STATUS(preview_interaction_create(display, &callbacks, NULL, NULL), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	struct preview_interaction_callbacks empty = {.size = 0};
	STATUS(preview_interaction_create(display, &empty, NULL, &context), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	/* An older host's shorter struct: only `size` and `take_away`. */
	callbacks.size = offsetof(struct preview_interaction_callbacks, give_back);
	STATUS(preview_interaction_create(display, &callbacks, NULL, &context), PREVIEW_INTERACTION_OK);
	STATUS(preview_interaction_destroy(context), PREVIEW_INTERACTION_OK);
	/* No callbacks at all is allowed. */
	STATUS(preview_interaction_create(display, NULL, NULL, &context), PREVIEW_INTERACTION_OK);
	STATUS(preview_interaction_destroy(context), PREVIEW_INTERACTION_OK);
}

static void bad_handles(void) {
	struct preview_interaction *bogus = (void *)0x1234;
	struct preview_interaction_device *device = NULL;
	uint32_t count = 7;
	bool flag = true;
	STATUS(preview_interaction_destroy(NULL), PREVIEW_INTERACTION_ERROR_INVALID_CONTEXT);
	STATUS(preview_interaction_destroy(bogus), PREVIEW_INTERACTION_ERROR_INVALID_CONTEXT);
	STATUS(preview_interaction_set_sensitivity(NULL, PREVIEW_INTERACTION_SENSITIVITY_LIGHT),
		PREVIEW_INTERACTION_ERROR_INVALID_CONTEXT);
	STATUS(preview_interaction_device_add(bogus, PREVIEW_INTERACTION_DEVICE_PEN, "pen", 0, 1, 0, &device),
		PREVIEW_INTERACTION_ERROR_INVALID_CONTEXT);
	CHECK(device == NULL);
	STATUS(preview_interaction_running_count(NULL, &count), PREVIEW_INTERACTION_ERROR_INVALID_CONTEXT);
	CHECK(count == 0);
	count = 7;
	STATUS(preview_interaction_awaiting_answer_count(NULL, &count), PREVIEW_INTERACTION_ERROR_INVALID_CONTEXT);
	CHECK(count == 0);
	STATUS(preview_interaction_set_lookup(NULL, true, NULL), PREVIEW_INTERACTION_ERROR_INVALID_CONTEXT);
	STATUS(preview_interaction_set_lookup_long_press(NULL, true), PREVIEW_INTERACTION_ERROR_INVALID_CONTEXT);
	STATUS(preview_interaction_set_lookup_deadline(NULL, 500), PREVIEW_INTERACTION_ERROR_INVALID_CONTEXT);
	struct wl_client *lookup_client = (struct wl_client *)0x1;
	STATUS(preview_interaction_lookup_client(NULL, &lookup_client), PREVIEW_INTERACTION_ERROR_INVALID_CONTEXT);
	CHECK(lookup_client == NULL);
	STATUS(preview_interaction_contact_down(NULL, 0, NULL, 1, 1, 0.5, 1), PREVIEW_INTERACTION_ERROR_UNKNOWN_DEVICE);
	STATUS(preview_interaction_contact_down((void *)0x5678, 0, NULL, 1, 1, 0.5, 1),
		PREVIEW_INTERACTION_ERROR_UNKNOWN_DEVICE);
	STATUS(preview_interaction_contact_up(NULL, 0, 1, &flag), PREVIEW_INTERACTION_ERROR_UNKNOWN_DEVICE);
	CHECK(flag == false);
	STATUS(preview_interaction_device_remove(NULL, 1), PREVIEW_INTERACTION_ERROR_UNKNOWN_DEVICE);
	STATUS(preview_interaction_surface_commit(NULL, NULL), PREVIEW_INTERACTION_ERROR_INVALID_CONTEXT);
	STATUS(preview_interaction_set_completion(NULL, PREVIEW_INTERACTION_COMPLETION_ON_FORCE),
		PREVIEW_INTERACTION_ERROR_INVALID_CONTEXT);
	STATUS(preview_interaction_set_haptics(bogus, PREVIEW_INTERACTION_HAPTICS_OFF),
		PREVIEW_INTERACTION_ERROR_INVALID_CONTEXT);
	STATUS(preview_interaction_set_preview_keys(NULL, NULL, 0), PREVIEW_INTERACTION_ERROR_INVALID_CONTEXT);
	STATUS(preview_interaction_keyboard_focus_lost(bogus, 0, 1), PREVIEW_INTERACTION_ERROR_INVALID_CONTEXT);
	enum preview_interaction_key_verdict verdict = PREVIEW_INTERACTION_KEY_CONSUMED;
	STATUS(preview_interaction_keyboard_key(NULL, NULL, &verdict, NULL), PREVIEW_INTERACTION_ERROR_INVALID_CONTEXT);
	CHECK(verdict == PREVIEW_INTERACTION_KEY_DELIVER);
}

static void settings(struct preview_interaction *context) {
	STATUS(preview_interaction_set_sensitivity(context, 0), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_set_sensitivity(context, 4), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_set_sensitivity(context, PREVIEW_INTERACTION_SENSITIVITY_LIGHT), PREVIEW_INTERACTION_OK);
	STATUS(preview_interaction_set_long_press(context, 9), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_set_long_press(context, PREVIEW_INTERACTION_LONG_PRESS_SLOW), PREVIEW_INTERACTION_OK);
	STATUS(preview_interaction_set_should_begin_timeout(context, 0), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_set_should_begin_timeout(context, 60001), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_set_should_begin_timeout(context, 2000), PREVIEW_INTERACTION_OK);
	pthread_t thread;
	void *result = NULL;
	pthread_create(&thread, NULL, other_thread, context);
	pthread_join(thread, &result);
	CHECK(*(int *)result == PREVIEW_INTERACTION_ERROR_WRONG_THREAD);
}

/* Since 1.1: completion, haptics, preview keys and the keyboard. */
static struct preview_interaction_key key_event(uint32_t keycode, bool pressed, struct wl_resource *focus) {
	struct preview_interaction_key key = {.size = sizeof(key), .keycode = keycode, .pressed = pressed,
		.time_usec = 100, .focus = focus, .focus_width = 100, .focus_height = 100};
	return key;
}

static void keyboard_and_settings(struct wl_display *display, struct preview_interaction *context) {
	STATUS(preview_interaction_set_completion(context, 0), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_set_completion(context, 3), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_set_completion(context, PREVIEW_INTERACTION_COMPLETION_ON_RELEASE), PREVIEW_INTERACTION_OK);
	STATUS(preview_interaction_set_haptics(context, 4), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_set_haptics(context, PREVIEW_INTERACTION_HAPTICS_STRONG), PREVIEW_INTERACTION_OK);
	STATUS(preview_interaction_set_haptics(context, PREVIEW_INTERACTION_HAPTICS_OFF), PREVIEW_INTERACTION_OK);

	struct preview_interaction_key_binding keys[17] = {{.keycode = 28, .modifiers = PREVIEW_INTERACTION_MODIFIER_CONTROL}};
	STATUS(preview_interaction_set_preview_keys(context, NULL, 1), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_set_preview_keys(context, keys, 17), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	keys[1] = (struct preview_interaction_key_binding){0}; /* neither keycode nor keysym */
	STATUS(preview_interaction_set_preview_keys(context, keys, 2), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	keys[1] = (struct preview_interaction_key_binding){.keysym = 0xff67, .modifiers = 1u << 9};
	STATUS(preview_interaction_set_preview_keys(context, keys, 2), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_set_preview_keys(context, keys, 1), PREVIEW_INTERACTION_OK);
	STATUS(preview_interaction_set_preview_keys(context, keys, 0), PREVIEW_INTERACTION_OK);
	STATUS(preview_interaction_set_preview_keys(context, NULL, 0), PREVIEW_INTERACTION_OK);

	enum preview_interaction_key_verdict verdict = PREVIEW_INTERACTION_KEY_CONSUMED;
	uint64_t pressed_at = 7;
	struct preview_interaction_key key = key_event(127, true, NULL);
	STATUS(preview_interaction_keyboard_key(context, NULL, &verdict, NULL), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	CHECK(verdict == PREVIEW_INTERACTION_KEY_DELIVER); /* whatever fails, the key is the client's */
	STATUS(preview_interaction_keyboard_key(context, &key, NULL, NULL), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	struct preview_interaction_key bad = key;
	bad.size = 4;
	STATUS(preview_interaction_keyboard_key(context, &bad, &verdict, NULL), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	bad = key;
	bad.keycode = 0;
	STATUS(preview_interaction_keyboard_key(context, &bad, &verdict, NULL), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	bad = key;
	bad.modifiers = 1u << 30;
	STATUS(preview_interaction_keyboard_key(context, &bad, &verdict, NULL), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	bad = key;
	bad.focus_width = -1;
	STATUS(preview_interaction_keyboard_key(context, &bad, &verdict, NULL), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	/* No focused surface: nothing can begin, the key is the client's, press and release. */
	verdict = PREVIEW_INTERACTION_KEY_CONSUMED;
	STATUS(preview_interaction_keyboard_key(context, &key, &verdict, &pressed_at), PREVIEW_INTERACTION_OK);
	CHECK(verdict == PREVIEW_INTERACTION_KEY_DELIVER && pressed_at == 0);
	key.pressed = false;
	STATUS(preview_interaction_keyboard_key(context, &key, &verdict, NULL), PREVIEW_INTERACTION_OK);
	CHECK(verdict == PREVIEW_INTERACTION_KEY_DELIVER);
	/* A focus that is no wl_surface, and a surface without an interaction object. */
	int fds[2];
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) == 0);
	struct wl_client *client = wl_client_create(display, fds[0]);
	struct wl_resource *surface = wl_resource_create(client, &wl_surface_interface, 4, 0);
	struct wl_resource *callback = wl_resource_create(client, &wl_callback_interface, 1, 0);
	key = key_event(127, true, callback);
	STATUS(preview_interaction_keyboard_key(context, &key, &verdict, NULL), PREVIEW_INTERACTION_ERROR_NOT_A_SURFACE);
	CHECK(verdict == PREVIEW_INTERACTION_KEY_DELIVER);
	key = key_event(127, true, surface);
	STATUS(preview_interaction_keyboard_key(context, &key, &verdict, NULL), PREVIEW_INTERACTION_OK);
	CHECK(verdict == PREVIEW_INTERACTION_KEY_DELIVER);
	/* Escape with nothing running is the client's. */
	key = key_event(1, true, surface);
	STATUS(preview_interaction_keyboard_key(context, &key, &verdict, NULL), PREVIEW_INTERACTION_OK);
	CHECK(verdict == PREVIEW_INTERACTION_KEY_DELIVER);
	STATUS(preview_interaction_keyboard_focus_lost(context, 0, 200), PREVIEW_INTERACTION_OK);
	STATUS(preview_interaction_keyboard_focus_lost(context, 3, 200), PREVIEW_INTERACTION_OK);
	wl_resource_destroy(callback);
	wl_resource_destroy(surface);
	wl_client_destroy(client);
	close(fds[1]);
}

static void devices_and_contacts(struct wl_display *display, struct preview_interaction *context) {
	struct preview_interaction_device *pen = NULL, *mouse = NULL;
	STATUS(preview_interaction_device_add(context, PREVIEW_INTERACTION_DEVICE_PEN, "pen", 0, 1, 0, NULL),
		PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_device_add(context, 0, "pen", 0, 1, 0, &pen), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_device_add(context, 77, "pen", 0, 1, 0, &pen), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_device_add(context, PREVIEW_INTERACTION_DEVICE_PEN, "pen", NAN, 1, 0, &pen),
		PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_device_add(context, PREVIEW_INTERACTION_DEVICE_PEN, "pen", 2, 1, 0, &pen),
		PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	CHECK(pen == NULL);
	STATUS(preview_interaction_device_add(context, PREVIEW_INTERACTION_DEVICE_PEN, "pen", 0, 4095, 0, &pen),
		PREVIEW_INTERACTION_OK);
	STATUS(preview_interaction_device_add(context, PREVIEW_INTERACTION_DEVICE_POINTER, NULL, 0, 0, 0, &mouse),
		PREVIEW_INTERACTION_OK);
	CHECK(pen != NULL && mouse != NULL && pen != mouse);
	STATUS(preview_interaction_device_add_libinput(context, NULL, 0, &pen), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	CHECK(pen == NULL);
	STATUS(preview_interaction_device_add(context, PREVIEW_INTERACTION_DEVICE_PEN, "pen", 0, 4095, 0, &pen),
		PREVIEW_INTERACTION_OK);

	/* A client with a wl_surface and a resource that is not one. */
	int fds[2];
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) == 0);
	struct wl_client *client = wl_client_create(display, fds[0]);
	CHECK(client != NULL);
	struct wl_resource *surface = wl_resource_create(client, &wl_surface_interface, 4, 0);
	struct wl_resource *callback = wl_resource_create(client, &wl_callback_interface, 1, 0);
	CHECK(surface != NULL && callback != NULL);

	bool flag = true;
	STATUS(preview_interaction_contact_motion(pen, 3, 1, 1, 10), PREVIEW_INTERACTION_ERROR_UNKNOWN_CONTACT);
	STATUS(preview_interaction_contact_force(pen, 3, 0.5, 10), PREVIEW_INTERACTION_ERROR_UNKNOWN_CONTACT);
	STATUS(preview_interaction_contact_up(pen, 3, 10, &flag), PREVIEW_INTERACTION_ERROR_UNKNOWN_CONTACT);
	CHECK(flag == false);
	STATUS(preview_interaction_contact_cancel(pen, 3, 10), PREVIEW_INTERACTION_ERROR_UNKNOWN_CONTACT);
	STATUS(preview_interaction_contact_is_taken_away(pen, 3, &flag), PREVIEW_INTERACTION_ERROR_UNKNOWN_CONTACT);
	STATUS(preview_interaction_contact_down(pen, 0, callback, 1, 1, 100, 10), PREVIEW_INTERACTION_ERROR_NOT_A_SURFACE);
	STATUS(preview_interaction_contact_down(pen, 0, surface, NAN, 1, 100, 10), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_contact_down(pen, 0, surface, 1, INFINITY, 100, 10),
		PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_contact_down(pen, 0, surface, 1, 1, NAN, 10), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_contact_down(pen, 0, surface, 1, 1, 100, 10), PREVIEW_INTERACTION_OK);
	STATUS(preview_interaction_contact_down(pen, 0, surface, 1, 1, 100, 11), PREVIEW_INTERACTION_ERROR_CONTACT_EXISTS);
	STATUS(preview_interaction_contact_force(pen, 0, NAN, 12), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_contact_force(pen, 0, 1e300, 12), PREVIEW_INTERACTION_OK); /* clamped */
	STATUS(preview_interaction_contact_motion(pen, 0, 2, NAN, 13), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_contact_motion(pen, 0, 2, 2, 13), PREVIEW_INTERACTION_OK);
	STATUS(preview_interaction_contact_update(pen, 0, 2, 2, NAN, 13), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_contact_update(pen, 0, NAN, 2, 9, 13), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_contact_update(pen, 9, 2, 2, 9, 13), PREVIEW_INTERACTION_ERROR_UNKNOWN_CONTACT);
	STATUS(preview_interaction_contact_update(pen, 0, 3, 3, 2000, 14), PREVIEW_INTERACTION_OK);
	STATUS(preview_interaction_contact_is_taken_away(pen, 0, NULL), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_contact_is_taken_away(pen, 0, &flag), PREVIEW_INTERACTION_OK);
	CHECK(flag == false); /* no client interaction object: core input keeps it */
	STATUS(preview_interaction_surface_commit(context, callback), PREVIEW_INTERACTION_ERROR_NOT_A_SURFACE);
	STATUS(preview_interaction_surface_commit(context, surface), PREVIEW_INTERACTION_OK);
	STATUS(preview_interaction_contact_up(pen, 0, 14, NULL), PREVIEW_INTERACTION_OK);
	STATUS(preview_interaction_contact_up(pen, 0, 15, &flag), PREVIEW_INTERACTION_ERROR_UNKNOWN_CONTACT);
	/* Time going backwards, absurd times: accepted (the engine treats them as now). */
	STATUS(preview_interaction_contact_down(mouse, 1, surface, 5, 5, 0, UINT64_MAX), PREVIEW_INTERACTION_OK);
	STATUS(preview_interaction_contact_motion(mouse, 1, 6, 6, 0), PREVIEW_INTERACTION_OK);
	/* The surface goes away while a contact is down on it, then its resource is destroyed. */
	STATUS(preview_interaction_surface_gone(context, NULL, 20), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_surface_gone(context, surface, 20), PREVIEW_INTERACTION_OK);
	wl_resource_destroy(surface);

	/* Removing twice; calls with a removed device. */
	STATUS(preview_interaction_device_remove(mouse, 30), PREVIEW_INTERACTION_OK);
	STATUS(preview_interaction_device_remove(mouse, 31), PREVIEW_INTERACTION_ERROR_UNKNOWN_DEVICE);
	STATUS(preview_interaction_contact_up(mouse, 1, 32, NULL), PREVIEW_INTERACTION_ERROR_UNKNOWN_DEVICE);
	STATUS(preview_interaction_contact_down(mouse, 1, NULL, 5, 5, 0, 33), PREVIEW_INTERACTION_ERROR_UNKNOWN_DEVICE);

	uint32_t count = 9;
	STATUS(preview_interaction_running_count(context, NULL), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_running_count(context, &count), PREVIEW_INTERACTION_OK);
	CHECK(count == 0);
	count = 9;
	STATUS(preview_interaction_awaiting_answer_count(context, NULL), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_awaiting_answer_count(context, &count), PREVIEW_INTERACTION_OK);
	CHECK(count == 0);

	/* Look Up: a path that cannot run leaves it off; one that exits at once is restarted by the
	 * library (with back-off) until turned off or destroyed; its client is the display's. */
	struct wl_client *lookup = (struct wl_client *)0x1;
	STATUS(preview_interaction_lookup_client(context, NULL), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_set_lookup(context, true, "/nonexistent/preview-lookup"),
		PREVIEW_INTERACTION_ERROR_UNSUPPORTED);
	STATUS(preview_interaction_lookup_client(context, &lookup), PREVIEW_INTERACTION_OK);
	CHECK(lookup == NULL);
	STATUS(preview_interaction_set_lookup_long_press(context, true), PREVIEW_INTERACTION_OK);
	/* The deadline's range is 100...5000 ms, set with Look Up off or on. */
	STATUS(preview_interaction_set_lookup_deadline(context, 0), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_set_lookup_deadline(context, 99), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_set_lookup_deadline(context, 5001), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_set_lookup_deadline(context, UINT32_MAX), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_set_lookup_deadline(context, 100), PREVIEW_INTERACTION_OK);
	STATUS(preview_interaction_set_lookup(context, true, "/bin/true"), PREVIEW_INTERACTION_OK);
	STATUS(preview_interaction_set_lookup_deadline(context, 5000), PREVIEW_INTERACTION_OK);
	STATUS(preview_interaction_lookup_client(context, &lookup), PREVIEW_INTERACTION_OK);
	CHECK(lookup != NULL && wl_client_get_display(lookup) == display);
	STATUS(preview_interaction_set_lookup(context, false, NULL), PREVIEW_INTERACTION_OK);
	STATUS(preview_interaction_lookup_client(context, &lookup), PREVIEW_INTERACTION_OK);
	CHECK(lookup == NULL);
	STATUS(preview_interaction_set_lookup(context, true, "/bin/true"), PREVIEW_INTERACTION_OK);

	/* Calls after destroy: the context and its devices are invalid, nothing is touched. */
	STATUS(preview_interaction_destroy(context), PREVIEW_INTERACTION_OK);
	STATUS(preview_interaction_destroy(context), PREVIEW_INTERACTION_ERROR_INVALID_CONTEXT);
	STATUS(preview_interaction_set_sensitivity(context, PREVIEW_INTERACTION_SENSITIVITY_FIRM),
		PREVIEW_INTERACTION_ERROR_INVALID_CONTEXT);
	STATUS(preview_interaction_set_lookup(context, false, NULL), PREVIEW_INTERACTION_ERROR_INVALID_CONTEXT);
	STATUS(preview_interaction_set_lookup_deadline(context, 500), PREVIEW_INTERACTION_ERROR_INVALID_CONTEXT);
	STATUS(preview_interaction_contact_down(pen, 0, NULL, 1, 1, 1, 40), PREVIEW_INTERACTION_ERROR_UNKNOWN_DEVICE);
	STATUS(preview_interaction_device_remove(pen, 41), PREVIEW_INTERACTION_ERROR_UNKNOWN_DEVICE);
	wl_resource_destroy(callback);
	wl_client_destroy(client);
	close(fds[1]);
}

static void logging(struct wl_display *display) {
	struct host host = {0};
	struct preview_interaction *context = create(display, &host);
	/* Misuse of a live context: a warning naming the call and the status. */
	host.logs = 0;
	STATUS(preview_interaction_set_sensitivity(context, 9), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	CHECK(host.logs == 1);
	CHECK(host.last_level == PREVIEW_INTERACTION_LOG_WARNING);
	CHECK(strstr(host.last_message, "preview_interaction_set_sensitivity") != NULL);
	CHECK(strstr(host.last_message, "invalid argument") != NULL);
	/* An unknown contact is routine for a host that passes every release on: debug only. */
	struct preview_interaction_device *pen = NULL;
	STATUS(preview_interaction_device_add(context, PREVIEW_INTERACTION_DEVICE_PEN, "pen", 0, 1, 0, &pen),
		PREVIEW_INTERACTION_OK);
	CHECK(host.last_level == PREVIEW_INTERACTION_LOG_INFO); /* "device added" */
	host.logs = 0;
	STATUS(preview_interaction_contact_up(pen, 5, 1, NULL), PREVIEW_INTERACTION_ERROR_UNKNOWN_CONTACT);
	CHECK(host.logs == 0);
	STATUS(preview_interaction_set_log_level(context, PREVIEW_INTERACTION_LOG_DEBUG), PREVIEW_INTERACTION_OK);
	STATUS(preview_interaction_contact_up(pen, 5, 1, NULL), PREVIEW_INTERACTION_ERROR_UNKNOWN_CONTACT);
	CHECK(host.logs == 1 && host.last_level == PREVIEW_INTERACTION_LOG_DEBUG);
	CHECK(strstr(host.last_message, "preview_interaction_contact_up") != NULL);
	/* Errors only: neither misuse nor a device reaches the callback. */
	STATUS(preview_interaction_set_log_level(context, PREVIEW_INTERACTION_LOG_ERROR), PREVIEW_INTERACTION_OK);
	host.logs = 0;
	STATUS(preview_interaction_set_long_press(context, 9), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_device_remove(pen, 2), PREVIEW_INTERACTION_OK);
	CHECK(host.logs == 0);
	STATUS(preview_interaction_set_log_level(context, 0), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_set_log_level(context, 5), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_set_log_level(NULL, PREVIEW_INTERACTION_LOG_INFO), PREVIEW_INTERACTION_ERROR_INVALID_CONTEXT);

	/* One context per display: a second one is refused (no second global), the first is
	 * untouched, and once it is destroyed the display can have a new one. */
	struct preview_interaction *second = (void *)1;
	STATUS(preview_interaction_create(display, NULL, NULL, &second), PREVIEW_INTERACTION_ERROR_DISPLAY_IN_USE);
	CHECK(second == NULL);
	STATUS(preview_interaction_set_sensitivity(context, PREVIEW_INTERACTION_SENSITIVITY_FIRM), PREVIEW_INTERACTION_OK);
	STATUS(preview_interaction_destroy(context), PREVIEW_INTERACTION_OK);
	STATUS(preview_interaction_create(display, NULL, NULL, &second), PREVIEW_INTERACTION_OK);
	struct wl_display *other = wl_display_create();
	struct preview_interaction *elsewhere = NULL;
	STATUS(preview_interaction_create(other, NULL, NULL, &elsewhere), PREVIEW_INTERACTION_OK);
	STATUS(preview_interaction_destroy(elsewhere), PREVIEW_INTERACTION_OK);
	wl_display_destroy(other);
	STATUS(preview_interaction_destroy(second), PREVIEW_INTERACTION_OK);
}

static void destroy_inside_a_callback(struct wl_display *display) {
	struct host host = {0};
	struct preview_interaction *context = create(display, &host);
	struct preview_interaction_device *device = NULL;
	host.destroy_from_log = 1;
	/* Adding a device logs; the log callback destroys the context: deferred to the end of
	 * the call, which still returns its device (now invalid with its context). */
	STATUS(preview_interaction_device_add(context, PREVIEW_INTERACTION_DEVICE_TOUCHSCREEN, "touch", 0, 255, 0, &device),
		PREVIEW_INTERACTION_OK);
	CHECK(host.destroy_status == PREVIEW_INTERACTION_OK);
	STATUS(preview_interaction_contact_down(device, 0, NULL, 1, 1, 10, 1), PREVIEW_INTERACTION_ERROR_UNKNOWN_DEVICE);
	STATUS(preview_interaction_destroy(context), PREVIEW_INTERACTION_ERROR_INVALID_CONTEXT);
}

static void display_destroyed_first(void) {
	struct wl_display *display = wl_display_create();
	struct host host = {0};
	struct preview_interaction *context = create(display, &host);
	struct preview_interaction_device *device = NULL;
	STATUS(preview_interaction_device_add(context, PREVIEW_INTERACTION_DEVICE_PEN, "pen", 0, 1, 0, &device),
		PREVIEW_INTERACTION_OK);
	STATUS(preview_interaction_contact_down(device, 0, NULL, 1, 1, 0.5, 1), PREVIEW_INTERACTION_OK);
	wl_display_destroy(display);
	STATUS(preview_interaction_contact_up(device, 0, 2, NULL), PREVIEW_INTERACTION_ERROR_UNKNOWN_DEVICE);
	STATUS(preview_interaction_destroy(context), PREVIEW_INTERACTION_ERROR_INVALID_CONTEXT);
}

int main(void) {
	version_and_strings();
	struct wl_display *display = wl_display_create();
	creation(display);
	bad_handles();
	struct host host = {0};
	struct preview_interaction *context = create(display, &host);
	settings(context);
	keyboard_and_settings(display, context);
	devices_and_contacts(display, context);
	logging(display);
	destroy_inside_a_callback(display);
	wl_display_destroy(display);
	display_destroyed_first();
	CHECK_SUMMARY();
}
