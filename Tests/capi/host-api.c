/*
 * The calls 1.3 added for real compositors, built with AddressSanitizer: the host's data on
 * a device, seats by name, the click buttons, keyboard devices, the take-away mode and the
 * time unit; their arguments checked, and a host built against 1.2 (a shorter key struct)
 * unchanged. Prints "N passed, N failed".
 */
#define WL_HIDE_DEPRECATED 1
#include <linux/input-event-codes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include "preview-interaction.h"

#define CHECK_STATUS_STRING preview_interaction_status_string
#include "check.h"

struct host {
	int warnings;
	char last_warning[256];
};

static void on_log(void *data, enum preview_interaction_log_level level, const char *message) {
	struct host *host = data;
	if (level < PREVIEW_INTERACTION_LOG_WARNING) return;
	host->warnings++;
	snprintf(host->last_warning, sizeof(host->last_warning), "%s", message);
}

static struct preview_interaction_device *add(struct preview_interaction *context,
		enum preview_interaction_device_kind kind, double pressure_max) {
	struct preview_interaction_device *device = NULL;
	STATUS(preview_interaction_device_add(context, kind, "device", 0, pressure_max, 0, &device), PREVIEW_INTERACTION_OK);
	CHECK(device != NULL);
	return device;
}

static void user_data(struct preview_interaction *context) {
	struct preview_interaction_device *pen = add(context, PREVIEW_INTERACTION_DEVICE_PEN, 1);
	int mine = 7;
	void *data = &mine;
	STATUS(preview_interaction_device_get_user_data(pen, &data), PREVIEW_INTERACTION_OK);
	CHECK(data == NULL); /* NULL until set */
	STATUS(preview_interaction_device_get_user_data(pen, NULL), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_device_set_user_data(pen, &mine), PREVIEW_INTERACTION_OK);
	STATUS(preview_interaction_device_get_user_data(pen, &data), PREVIEW_INTERACTION_OK);
	CHECK(data == &mine);
	STATUS(preview_interaction_device_set_user_data(NULL, &mine), PREVIEW_INTERACTION_ERROR_UNKNOWN_DEVICE);
	STATUS(preview_interaction_device_remove(pen, 0), PREVIEW_INTERACTION_OK);
	data = &mine;
	STATUS(preview_interaction_device_get_user_data(pen, &data), PREVIEW_INTERACTION_ERROR_UNKNOWN_DEVICE);
	CHECK(data == NULL);
	STATUS(preview_interaction_device_set_user_data(pen, &mine), PREVIEW_INTERACTION_ERROR_UNKNOWN_DEVICE);
}

static void seats(struct preview_interaction *context) {
	uint32_t seat = 99;
	STATUS(preview_interaction_seat(context, "seat0", &seat), PREVIEW_INTERACTION_OK);
	CHECK(seat == 0);
	STATUS(preview_interaction_seat(context, "tablet-seat", &seat), PREVIEW_INTERACTION_OK);
	CHECK(seat == 1);
	STATUS(preview_interaction_seat(context, "seat0", &seat), PREVIEW_INTERACTION_OK);
	CHECK(seat == 0);
	STATUS(preview_interaction_seat(context, NULL, &seat), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_seat(context, "", &seat), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_seat(context, "seat0", NULL), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_seat(NULL, "seat0", &seat), PREVIEW_INTERACTION_ERROR_INVALID_CONTEXT);
	char long_name[300];
	memset(long_name, 'x', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	STATUS(preview_interaction_seat(context, long_name, &seat), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	long_name[255] = '\0';
	STATUS(preview_interaction_seat(context, long_name, &seat), PREVIEW_INTERACTION_OK);
	CHECK(seat == 2);
	/* At most 64 names: the 65th is refused, known names still answer. */
	for (int i = 3; i < 64; i++) {
		char name[32];
		snprintf(name, sizeof(name), "seat-%d", i);
		STATUS(preview_interaction_seat(context, name, &seat), PREVIEW_INTERACTION_OK);
		CHECK(seat == (uint32_t)i);
	}
	STATUS(preview_interaction_seat(context, "one-too-many", &seat), PREVIEW_INTERACTION_ERROR_LIMIT);
	STATUS(preview_interaction_seat(context, "tablet-seat", &seat), PREVIEW_INTERACTION_OK);
	CHECK(seat == 1);
}

/* Whether contact 0 of `device` is down: a second down says so. */
static bool click_down(struct preview_interaction_device *device) {
	bool taken = true;
	return preview_interaction_contact_is_taken_away(device, 0, &taken) == PREVIEW_INTERACTION_OK;
}

static void click_buttons(struct preview_interaction *context, struct wl_resource *surface) {
	struct preview_interaction_device *mouse = add(context, PREVIEW_INTERACTION_DEVICE_POINTER, 0);
	struct preview_interaction_device *pad = add(context, PREVIEW_INTERACTION_DEVICE_TOUCHPAD, 1);
	struct preview_interaction_device *pen = add(context, PREVIEW_INTERACTION_DEVICE_PEN, 1);
	bool swallow = true;
	/* A mouse's right button is no click; its left is contact 0. */
	STATUS(preview_interaction_pointer_button(mouse, BTN_RIGHT, true, surface, 5, 5, 0, 10, &swallow), PREVIEW_INTERACTION_OK);
	CHECK(!click_down(mouse) && !swallow);
	STATUS(preview_interaction_pointer_button(mouse, BTN_LEFT, true, surface, NAN, 5, 0, 11, NULL),
		PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	CHECK(!click_down(mouse)); /* a refused press leaves the click up */
	STATUS(preview_interaction_pointer_button(mouse, BTN_LEFT, true, surface, 5, 5, 0, 12, NULL), PREVIEW_INTERACTION_OK);
	CHECK(click_down(mouse));
	STATUS(preview_interaction_contact_down(mouse, 0, surface, 5, 5, 0, 13), PREVIEW_INTERACTION_ERROR_CONTACT_EXISTS);
	STATUS(preview_interaction_pointer_button(mouse, BTN_LEFT, true, surface, 5, 5, 0, 13, NULL), PREVIEW_INTERACTION_OK);
	STATUS(preview_interaction_pointer_button(mouse, BTN_RIGHT, false, NULL, 0, 0, 0, 14, NULL), PREVIEW_INTERACTION_OK);
	CHECK(click_down(mouse));
	swallow = true;
	STATUS(preview_interaction_pointer_button(mouse, BTN_LEFT, false, NULL, 0, 0, 0, 15, &swallow), PREVIEW_INTERACTION_OK);
	CHECK(!click_down(mouse) && !swallow); /* no interaction object: nothing was taken */
	/* A touchpad's click is any of its three buttons, from the first down to the last up. */
	STATUS(preview_interaction_pointer_button(pad, BTN_RIGHT, true, surface, 5, 5, 0.2, 20, NULL), PREVIEW_INTERACTION_OK);
	CHECK(click_down(pad));
	STATUS(preview_interaction_pointer_button(pad, BTN_MIDDLE, true, surface, 5, 5, 0.2, 21, NULL), PREVIEW_INTERACTION_OK);
	STATUS(preview_interaction_pointer_button(pad, BTN_RIGHT, false, surface, 5, 5, 0.2, 22, NULL), PREVIEW_INTERACTION_OK);
	CHECK(click_down(pad));
	STATUS(preview_interaction_pointer_button(pad, BTN_SIDE, false, surface, 5, 5, 0.2, 23, NULL), PREVIEW_INTERACTION_OK);
	CHECK(click_down(pad));
	STATUS(preview_interaction_pointer_button(pad, BTN_MIDDLE, false, surface, 5, 5, 0.2, 24, NULL), PREVIEW_INTERACTION_OK);
	CHECK(!click_down(pad));
	/* A pen's contacts are its own: no button is a click. */
	STATUS(preview_interaction_pointer_button(pen, BTN_LEFT, true, surface, 5, 5, 0.5, 30, NULL), PREVIEW_INTERACTION_OK);
	CHECK(!click_down(pen));
	STATUS(preview_interaction_pointer_button(NULL, BTN_LEFT, true, surface, 5, 5, 0.5, 30, NULL),
		PREVIEW_INTERACTION_ERROR_UNKNOWN_DEVICE);
	STATUS(preview_interaction_device_remove(mouse, 0), PREVIEW_INTERACTION_OK);
	STATUS(preview_interaction_device_remove(pad, 0), PREVIEW_INTERACTION_OK);
	STATUS(preview_interaction_device_remove(pen, 0), PREVIEW_INTERACTION_OK);
}

static struct preview_interaction_key key_event(uint32_t keycode, bool pressed, struct wl_resource *focus,
		struct preview_interaction_device *device) {
	struct preview_interaction_key key = {.size = sizeof(key), .keycode = keycode, .pressed = pressed,
		.time_usec = 100, .focus = focus, .focus_width = 100, .focus_height = 100, .device = device};
	return key;
}

static void keyboard_devices(struct preview_interaction *context, struct wl_resource *surface) {
	struct preview_interaction_device *keyboard = add(context, PREVIEW_INTERACTION_DEVICE_KEYBOARD, 0);
	struct preview_interaction_device *pen = add(context, PREVIEW_INTERACTION_DEVICE_PEN, 1);
	STATUS(preview_interaction_contact_down(keyboard, 0, surface, 1, 1, 0, 10), PREVIEW_INTERACTION_ERROR_UNSUPPORTED);
	STATUS(preview_interaction_pointer_button(keyboard, BTN_LEFT, true, surface, 1, 1, 0, 10, NULL),
		PREVIEW_INTERACTION_ERROR_UNSUPPORTED);
	enum preview_interaction_key_verdict verdict = PREVIEW_INTERACTION_KEY_CONSUMED;
	struct preview_interaction_key key = key_event(KEY_A, true, surface, keyboard);
	STATUS(preview_interaction_keyboard_key(context, &key, &verdict, NULL), PREVIEW_INTERACTION_OK);
	CHECK(verdict == PREVIEW_INTERACTION_KEY_DELIVER);
	key.pressed = false;
	STATUS(preview_interaction_keyboard_key(context, &key, &verdict, NULL), PREVIEW_INTERACTION_OK);
	/* A key names a keyboard device of this context, or none. */
	key = key_event(KEY_A, true, surface, pen);
	STATUS(preview_interaction_keyboard_key(context, &key, &verdict, NULL), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	CHECK(verdict == PREVIEW_INTERACTION_KEY_DELIVER);
	key = key_event(KEY_A, true, surface, (void *)0x4321);
	STATUS(preview_interaction_keyboard_key(context, &key, &verdict, NULL), PREVIEW_INTERACTION_ERROR_UNKNOWN_DEVICE);
	/* A host built against 1.2: its key struct ends before `device`, and what follows is not its. */
	key = key_event(KEY_A, true, surface, (void *)0x4321);
	key.size = offsetof(struct preview_interaction_key, device);
	STATUS(preview_interaction_keyboard_key(context, &key, &verdict, NULL), PREVIEW_INTERACTION_OK);
	key.pressed = false;
	STATUS(preview_interaction_keyboard_key(context, &key, &verdict, NULL), PREVIEW_INTERACTION_OK);
	CHECK(verdict == PREVIEW_INTERACTION_KEY_DELIVER);
	STATUS(preview_interaction_device_remove(keyboard, 0), PREVIEW_INTERACTION_OK);
	key = key_event(KEY_A, true, surface, keyboard);
	STATUS(preview_interaction_keyboard_key(context, &key, &verdict, NULL), PREVIEW_INTERACTION_ERROR_UNKNOWN_DEVICE);
	STATUS(preview_interaction_device_remove(pen, 0), PREVIEW_INTERACTION_OK);
	/* Kinds past the keyboard are still refused. */
	struct preview_interaction_device *device = NULL;
	STATUS(preview_interaction_device_add(context, 6, "six", 0, 0, 0, &device), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	CHECK(device == NULL);
}

static void modes(struct preview_interaction *context, struct wl_resource *surface) {
	STATUS(preview_interaction_set_take_away_mode(context, 0), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_set_take_away_mode(context, 3), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_set_take_away_mode(NULL, PREVIEW_INTERACTION_TAKE_AWAY_UNTIL_RELEASE),
		PREVIEW_INTERACTION_ERROR_INVALID_CONTEXT);
	STATUS(preview_interaction_set_take_away_mode(context, PREVIEW_INTERACTION_TAKE_AWAY_UNTIL_RELEASE), PREVIEW_INTERACTION_OK);
	STATUS(preview_interaction_set_take_away_mode(context, PREVIEW_INTERACTION_TAKE_AWAY_UNTIL_END), PREVIEW_INTERACTION_OK);
	STATUS(preview_interaction_set_time_unit(context, 0), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_set_time_unit(context, 3), PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT);
	STATUS(preview_interaction_set_time_unit(NULL, PREVIEW_INTERACTION_TIME_MSEC), PREVIEW_INTERACTION_ERROR_INVALID_CONTEXT);
	/* Milliseconds: any 64-bit value is taken (its low 32 bits), 0 is now. */
	STATUS(preview_interaction_set_time_unit(context, PREVIEW_INTERACTION_TIME_MSEC), PREVIEW_INTERACTION_OK);
	struct preview_interaction_device *pen = add(context, PREVIEW_INTERACTION_DEVICE_PEN, 1);
	STATUS(preview_interaction_contact_down(pen, 0, surface, 1, 1, 0.5, UINT64_MAX), PREVIEW_INTERACTION_OK);
	STATUS(preview_interaction_contact_update(pen, 0, 1, 1, 0.6, 0), PREVIEW_INTERACTION_OK);
	STATUS(preview_interaction_contact_up(pen, 0, UINT32_MAX, NULL), PREVIEW_INTERACTION_OK);
	STATUS(preview_interaction_device_remove(pen, 0), PREVIEW_INTERACTION_OK);
	STATUS(preview_interaction_set_time_unit(context, PREVIEW_INTERACTION_TIME_USEC), PREVIEW_INTERACTION_OK);
	/* The commit call stays valid (a repeat of what the library saw itself). */
	STATUS(preview_interaction_surface_commit(context, surface), PREVIEW_INTERACTION_OK);
}

int main(void) {
	struct wl_display *display = wl_display_create();
	struct host host = {0};
	struct preview_interaction_callbacks callbacks = {.size = sizeof(callbacks), .log = on_log};
	struct preview_interaction *context = NULL;
	STATUS(preview_interaction_create(display, &callbacks, &host, &context), PREVIEW_INTERACTION_OK);
	int fds[2];
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) == 0);
	struct wl_client *client = wl_client_create(display, fds[0]);
	struct wl_resource *surface = wl_resource_create(client, &wl_surface_interface, 4, 0);
	CHECK(client != NULL && surface != NULL);

	user_data(context);
	seats(context);
	click_buttons(context, surface);
	keyboard_devices(context, surface);
	modes(context, surface);

	wl_resource_destroy(surface);
	wl_client_destroy(client);
	close(fds[1]);
	STATUS(preview_interaction_destroy(context), PREVIEW_INTERACTION_OK);
	wl_display_destroy(display);
	CHECK_SUMMARY();
}
