/*
 * --replay FILE...: `preview-replay --events` decodes the recordings; each recorded device
 * becomes a virtual device of wlroots' headless backend, and its events are emitted on that
 * device's signals when it is due, so they travel wlroots' input path like a real device's (the
 * compositor cannot tell them apart). Starts when the first window maps. When each event is due
 * is the library's to say (preview_interaction_replay_next): it paces every host's replay as
 * preview-compositor's --replay, the same waits for clients (--fast by default, or
 * --await-clients), the same pauses while a question is open, the same gap between files.
 */
#define _POSIX_C_SOURCE 200809L
#include <linux/input-event-codes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wlr/backend/headless.h>
#include <wlr/interfaces/wlr_keyboard.h>
#include <wlr/types/wlr_keyboard.h>
#include <wlr/types/wlr_pointer.h>
#include <wlr/types/wlr_touch.h>
#include <wlr/util/log.h>

#include "compositor.h"

#define MAX_DEVICES 64

enum kind { RE_DOWN, RE_MOVE, RE_UP, RE_PROX_IN, RE_PROX_OUT, RE_TOOL, RE_MOTION, RE_SCROLL, RE_BUTTON, RE_KEY, RE_FRAME };

struct event {
	enum kind kind;
	int64_t time;
	uint32_t device;
	int32_t contact, code, pressed;
	bool file_start; /* the first event of a file after the first */
	char source[16];
	double x, y, force;
};

struct replay_device {
	bool used;
	bool force; /* the decoder measures its force (pens, pressure touchpads, touchscreens) */
	char kind[16];
	char name[128];
	struct wlr_input_device *device;
	struct wlr_tablet_tool tool;
	bool tip_down;
};

struct replay {
	struct server *server;
	struct event *events;
	size_t count, capacity, next;
	bool file_started; /* a device line after events: the next event starts a file */
	struct replay_device devices[MAX_DEVICES];
	struct wl_event_source *timer;
	bool started;
};

static bool parse(struct replay *replay, char *line) {
	char word[24];
	int used = 0;
	if (sscanf(line, "%23s %n", word, &used) != 1) return true;
	char *rest = line + used;
	if (strcmp(word, "device") == 0) {
		unsigned id;
		int force, name_at = 0;
		char kind[16];
		if (sscanf(rest, "%u %15s %d %n", &id, kind, &force, &name_at) < 3 || id >= MAX_DEVICES) return false;
		struct replay_device *device = &replay->devices[id];
		device->used = true;
		device->force = force != 0;
		snprintf(device->kind, sizeof(device->kind), "%s", kind);
		snprintf(device->name, sizeof(device->name), "%s", rest + name_at);
		device->name[strcspn(device->name, "\n")] = 0;
		replay->file_started = replay->count > 0;
		return true;
	}
	struct event event = {0};
	long long time;
	int n = 0;
	static const char *names[] = {"down", "move", "up", "proximity-in", "proximity-out", "tool", "motion", "scroll",
		"button", "key", "frame"};
	int kind = -1;
	for (int i = 0; i < 11; i++) if (strcmp(word, names[i]) == 0) kind = i;
	if (kind < 0) return false;
	event.kind = (enum kind)kind;
	switch (event.kind) {
	case RE_DOWN:
	case RE_MOVE:
		n = sscanf(rest, "%lld %u %d %15s %lf %lf %lf", &time, &event.device, &event.contact, event.source, &event.x, &event.y, &event.force);
		if (n != 7) return false;
		break;
	case RE_UP:
		if (sscanf(rest, "%lld %u %d", &time, &event.device, &event.contact) != 3) return false;
		break;
	case RE_PROX_IN:
	case RE_TOOL:
		if (sscanf(rest, "%lld %u %lf %lf %lf", &time, &event.device, &event.x, &event.y, &event.force) != 5) return false;
		break;
	case RE_PROX_OUT:
		if (sscanf(rest, "%lld %u %lf %lf", &time, &event.device, &event.x, &event.y) != 4) return false;
		break;
	case RE_MOTION:
		if (sscanf(rest, "%lld %u %lf %lf", &time, &event.device, &event.x, &event.y) != 4) return false;
		break;
	case RE_SCROLL:
		if (sscanf(rest, "%lld %u %d %d", &time, &event.device, &event.code, &event.pressed) != 4) return false;
		break;
	case RE_BUTTON:
	case RE_KEY:
		if (sscanf(rest, "%lld %u %d %d", &time, &event.device, &event.code, &event.pressed) != 4) return false;
		break;
	case RE_FRAME:
		if (sscanf(rest, "%lld", &time) != 1) return false;
		break;
	}
	if (event.kind != RE_FRAME && (event.device >= MAX_DEVICES || !replay->devices[event.device].used)) return false;
	event.time = time;
	event.file_start = replay->file_started;
	replay->file_started = false;
	if (replay->count == replay->capacity) {
		size_t capacity = replay->capacity ? replay->capacity * 2 : 1024;
		struct event *grown = realloc(replay->events, capacity * sizeof(*grown));
		if (!grown) return false;
		replay->events = grown;
		replay->capacity = capacity;
	}
	replay->events[replay->count++] = event;
	return true;
}

struct replay *replay_load(struct server *server, const char *decoder, char **files, int count) {
	/* The decoder: --decoder, else preview-replay beside libpreview-interaction's users' PATH. */
	size_t length = strlen(decoder ? decoder : "preview-replay") + 32;
	for (int i = 0; i < count; i++) length += strlen(files[i]) * 4 + 3;
	char *command = calloc(1, length);
	struct replay *replay = calloc(1, sizeof(*replay));
	if (!command || !replay) return NULL;
	replay->server = server;
	strcat(command, decoder ? decoder : "preview-replay");
	strcat(command, " --events");
	for (int i = 0; i < count; i++) {
		strcat(command, " '");
		for (const char *c = files[i]; *c; c++) strcat(command, *c == '\'' ? "'\\''" : (char[]){*c, 0});
		strcat(command, "'");
	}
	FILE *pipe = popen(command, "r");
	free(command);
	if (!pipe) return NULL;
	char line[512];
	size_t number = 0;
	bool ok = true;
	while (ok && fgets(line, sizeof(line), pipe)) {
		number++;
		if (!parse(replay, line)) {
			wlr_log(WLR_ERROR, "decoded events line %zu not understood: %s", number, line);
			ok = false;
		}
	}
	int status = pclose(pipe);
	if (!ok || status != 0) {
		wlr_log(WLR_ERROR, "the recordings could not be decoded (decoder exit status %d)", status);
		replay_destroy(replay);
		return NULL;
	}
	wlr_log(WLR_INFO, "replay: %zu events", replay->count);
	return replay;
}

void replay_create_devices(struct replay *replay) {
	for (int i = 0; i < MAX_DEVICES; i++) {
		struct replay_device *device = &replay->devices[i];
		if (!device->used) continue;
		enum wlr_input_device_type type;
		if (strcmp(device->kind, "pen") == 0) type = WLR_INPUT_DEVICE_TABLET_TOOL;
		else if (strcmp(device->kind, "touchscreen") == 0) type = WLR_INPUT_DEVICE_TOUCH;
		else if (strcmp(device->kind, "keyboard") == 0) type = WLR_INPUT_DEVICE_KEYBOARD;
		else type = WLR_INPUT_DEVICE_POINTER; /* touchpads and mice move a cursor */
		device->device = wlr_headless_add_input_device(replay->server->backend, type);
		if (!device->device) continue;
		free(device->device->name);
		device->device->name = strdup(device->name);
		device->tool.type = WLR_TABLET_TOOL_TYPE_PEN;
		device->tool.pressure = true;
		wl_signal_init(&device->tool.events.destroy);
	}
}

bool replay_is_touchpad(struct replay *replay, struct wlr_input_device *device, bool *force) {
	for (int i = 0; replay && i < MAX_DEVICES; i++) {
		struct replay_device *candidate = &replay->devices[i];
		if (!candidate->used || candidate->device != device || strcmp(candidate->kind, "touchpad") != 0) continue;
		*force = candidate->force;
		return true;
	}
	return false;
}

static void emit(struct replay *replay, const struct event *event) {
	struct replay_device *device = &replay->devices[event->device];
	struct wlr_input_device *dev = device->device;
	uint32_t time = now_msec();
	if (event->kind == RE_FRAME || !dev) return;
	switch (dev->type) {
	case WLR_INPUT_DEVICE_TABLET_TOOL: {
		struct wlr_tablet *tablet = dev->tablet;
		double pressure = event->force < 0 ? 0 : event->force;
		struct wlr_event_tablet_tool_axis axis = {.device = dev, .tool = &device->tool, .time_msec = time,
			.updated_axes = WLR_TABLET_TOOL_AXIS_X | WLR_TABLET_TOOL_AXIS_Y | WLR_TABLET_TOOL_AXIS_PRESSURE,
			.x = event->x, .y = event->y, .pressure = pressure};
		struct wlr_event_tablet_tool_tip tip = {.device = dev, .tool = &device->tool, .time_msec = time, .x = event->x, .y = event->y};
		struct wlr_event_tablet_tool_proximity proximity = {.device = dev, .tool = &device->tool, .time_msec = time,
			.x = event->x, .y = event->y};
		switch (event->kind) {
		case RE_PROX_IN:
			proximity.state = WLR_TABLET_TOOL_PROXIMITY_IN;
			wl_signal_emit(&tablet->events.proximity, &proximity);
			break;
		case RE_PROX_OUT:
			proximity.state = WLR_TABLET_TOOL_PROXIMITY_OUT;
			wl_signal_emit(&tablet->events.proximity, &proximity);
			break;
		case RE_TOOL:
			/* While the tip is down the contact's move carries the same frame's axes: one
			 * axis event per frame, as libinput sends. */
			if (!device->tip_down) wl_signal_emit(&tablet->events.axis, &axis);
			break;
		case RE_MOVE:
			wl_signal_emit(&tablet->events.axis, &axis);
			break;
		case RE_DOWN:
			wl_signal_emit(&tablet->events.axis, &axis);
			tip.state = WLR_TABLET_TOOL_TIP_DOWN;
			wl_signal_emit(&tablet->events.tip, &tip);
			device->tip_down = true;
			break;
		case RE_UP:
			device->tip_down = false;
			tip.state = WLR_TABLET_TOOL_TIP_UP;
			tip.x = event->x;
			wl_signal_emit(&tablet->events.tip, &tip);
			break;
		case RE_BUTTON:
			/* The tip is a contact; BTN_TOUCH and the tool bits are not buttons. */
			if (event->code == BTN_TOUCH || (event->code >= BTN_TOOL_PEN && event->code <= BTN_TOOL_LENS)) break;
			wl_signal_emit(&tablet->events.button, &(struct wlr_event_tablet_tool_button){.device = dev,
				.tool = &device->tool, .time_msec = time, .button = (uint32_t)event->code,
				.state = event->pressed ? WLR_BUTTON_PRESSED : WLR_BUTTON_RELEASED});
			break;
		default:
			break;
		}
		break;
	}
	case WLR_INPUT_DEVICE_TOUCH: {
		struct wlr_touch *touch = dev->touch;
		switch (event->kind) {
		case RE_DOWN:
			wl_signal_emit(&touch->events.down, &(struct wlr_event_touch_down){.device = dev, .time_msec = time,
				.touch_id = event->contact, .x = event->x, .y = event->y});
			break;
		case RE_MOVE:
			wl_signal_emit(&touch->events.motion, &(struct wlr_event_touch_motion){.device = dev, .time_msec = time,
				.touch_id = event->contact, .x = event->x, .y = event->y});
			break;
		case RE_UP:
			wl_signal_emit(&touch->events.up, &(struct wlr_event_touch_up){.device = dev, .time_msec = time,
				.touch_id = event->contact});
			wl_signal_emit(&touch->events.frame, NULL);
			break;
		default:
			break;
		}
		break;
	}
	case WLR_INPUT_DEVICE_POINTER: {
		struct wlr_pointer *pointer = dev->pointer;
		switch (event->kind) {
		case RE_MOTION:
			wl_signal_emit(&pointer->events.motion, &(struct wlr_event_pointer_motion){.device = dev, .time_msec = time,
				.delta_x = event->x, .delta_y = event->y, .unaccel_dx = event->x, .unaccel_dy = event->y});
			wl_signal_emit(&pointer->events.frame, dev);
			break;
		case RE_BUTTON:
			/* A click's force is its frame's: the finger's pressure of the same frame comes
			 * first, as the library reads a real touchpad's evdev state at the click. */
			for (const struct event *same = event + 1; device->force && event->pressed && dev->data &&
					same < replay->events + replay->count && same->time == event->time; same++) {
				if (same->device == event->device && (same->kind == RE_DOWN || same->kind == RE_MOVE))
					input_pressure(dev->data, same->force);
			}
			wl_signal_emit(&pointer->events.button, &(struct wlr_event_pointer_button){.device = dev, .time_msec = time,
				.button = (uint32_t)event->code, .state = event->pressed ? WLR_BUTTON_PRESSED : WLR_BUTTON_RELEASED});
			wl_signal_emit(&pointer->events.frame, dev);
			break;
		case RE_SCROLL:
			if (event->code) {
				wl_signal_emit(&pointer->events.axis, &(struct wlr_event_pointer_axis){.device = dev, .time_msec = time,
					.source = WLR_AXIS_SOURCE_WHEEL, .orientation = WLR_AXIS_ORIENTATION_VERTICAL,
					.delta = 15.0 * event->code / 120, .delta_discrete = event->code / 120});
				wl_signal_emit(&pointer->events.frame, dev);
			}
			break;
		case RE_DOWN:
		case RE_MOVE:
			/* A click's contact comes from its button, as from a real pointer; the finger's
			 * force is what the library reads from a real touchpad's evdev node. */
			if (device->force && dev->data) input_pressure(dev->data, event->force);
			break;
		default:
			break;
		}
		break;
	}
	case WLR_INPUT_DEVICE_KEYBOARD:
		if (event->kind == RE_KEY) {
			struct wlr_event_keyboard_key key = {.time_msec = time, .keycode = (uint32_t)event->code,
				.update_state = true, .state = event->pressed ? WL_KEYBOARD_KEY_STATE_PRESSED : WL_KEYBOARD_KEY_STATE_RELEASED};
			wlr_keyboard_notify_key(dev->keyboard, &key);
		}
		break;
	default:
		break;
	}
}

static int pump(void *data) {
	struct replay *replay = data;
	struct server *server = replay->server;
	while (replay->next < replay->count) {
		const struct event *event = &replay->events[replay->next];
		uint32_t flags = event->file_start ? PREVIEW_INTERACTION_REPLAY_STARTS_FILE : 0;
		if (event->kind == RE_DOWN || ((event->kind == RE_BUTTON || event->kind == RE_KEY) && event->pressed))
			flags |= PREVIEW_INTERACTION_REPLAY_BEGINS_STROKE;
		uint64_t wait = 0, time = 0;
		if (preview_interaction_replay_next(server->preview, (uint64_t)event->time, flags, &wait, &time) !=
			PREVIEW_INTERACTION_OK)
			wait = 0;
		if (wait) {
			/* Rounded up: one wakeup at most 1 ms late (replay_wake may come first). */
			wl_event_source_timer_update(replay->timer, (int)((wait + 999) / 1000));
			return 0;
		}
		emit(replay, event);
		replay->next++;
	}
	wlr_log(WLR_INFO, "replay: all %zu events played", replay->count);
	return 0;
}

void replay_start(struct replay *replay, enum preview_interaction_replay_pacing pacing) {
	if (replay->started) return;
	replay->started = true;
	wlr_log(WLR_INFO, "a window is mapped: starting the replay");
	preview_interaction_replay_start(replay->server->preview, pacing);
	replay->timer = wl_event_loop_add_timer(wl_display_get_event_loop(replay->server->display), pump, replay);
	wl_event_source_timer_update(replay->timer, 1);
}

/* The library says a wait may end: the next event is asked about again. */
void replay_wake(void *data) {
	struct server *server = data;
	if (server->replay && server->replay->timer) wl_event_source_timer_update(server->replay->timer, 1);
}

bool replay_finished(struct replay *replay) {
	return replay->started && replay->next >= replay->count;
}

void replay_destroy(struct replay *replay) {
	if (!replay) return;
	if (replay->timer) wl_event_source_remove(replay->timer);
	free(replay->events);
	free(replay);
}
