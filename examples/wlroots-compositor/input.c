/*
 * Input: every wlroots device is also a device of the library; contacts (a pen's tip, the
 * left button or a touchpad's click, touch points) go to the library with the wl_surface
 * they land on, and to the client's core input unless the library took them away for the
 * commit phase.
 */
#define _POSIX_C_SOURCE 200809L
#include <linux/input-event-codes.h>
#include <stdlib.h>
#include <wlr/backend/libinput.h>
#include <wlr/types/wlr_keyboard.h>
#include <wlr/types/wlr_pointer.h>
#include <wlr/types/wlr_touch.h>
#include <wlr/util/log.h>
#include <xkbcommon/xkbcommon.h>

#include "compositor.h"

struct input *input_of_preview_device(struct preview_interaction_device *device) {
	void *input = NULL;
	preview_interaction_device_get_user_data(device, &input);
	return input;
}

bool any_contact_down(struct server *server) {
	struct input *input;
	wl_list_for_each(input, &server->inputs, link) {
		if (input->tip.down || input->buttons) return true;
		for (int i = 0; i < MAX_TOUCH_POINTS; i++) if (input->touches[i].down) return true;
		/* A held key (the preview key's long press) is a contact too. */
		if (input->device->type == WLR_INPUT_DEVICE_KEYBOARD && input->device->keyboard->num_keycodes > 0) return true;
	}
	return false;
}

/* MARK: contacts */

static void contact_surface_destroyed(struct wl_listener *listener, void *data) {
	(void)data;
	struct contact *contact = wl_container_of(listener, contact, surface_destroy);
	wl_list_remove(&contact->surface_destroy.link);
	wl_list_init(&contact->surface_destroy.link);
	contact->surface = NULL;
}

/* A contact went down at layout (lx, ly): to the library with the surface under it. */
static void contact_down(struct input *input, struct contact *contact, int32_t id, double lx, double ly, double pressure) {
	double sx = 0, sy = 0;
	struct wlr_surface *surface = surface_at(input->server, lx, ly, &sx, &sy);
	contact->down = true;
	contact->id = id;
	contact->surface = surface;
	contact->origin_x = lx - sx;
	contact->origin_y = ly - sy;
	wl_list_init(&contact->surface_destroy.link);
	if (surface) {
		contact->surface_destroy.notify = contact_surface_destroyed;
		wl_signal_add(&surface->events.destroy, &contact->surface_destroy);
	}
	preview_interaction_contact_down(input->preview, id, surface ? surface->resource : NULL, sx, sy, pressure, now_usec());
}

static void contact_motion(struct input *input, struct contact *contact, double lx, double ly, uint64_t time_usec) {
	preview_interaction_contact_motion(input->preview, contact->id, lx - contact->origin_x, ly - contact->origin_y, time_usec);
}

/* Returns true when the release must not reach the client (the contact was taken away). */
static bool contact_up(struct input *input, struct contact *contact) {
	bool swallow = false;
	preview_interaction_contact_up(input->preview, contact->id, now_usec(), &swallow);
	contact->down = false;
	wl_list_remove(&contact->surface_destroy.link);
	wl_list_init(&contact->surface_destroy.link);
	return swallow;
}

static bool taken_away(struct input *input, struct contact *contact) {
	bool taken = false;
	preview_interaction_contact_is_taken_away(input->preview, contact->id, &taken);
	return taken;
}

/* MARK: the pointer (mice, touchpads, and pens over clients without tablet-v2) */

void pointer_focus(struct server *server, uint32_t time) {
	if (server->pointer_taken) return;
	double sx, sy;
	struct wlr_surface *surface = surface_at(server, server->cursor->x, server->cursor->y, &sx, &sy);
	if (!surface) {
		wlr_seat_pointer_notify_clear_focus(server->seat);
		return;
	}
	wlr_seat_pointer_notify_enter(server->seat, surface, sx, sy);
	wlr_seat_pointer_notify_motion(server->seat, time, sx, sy);
}

static void pointer_moved(struct server *server, struct input *input, uint32_t time) {
	/* Not the click (another button): the library answers "unknown contact", quietly. */
	if (input && input->buttons) contact_motion(input, &input->tip, server->cursor->x, server->cursor->y, event_usec(time));
	pointer_focus(server, time);
}

static void cursor_motion(struct wl_listener *listener, void *data) {
	struct server *server = wl_container_of(listener, server, cursor_motion);
	struct wlr_event_pointer_motion *event = data;
	wlr_cursor_move(server->cursor, event->device, event->delta_x, event->delta_y);
	pointer_moved(server, event->device->data, event->time_msec);
}

static void cursor_motion_absolute(struct wl_listener *listener, void *data) {
	struct server *server = wl_container_of(listener, server, cursor_motion_absolute);
	struct wlr_event_pointer_motion_absolute *event = data;
	wlr_cursor_warp_absolute(server->cursor, event->device, event->x, event->y);
	pointer_moved(server, event->device->data, event->time_msec);
}

/* Every button goes to the library, which knows the device's click (a mouse's left button, any
 * of a touchpad's three: libinput names a clickpad's one click by the fingers on it) and makes
 * it contact 0; on a haptic pad it plays the press and release there. A mouse has no pressure
 * (the long press simulates force); a pressure touchpad's is its finger's. */
static void cursor_button(struct wl_listener *listener, void *data) {
	struct server *server = wl_container_of(listener, server, cursor_button);
	struct wlr_event_pointer_button *event = data;
	struct input *input = event->device->data;
	bool swallow = false;
	if (input) {
		bool pressed = event->state == WLR_BUTTON_PRESSED;
		double sx = 0, sy = 0;
		struct wlr_surface *surface = NULL;
		if (pressed) {
			input->buttons++;
			surface = surface_at(server, server->cursor->x, server->cursor->y, &sx, &sy);
			input->tip.origin_x = server->cursor->x - sx;
			input->tip.origin_y = server->cursor->y - sy;
			focus_surface(server, surface);
		} else if (input->buttons > 0) {
			input->buttons--;
		}
		preview_interaction_pointer_button(input->preview, event->button, pressed, surface ? surface->resource : NULL,
			sx, sy, input->pressure, event_usec(event->time_msec), &swallow);
	}
	if (!swallow && !server->pointer_taken) wlr_seat_pointer_notify_button(server->seat, event->time_msec, event->button, event->state);
}

static void cursor_axis(struct wl_listener *listener, void *data) {
	struct server *server = wl_container_of(listener, server, cursor_axis);
	struct wlr_event_pointer_axis *event = data;
	if (server->pointer_taken) return;
	wlr_seat_pointer_notify_axis(server->seat, event->time_msec, event->orientation, event->delta,
		event->delta_discrete, event->source);
}

static void cursor_frame(struct wl_listener *listener, void *data) {
	(void)data;
	struct server *server = wl_container_of(listener, server, cursor_frame);
	wlr_seat_pointer_notify_frame(server->seat);
}

/* A pressure touchpad's finger pressed harder or softer (0...1): the click's force. */
void input_pressure(struct input *input, double pressure) {
	input->pressure = pressure;
	if (input->tip.down || input->buttons) preview_interaction_contact_force(input->preview, input->tip.id, pressure, now_usec());
}

/* MARK: tablets (tablet-v2 for clients that bound it, else an emulated pointer) */

static void tablet_to_layout(struct input *input, double x, double y) {
	wlr_cursor_absolute_to_layout_coords(input->server->cursor, input->device, x, y, &input->x, &input->y);
}

static void tool_ensure(struct input *input, struct wlr_tablet_tool *tool) {
	if (input->tool_v2 || !tool) return;
	input->tool_v2 = wlr_tablet_tool_create(input->server->tablet_manager, input->server->seat, tool);
}

/* The pen hovers or moves: tablet-v2 to the surface under it, or the pointer. */
static void tool_core_motion(struct input *input, uint32_t time) {
	struct server *server = input->server;
	if (input->tool_taken) return;
	double sx, sy;
	struct wlr_surface *surface = input->tip.down && input->tip.surface ? input->tip.surface
		: surface_at(server, input->x, input->y, &sx, &sy);
	if (input->tip.down && input->tip.surface) {
		sx = input->x - input->tip.origin_x;
		sy = input->y - input->tip.origin_y;
	}
	bool tablet = surface && input->tool_v2 && wlr_surface_accepts_tablet_v2(input->tablet_v2, surface);
	if (tablet) {
		if (!input->over_tablet_client || input->tool_v2->focused_surface != surface) {
			wlr_send_tablet_v2_tablet_tool_proximity_in(input->tool_v2, input->tablet_v2, surface);
		}
		wlr_send_tablet_v2_tablet_tool_motion(input->tool_v2, sx, sy);
		input->over_tablet_client = true;
		return;
	}
	if (input->over_tablet_client && input->tool_v2) wlr_send_tablet_v2_tablet_tool_proximity_out(input->tool_v2);
	input->over_tablet_client = false;
	wlr_cursor_warp_absolute(server->cursor, NULL, input->x / server->width, input->y / server->height);
	pointer_focus(server, time);
}

static void tablet_axis(struct wl_listener *listener, void *data) {
	struct input *input = wl_container_of(listener, input, a);
	struct wlr_event_tablet_tool_axis *event = data;
	tool_ensure(input, event->tool);
	double x = input->x / input->server->width, y = input->y / input->server->height;
	if (event->updated_axes & WLR_TABLET_TOOL_AXIS_X) x = event->x;
	if (event->updated_axes & WLR_TABLET_TOOL_AXIS_Y) y = event->y;
	tablet_to_layout(input, x, y);
	if (event->updated_axes & WLR_TABLET_TOOL_AXIS_PRESSURE) {
		input->pressure = event->pressure;
		if (input->over_tablet_client && !input->tool_taken) wlr_send_tablet_v2_tablet_tool_pressure(input->tool_v2, event->pressure);
	}
	/* One axis event is one sample: position and pressure together. */
	if (input->tip.down) {
		preview_interaction_contact_update(input->preview, 0, input->x - input->tip.origin_x,
			input->y - input->tip.origin_y, input->pressure, now_usec());
	}
	tool_core_motion(input, event->time_msec);
}

static void tablet_proximity(struct wl_listener *listener, void *data) {
	struct input *input = wl_container_of(listener, input, b);
	struct wlr_event_tablet_tool_proximity *event = data;
	tool_ensure(input, event->tool);
	tablet_to_layout(input, event->x, event->y);
	input->in_proximity = event->state == WLR_TABLET_TOOL_PROXIMITY_IN;
	if (input->in_proximity) {
		tool_core_motion(input, event->time_msec);
	} else if (input->over_tablet_client && input->tool_v2) {
		wlr_send_tablet_v2_tablet_tool_proximity_out(input->tool_v2);
		input->over_tablet_client = false;
	}
}

static void tablet_tip(struct wl_listener *listener, void *data) {
	struct input *input = wl_container_of(listener, input, c);
	struct server *server = input->server;
	struct wlr_event_tablet_tool_tip *event = data;
	tool_ensure(input, event->tool);
	tablet_to_layout(input, event->x, event->y);
	if (event->state == WLR_TABLET_TOOL_TIP_DOWN) {
		if (input->tip.down) return;
		contact_down(input, &input->tip, 0, input->x, input->y, input->pressure);
		focus_surface(server, input->tip.surface);
		tool_core_motion(input, event->time_msec);
		if (input->over_tablet_client) wlr_send_tablet_v2_tablet_tool_down(input->tool_v2);
		else wlr_seat_pointer_notify_button(server->seat, event->time_msec, BTN_LEFT, WLR_BUTTON_PRESSED);
		return;
	}
	if (!input->tip.down) return;
	bool swallow = contact_up(input, &input->tip);
	if (swallow) return; /* taken away: the client saw the tool leave, not the lift */
	if (input->over_tablet_client) wlr_send_tablet_v2_tablet_tool_up(input->tool_v2);
	else wlr_seat_pointer_notify_button(server->seat, event->time_msec, BTN_LEFT, WLR_BUTTON_RELEASED);
}

static void tablet_button(struct wl_listener *listener, void *data) {
	struct input *input = wl_container_of(listener, input, d);
	struct wlr_event_tablet_tool_button *event = data;
	if (input->over_tablet_client && !input->tool_taken) {
		wlr_send_tablet_v2_tablet_tool_button(input->tool_v2, event->button, (enum zwp_tablet_pad_v2_button_state)event->state);
	}
}

/* MARK: touch */

static struct contact *touch_slot(struct input *input, int32_t id, bool create) {
	for (int i = 0; i < MAX_TOUCH_POINTS; i++) if (input->touches[i].down && input->touches[i].id == id) return &input->touches[i];
	if (!create) return NULL;
	for (int i = 0; i < MAX_TOUCH_POINTS; i++) if (!input->touches[i].down) return &input->touches[i];
	return NULL;
}

static void touch_down(struct wl_listener *listener, void *data) {
	struct input *input = wl_container_of(listener, input, a);
	struct wlr_event_touch_down *event = data;
	struct contact *contact = touch_slot(input, event->touch_id, true);
	if (!contact) return;
	double lx, ly;
	wlr_cursor_absolute_to_layout_coords(input->server->cursor, input->device, event->x, event->y, &lx, &ly);
	contact_down(input, contact, event->touch_id, lx, ly, 0);
	if (contact->surface) {
		focus_surface(input->server, contact->surface);
		wlr_seat_touch_notify_down(input->server->seat, contact->surface, event->time_msec, event->touch_id,
			lx - contact->origin_x, ly - contact->origin_y);
	}
}

static void touch_motion(struct wl_listener *listener, void *data) {
	struct input *input = wl_container_of(listener, input, b);
	struct wlr_event_touch_motion *event = data;
	struct contact *contact = touch_slot(input, event->touch_id, false);
	if (!contact) return;
	double lx, ly;
	wlr_cursor_absolute_to_layout_coords(input->server->cursor, input->device, event->x, event->y, &lx, &ly);
	contact_motion(input, contact, lx, ly, now_usec());
	if (!taken_away(input, contact) && contact->surface) {
		wlr_seat_touch_notify_motion(input->server->seat, event->time_msec, event->touch_id, lx - contact->origin_x,
			ly - contact->origin_y);
	}
}

static void touch_up(struct wl_listener *listener, void *data) {
	struct input *input = wl_container_of(listener, input, c);
	struct wlr_event_touch_up *event = data;
	struct contact *contact = touch_slot(input, event->touch_id, false);
	if (!contact) return;
	/* A swallowed touch point was cancelled when it was taken away. */
	if (!contact_up(input, contact)) wlr_seat_touch_notify_up(input->server->seat, event->time_msec, event->touch_id);
}

static void touch_frame(struct wl_listener *listener, void *data) {
	(void)data;
	struct input *input = wl_container_of(listener, input, d);
	wlr_seat_touch_notify_frame(input->server->seat);
}

/* MARK: keyboards */

/* wlroots' modifier bits as the library's. */
static uint32_t preview_modifiers(struct wlr_keyboard *keyboard) {
	uint32_t held = wlr_keyboard_get_modifiers(keyboard), modifiers = 0;
	if (held & WLR_MODIFIER_SHIFT) modifiers |= PREVIEW_INTERACTION_MODIFIER_SHIFT;
	if (held & WLR_MODIFIER_CTRL) modifiers |= PREVIEW_INTERACTION_MODIFIER_CONTROL;
	if (held & WLR_MODIFIER_ALT) modifiers |= PREVIEW_INTERACTION_MODIFIER_ALT;
	if (held & WLR_MODIFIER_LOGO) modifiers |= PREVIEW_INTERACTION_MODIFIER_LOGO;
	return modifiers;
}

/* Every key goes to the library first (the preview keys, Escape), then as its verdict says. */
static void keyboard_key(struct wl_listener *listener, void *data) {
	struct input *input = wl_container_of(listener, input, a);
	struct wlr_event_keyboard_key *event = data;
	struct server *server = input->server;
	struct wlr_keyboard *keyboard = input->device->keyboard;
	wlr_seat_set_keyboard(server->seat, input->device);
	struct wlr_surface *focus = server->seat->keyboard_state.focused_surface;
	struct preview_interaction_key key = {
		.size = sizeof(key),
		.keycode = event->keycode,
		.keysym = keyboard->xkb_state ? xkb_state_key_get_one_sym(keyboard->xkb_state, event->keycode + 8) : 0,
		.modifiers = preview_modifiers(keyboard),
		.pressed = event->state == WL_KEYBOARD_KEY_STATE_PRESSED,
		.time_usec = now_usec(),
		.focus = focus ? focus->resource : NULL,
		.focus_width = focus ? focus->current.width : 0,
		.focus_height = focus ? focus->current.height : 0,
		.device = input->preview, /* its phase events name it */
	};
	enum preview_interaction_key_verdict verdict = PREVIEW_INTERACTION_KEY_DELIVER;
	uint64_t pressed_at = 0;
	preview_interaction_keyboard_key(server->preview, &key, &verdict, &pressed_at);
	switch (verdict) {
	case PREVIEW_INTERACTION_KEY_CONSUMED:
		break;
	case PREVIEW_INTERACTION_KEY_DELIVER_TAP: {
		/* The press was withheld and began nothing: press (at its time) and release now. */
		uint32_t held_ms = (uint32_t)((key.time_usec - pressed_at) / 1000);
		wlr_seat_keyboard_notify_key(server->seat, event->time_msec - held_ms, event->keycode,
			WL_KEYBOARD_KEY_STATE_PRESSED);
		wlr_seat_keyboard_notify_key(server->seat, event->time_msec, event->keycode, event->state);
		break;
	}
	case PREVIEW_INTERACTION_KEY_DELIVER:
	default:
		wlr_seat_keyboard_notify_key(server->seat, event->time_msec, event->keycode, event->state);
		break;
	}
}

static void keyboard_modifiers(struct wl_listener *listener, void *data) {
	(void)data;
	struct input *input = wl_container_of(listener, input, b);
	wlr_seat_set_keyboard(input->server->seat, input->device);
	wlr_seat_keyboard_notify_modifiers(input->server->seat, &input->device->keyboard->modifiers);
}

/* MARK: the library's take-away callbacks */

void take_away(void *data, struct preview_interaction_device *device, int32_t id, struct wl_resource *surface) {
	struct server *server = data;
	struct input *input = input_of_preview_device(device);
	if (!input) return;
	switch (input->device->type) {
	case WLR_INPUT_DEVICE_TABLET_TOOL:
		if (input->over_tablet_client) {
			/* Like a drag-and-drop grab: the tool goes up and leaves. */
			if (input->tip.down) wlr_send_tablet_v2_tablet_tool_up(input->tool_v2);
			wlr_send_tablet_v2_tablet_tool_proximity_out(input->tool_v2);
			input->over_tablet_client = false;
			input->tool_taken = true;
			return;
		}
		input->tool_taken = true;
		break; /* an emulated pointer: as a mouse */
	case WLR_INPUT_DEVICE_TOUCH:
		if (surface) wlr_seat_touch_notify_cancel(server->seat, wlr_surface_from_resource(surface));
		return;
	default:
		break;
	}
	(void)id;
	server->pointer_taken = true;
	wlr_seat_pointer_notify_clear_focus(server->seat);
}

void give_back(void *data, struct preview_interaction_device *device, int32_t id, struct wl_resource *surface) {
	(void)id;
	(void)surface;
	struct server *server = data;
	struct input *input = input_of_preview_device(device);
	if (!input) return;
	if (input->device->type == WLR_INPUT_DEVICE_TABLET_TOOL) {
		input->tool_taken = false;
		/* The tool enters the surface under it again (proximity_in, no down). */
		if (input->in_proximity && !input->tip.down) tool_core_motion(input, now_msec());
		if (input->over_tablet_client) return;
	}
	if (input->device->type == WLR_INPUT_DEVICE_TOUCH) return;
	server->pointer_taken = false;
	pointer_focus(server, now_msec());
}

/* MARK: devices */

static void input_destroy(struct wl_listener *listener, void *data) {
	(void)data;
	struct input *input = wl_container_of(listener, input, destroy);
	preview_interaction_device_remove(input->preview, now_usec());
	wl_list_remove(&input->destroy.link);
	struct wl_listener *listeners[] = {&input->a, &input->b, &input->c, &input->d, &input->e};
	for (int i = 0; i < 5; i++) if (listeners[i]->notify) wl_list_remove(&listeners[i]->link);
	if (input->tip.down) wl_list_remove(&input->tip.surface_destroy.link);
	for (int i = 0; i < MAX_TOUCH_POINTS; i++) if (input->touches[i].down) wl_list_remove(&input->touches[i].surface_destroy.link);
	wl_list_remove(&input->link);
	input->device->data = NULL;
	free(input);
}

static void listen(struct wl_listener *listener, struct wl_signal *signal, wl_notify_func_t notify) {
	listener->notify = notify;
	wl_signal_add(signal, listener);
}

static void update_capabilities(struct server *server) {
	uint32_t caps = WL_SEAT_CAPABILITY_POINTER;
	struct input *input;
	wl_list_for_each(input, &server->inputs, link) {
		if (input->device->type == WLR_INPUT_DEVICE_KEYBOARD) caps |= WL_SEAT_CAPABILITY_KEYBOARD;
		if (input->device->type == WLR_INPUT_DEVICE_TOUCH) caps |= WL_SEAT_CAPABILITY_TOUCH;
	}
	wlr_seat_set_capabilities(server->seat, caps);
}

static void new_input(struct wl_listener *listener, void *data) {
	struct server *server = wl_container_of(listener, server, new_input);
	struct wlr_input_device *device = data;
	struct input *input = calloc(1, sizeof(*input));
	if (!input) return;
	input->server = server;
	input->device = device;
	device->data = input;
	int status = PREVIEW_INTERACTION_OK;
	/* A real libinput device: the library reads what libinput does not say (touch pressure);
	 * it takes every kind (a switch or a tablet pad is a quiet UNSUPPORTED). */
	if (wlr_input_device_is_libinput(device)) {
		status = preview_interaction_device_add_libinput(server->preview, wlr_libinput_get_device_handle(device), 0,
			&input->preview);
	} else {
		switch (device->type) {
		case WLR_INPUT_DEVICE_TABLET_TOOL:
			status = preview_interaction_device_add(server->preview, PREVIEW_INTERACTION_DEVICE_PEN, device->name, 0, 1, 0, &input->preview);
			break;
		case WLR_INPUT_DEVICE_TOUCH:
			status = preview_interaction_device_add(server->preview, PREVIEW_INTERACTION_DEVICE_TOUCHSCREEN, device->name, 0, 0, 0, &input->preview);
			break;
		case WLR_INPUT_DEVICE_KEYBOARD:
			status = preview_interaction_device_add(server->preview, PREVIEW_INTERACTION_DEVICE_KEYBOARD, device->name, 0, 0, 0, &input->preview);
			break;
		case WLR_INPUT_DEVICE_POINTER: {
			/* A replayed touchpad is one, with its force where it has one (as the library
			 * reads a real touchpad's from its evdev node). */
			bool force = false;
			if (replay_is_touchpad(server->replay, device, &force)) {
				status = preview_interaction_device_add(server->preview, PREVIEW_INTERACTION_DEVICE_TOUCHPAD,
					device->name, 0, force ? 1 : 0, 0, &input->preview);
				break;
			}
			status = preview_interaction_device_add(server->preview, PREVIEW_INTERACTION_DEVICE_POINTER, device->name, 0, 0, 0, &input->preview);
			break;
		}
		default:
			break;
		}
	}
	if (status == PREVIEW_INTERACTION_OK) preview_interaction_device_set_user_data(input->preview, input);
	else if (status != PREVIEW_INTERACTION_ERROR_UNSUPPORTED)
		wlr_log(WLR_ERROR, "%s: not given to the preview interaction: %s", device->name, preview_interaction_status_string(status));
	switch (device->type) {
	case WLR_INPUT_DEVICE_KEYBOARD: {
		struct xkb_context *context = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
		struct xkb_keymap *keymap = xkb_keymap_new_from_names(context, NULL, XKB_KEYMAP_COMPILE_NO_FLAGS);
		wlr_keyboard_set_keymap(device->keyboard, keymap);
		xkb_keymap_unref(keymap);
		xkb_context_unref(context);
		listen(&input->a, &device->keyboard->events.key, keyboard_key);
		listen(&input->b, &device->keyboard->events.modifiers, keyboard_modifiers);
		wlr_seat_set_keyboard(server->seat, device);
		break;
	}
	case WLR_INPUT_DEVICE_POINTER:
		wlr_cursor_attach_input_device(server->cursor, device);
		break;
	case WLR_INPUT_DEVICE_TOUCH:
		listen(&input->a, &device->touch->events.down, touch_down);
		listen(&input->b, &device->touch->events.motion, touch_motion);
		listen(&input->c, &device->touch->events.up, touch_up);
		listen(&input->d, &device->touch->events.frame, touch_frame);
		break;
	case WLR_INPUT_DEVICE_TABLET_TOOL:
		input->tablet_v2 = wlr_tablet_create(server->tablet_manager, server->seat, device);
		listen(&input->a, &device->tablet->events.axis, tablet_axis);
		listen(&input->b, &device->tablet->events.proximity, tablet_proximity);
		listen(&input->c, &device->tablet->events.tip, tablet_tip);
		listen(&input->d, &device->tablet->events.button, tablet_button);
		break;
	default:
		break;
	}
	listen(&input->destroy, &device->events.destroy, input_destroy);
	wl_list_insert(&server->inputs, &input->link);
	update_capabilities(server);
}

void input_init(struct server *server) {
	wl_list_init(&server->inputs);
	server->new_input.notify = new_input;
	wl_signal_add(&server->backend->events.new_input, &server->new_input);
	server->cursor_motion.notify = cursor_motion;
	wl_signal_add(&server->cursor->events.motion, &server->cursor_motion);
	server->cursor_motion_absolute.notify = cursor_motion_absolute;
	wl_signal_add(&server->cursor->events.motion_absolute, &server->cursor_motion_absolute);
	server->cursor_button.notify = cursor_button;
	wl_signal_add(&server->cursor->events.button, &server->cursor_button);
	server->cursor_axis.notify = cursor_axis;
	wl_signal_add(&server->cursor->events.axis, &server->cursor_axis);
	server->cursor_frame.notify = cursor_frame;
	wl_signal_add(&server->cursor->events.frame, &server->cursor_frame);
}
