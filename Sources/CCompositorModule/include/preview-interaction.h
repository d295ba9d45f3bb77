/*
 * libpreview-interaction: the preview interaction ("peek and pop", Apple's
 * UIPreviewInteraction) for any Wayland compositor.
 *
 * The library attaches to the host's wl_display: it creates the
 * spi_preview_interaction_manager_v1 global there, puts its timers on that display's event
 * loop and never starts a thread. The host routes input as it already does (it decides
 * which wl_surface a contact goes to) and tells the library about devices and contacts;
 * the library runs the force model, speaks the protocol to the surface's client, and calls
 * the host back when a contact must be taken away from core input (the commit phase
 * began) and, if the host wants them, at every phase.
 *
 * Rules of the API:
 * - Every call returns an enum preview_interaction_status (0 = success) and checks its
 *   arguments: NULL or stale handles, unknown contacts, removing twice and calls after
 *   destroy are errors, never crashes. Misuse of a live context or device is logged as a
 *   warning through the log callback (preview_interaction_set_log_level chooses what
 *   reaches it); a NULL or stale handle has no context to log through and only returns
 *   its status.
 * - Handles are opaque and never dereferenced by the library: a destroyed handle stays
 *   invalid (it is not reused), so using it is a reported error.
 * - wl_resource pointers (surfaces, regions) are the host's and go to libwayland: NULL is
 *   an error, but a pointer that is not a live wl_resource crashes inside libwayland, as
 *   it would with any library that takes one.
 * - One context per wl_display: a second preview_interaction_create on the same display
 *   returns PREVIEW_INTERACTION_ERROR_DISPLAY_IN_USE (one global, one engine per seat).
 * - Call from the thread that dispatches the wl_display (other threads get
 *   PREVIEW_INTERACTION_ERROR_WRONG_THREAD). Callbacks run on that thread, from inside
 *   the calls and from the event loop; a callback may call the API again.
 * - Time is the host's monotonic clock in microseconds (CLOCK_MONOTONIC unless the host
 *   gives a clock callback); every input carries its time. Since 1.3 a host may pass its
 *   events' 32-bit millisecond times instead (preview_interaction_set_time_unit), and a time
 *   of 0 means "now" (the library reads its clock).
 *
 * pkg-config: preview-interaction. See docs/embedding.md.
 */
#ifndef PREVIEW_INTERACTION_H
#define PREVIEW_INTERACTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PREVIEW_INTERACTION_VERSION_MAJOR 1
#define PREVIEW_INTERACTION_VERSION_MINOR 5
#define PREVIEW_INTERACTION_VERSION_PATCH 0
#define PREVIEW_INTERACTION_VERSION "1.5.0"
/* (major << 16) | (minor << 8) | patch, as returned by preview_interaction_version(). */
#define PREVIEW_INTERACTION_VERSION_NUMBER \
	((PREVIEW_INTERACTION_VERSION_MAJOR << 16) | (PREVIEW_INTERACTION_VERSION_MINOR << 8) | \
	 PREVIEW_INTERACTION_VERSION_PATCH)

struct wl_display;
struct wl_client;
struct wl_resource;
struct libinput_device;
struct preview_interaction_lookup_panel; /* since 1.3: the Look Up section at the end */
struct preview_interaction_lookup_event; /* since 1.4: the Look Up section at the end */

/* The library's state on one wl_display. */
struct preview_interaction;
/* One input device the host told the library about. */
struct preview_interaction_device;

enum preview_interaction_status {
	PREVIEW_INTERACTION_OK = 0,
	/* A NULL pointer where one is required, a value out of range, a non-finite number. */
	PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT = -1,
	/* The context handle is NULL, destroyed or was never made by this library. */
	PREVIEW_INTERACTION_ERROR_INVALID_CONTEXT = -2,
	/* The device handle is NULL, removed, or belongs to another context. */
	PREVIEW_INTERACTION_ERROR_UNKNOWN_DEVICE = -3,
	/* No such contact is down (never went down, or already up). */
	PREVIEW_INTERACTION_ERROR_UNKNOWN_CONTACT = -4,
	/* That contact is already down. */
	PREVIEW_INTERACTION_ERROR_CONTACT_EXISTS = -5,
	/* The resource is not a wl_surface. */
	PREVIEW_INTERACTION_ERROR_NOT_A_SURFACE = -6,
	/* Called from a thread other than the display's. */
	PREVIEW_INTERACTION_ERROR_WRONG_THREAD = -7,
	/* libwayland refused (global or event source could not be created). */
	PREVIEW_INTERACTION_ERROR_WAYLAND = -8,
	/* Too many devices or contacts (see the limits in docs/embedding.md). */
	PREVIEW_INTERACTION_ERROR_LIMIT = -9,
	/* The device cannot do this (no libinput device behind it, no pressure axis). */
	PREVIEW_INTERACTION_ERROR_UNSUPPORTED = -10,
	/* The wl_display already has a context (preview_interaction_create twice). */
	PREVIEW_INTERACTION_ERROR_DISPLAY_IN_USE = -11,
};

/* A short English description of a status ("invalid argument"); never NULL. */
const char *preview_interaction_status_string(int status);

/* The library's version: (major << 16) | (minor << 8) | patch, and as text. Compare with
 * PREVIEW_INTERACTION_VERSION_NUMBER to find a header/library mismatch at run time. */
uint32_t preview_interaction_version(void);
const char *preview_interaction_version_string(void);

/* Where the force of a device comes from (the protocol's source enum). */
enum preview_interaction_device_kind {
	PREVIEW_INTERACTION_DEVICE_PEN = 1,
	PREVIEW_INTERACTION_DEVICE_TOUCHPAD = 2,
	PREVIEW_INTERACTION_DEVICE_TOUCHSCREEN = 3,
	/* A mouse or anything without pressure: a long press simulates the force. */
	PREVIEW_INTERACTION_DEVICE_POINTER = 4,
	/* Since 1.1: the keyboard's preview key (phase events only: keys go through
	 * preview_interaction_keyboard_key, not through a device). Since 1.3 a keyboard may also be
	 * a device (preview_interaction_device_add, or device_add_libinput of a keyboard): keys that
	 * name it in preview_interaction_key.device give their phase events that device. */
	PREVIEW_INTERACTION_DEVICE_KEYBOARD = 5,
};

/* The phases an interaction goes through, in order; cancelled can end it at any point. */
enum preview_interaction_phase {
	PREVIEW_INTERACTION_PHASE_PREVIEW_BEGAN = 1,
	PREVIEW_INTERACTION_PHASE_PREVIEW_PROGRESS = 2,
	/* The preview phase ended and the commit phase began (the peek). */
	PREVIEW_INTERACTION_PHASE_PREVIEW_ENDED = 3,
	PREVIEW_INTERACTION_PHASE_COMMIT_PROGRESS = 4,
	/* The pop. */
	PREVIEW_INTERACTION_PHASE_COMPLETED = 5,
	PREVIEW_INTERACTION_PHASE_CANCELLED = 6,
	/* Since 1.2: an accelerator's stage level changed (the stage callback only: the phase
	 * callback never receives it, so a host built against 1.1 sees only the values above). */
	PREVIEW_INTERACTION_PHASE_STAGE = 7,
};

/* Why an interaction was cancelled (the protocol's cancel_reason). */
enum preview_interaction_cancel_reason {
	PREVIEW_INTERACTION_CANCEL_NONE = 0,
	PREVIEW_INTERACTION_CANCEL_LIFTED = 1,
	PREVIEW_INTERACTION_CANCEL_CLIENT_CANCELLED = 2,
	PREVIEW_INTERACTION_CANCEL_DECLINED = 3,
	PREVIEW_INTERACTION_CANCEL_TIMEOUT = 4,
	PREVIEW_INTERACTION_CANCEL_DEVICE_REMOVED = 5,
	PREVIEW_INTERACTION_CANCEL_SURFACE_GONE = 6,
	PREVIEW_INTERACTION_CANCEL_DESYNCHRONISED = 7,
	PREVIEW_INTERACTION_CANCEL_MOVED = 8,
	PREVIEW_INTERACTION_CANCEL_SYSTEM = 9,
	/* Since 1.1: the user pressed Escape. */
	PREVIEW_INTERACTION_CANCEL_DISMISSED = 10,
};

/* The user's settings (never the application's). */
enum preview_interaction_sensitivity {
	PREVIEW_INTERACTION_SENSITIVITY_LIGHT = 1,
	PREVIEW_INTERACTION_SENSITIVITY_MEDIUM = 2, /* the default */
	PREVIEW_INTERACTION_SENSITIVITY_FIRM = 3,
};

enum preview_interaction_long_press {
	PREVIEW_INTERACTION_LONG_PRESS_FAST = 1,
	PREVIEW_INTERACTION_LONG_PRESS_DEFAULT = 2, /* the default */
	PREVIEW_INTERACTION_LONG_PRESS_SLOW = 3,
};

/* Since 1.1: when the commit phase completes (the pop). */
enum preview_interaction_completion {
	PREVIEW_INTERACTION_COMPLETION_ON_FORCE = 1, /* the default: when the force reaches it */
	/* When the contact lifts past the commit line: for those who press hard by accident. */
	PREVIEW_INTERACTION_COMPLETION_ON_RELEASE = 2,
};

/* Since 1.1: the user's haptics setting, for haptic pads (and told to clients). */
enum preview_interaction_haptics {
	PREVIEW_INTERACTION_HAPTICS_OFF = 0, /* the default: no effect is ever played */
	PREVIEW_INTERACTION_HAPTICS_LIGHT = 1,
	PREVIEW_INTERACTION_HAPTICS_MEDIUM = 2,
	PREVIEW_INTERACTION_HAPTICS_STRONG = 3,
};

enum preview_interaction_log_level {
	PREVIEW_INTERACTION_LOG_DEBUG = 1,
	PREVIEW_INTERACTION_LOG_INFO = 2,
	PREVIEW_INTERACTION_LOG_WARNING = 3,
	PREVIEW_INTERACTION_LOG_ERROR = 4,
};

/* One phase of one interaction, for the phase callback. Valid during the call only. */
struct preview_interaction_phase_event {
	uint32_t interaction; /* numbered by the library, increasing */
	enum preview_interaction_phase phase;
	enum preview_interaction_cancel_reason reason; /* CANCELLED only, else NONE */
	double progress; /* 0...1 within the phase */
	struct preview_interaction_device *device;
	int32_t contact;
	struct wl_resource *surface; /* the wl_surface the interaction is bound to */
	double x, y; /* surface-local */
	uint64_t time_usec;
	bool simulated; /* the force is a long press's, not a sensor's */
	/* Since 1.1 (members the library fills; an older host never reads them): where the
	 * force comes from. Keyboard interactions have contact the key's and device NULL, or
	 * (since 1.3) the keyboard device the key named. */
	enum preview_interaction_device_kind source;
	/* Since 1.2: for PREVIEW_INTERACTION_PHASE_STAGE, the level (1 to the area's number of
	 * stages); 0 for every other phase. */
	uint32_t stage;
};

/* A rectangle of a wl_region, for the region callback. */
struct preview_interaction_box {
	int32_t x, y, width, height;
};

/*
 * What the library asks of its host. Every member may be NULL.
 * Set `size` to sizeof(struct preview_interaction_callbacks) (newer members are added at
 * the end; an older host's shorter struct is read only as far as its size).
 */
struct preview_interaction_callbacks {
	size_t size;

	/* The commit phase began: take `contact` of `device` away from the client's core
	 * input now. A pointer gets wl_pointer.leave, a touch point wl_touch.cancel, a tablet
	 * tool up + proximity_out; nothing of the contact reaches the client until give_back,
	 * and its release is swallowed (preview_interaction_contact_up says so). */
	void (*take_away)(void *user_data, struct preview_interaction_device *device, int32_t contact,
		struct wl_resource *surface);
	/* The interaction that took the contact ended: pointer or tool may enter the surface
	 * under it again (no press, no release). Nothing to do for touch. */
	void (*give_back)(void *user_data, struct preview_interaction_device *device, int32_t contact,
		struct wl_resource *surface);
	/* Every phase (haptics, a sound, accessibility, a trace). */
	void (*phase)(void *user_data, const struct preview_interaction_phase_event *event);
	/* The rectangles of a wl_region the host created (for set_region). Write at most
	 * `capacity` boxes and return how many the region has; return -1 if `region` is not
	 * the host's. NULL: regions are treated as the whole surface. */
	int32_t (*region_boxes)(void *user_data, struct wl_resource *region,
		struct preview_interaction_box *boxes, int32_t capacity);
	/* The library's messages at or above the context's log level (INFO unless
	 * preview_interaction_set_log_level says otherwise): a misused call (WARNING), a
	 * client's protocol error, devices added and removed (INFO). NULL: stderr, for
	 * warnings and errors only. */
	void (*log)(void *user_data, enum preview_interaction_log_level level, const char *message);
	/* The host's monotonic clock in microseconds (the same clock as the input times).
	 * NULL: CLOCK_MONOTONIC. */
	uint64_t (*now_usec)(void *user_data);
	/* Since 1.2. An accelerator (an area a version 2 client declared with set_behaviour
	 * accelerator: fast-forward speed, zoom steps) changed its stage level: phase is
	 * PREVIEW_INTERACTION_PHASE_STAGE, stage the level, progress the force's place within the
	 * accelerator's range (0...1). The first comes when the client accepted (level 1), then one
	 * at each change, up or down. An accelerator has no preview or commit phase and never
	 * takes its contact away: the phase callback hears only its end, COMPLETED when the
	 * contact lifts or CANCELLED. NULL: stages are not reported. */
	void (*stage)(void *user_data, const struct preview_interaction_phase_event *event);

	/* Look Up (since 1.3; see the Look Up section below). NULL: that part is not shown. */
	/* Draw the highlight over the word (or link) under a lookup press: `surface` is the
	 * window, the box surface-local, `progress` 0...1 through the preview phase (it may grow
	 * and deepen with it); called again as progress changes. `surface` NULL: remove it. */
	void (*lookup_highlight)(void *user_data, struct wl_resource *surface, const struct preview_interaction_box *word,
		double progress);
	/* Show, grow or remove the Look Up panel (see struct preview_interaction_lookup_panel). */
	void (*lookup_panel)(void *user_data, const struct preview_interaction_lookup_panel *panel);
	/* The offset of a toplevel's window geometry in its surface (xdg_surface.set_window_geometry;
	 * GTK 4 counts its accessibility coordinates from there). NULL: 0, 0. */
	void (*window_geometry)(void *user_data, struct wl_resource *surface, int32_t *x, int32_t *y);
	/* Since 1.4: what happened to each lookup (see struct preview_interaction_lookup_event): a
	 * trace, a log, an announcement. NULL: not told. */
	void (*lookup_event)(void *user_data, const struct preview_interaction_lookup_event *event);
	/* Since 1.4: a replay waiting for its clients may go on: ask preview_interaction_replay_next
	 * again (see the Replay section). NULL: ask again when its wait is over. */
	void (*replay_wake)(void *user_data);
};

/* Creates the global on `display` and starts listening for its clients. `callbacks` is
 * copied; `user_data` is passed to every callback. */
int preview_interaction_create(struct wl_display *display, const struct preview_interaction_callbacks *callbacks,
	void *user_data, struct preview_interaction **out);

/* Removes the global, cancels running interactions (reason system), frees everything.
 * Call before wl_display_destroy. The handle is invalid afterwards. */
int preview_interaction_destroy(struct preview_interaction *context);

/* Settings, from the user's configuration; they apply to contacts that begin afterwards. */
int preview_interaction_set_sensitivity(struct preview_interaction *context, enum preview_interaction_sensitivity value);
int preview_interaction_set_long_press(struct preview_interaction *context, enum preview_interaction_long_press value);
/* How long a client may take to answer should_begin (1...60000 ms; default 150). */
int preview_interaction_set_should_begin_timeout(struct preview_interaction *context, uint32_t milliseconds);
/* Since 1.1. When the commit phase completes: on force (default) or on release. */
int preview_interaction_set_completion(struct preview_interaction *context, enum preview_interaction_completion value);
/* Since 1.1. The user's haptics setting: haptic pads (preview_interaction_device_add_libinput
 * of a touchpad with FF_HAPTIC) play the clicks at this intensity; OFF (the default) hands
 * every pad back to its firmware and plays nothing, not even what apps ask for. */
int preview_interaction_set_haptics(struct preview_interaction *context, enum preview_interaction_haptics value);
/* Every setting above is the user's: version 2 clients hear sensitivity, long press,
 * completion and haptics at bind and again whenever one changes. */

/* The least severe message the log callback receives (default PREVIEW_INTERACTION_LOG_INFO;
 * DEBUG adds the calls that failed for an unknown contact, which hosts may make routinely). */
int preview_interaction_set_log_level(struct preview_interaction *context, enum preview_interaction_log_level minimum);

/* A device. `pressure_min` < `pressure_max` gives its pressure range (contacts then report
 * pressure in that range); equal values mean no pressure (long press). `name` is copied
 * (may be NULL). `seat` is the host's seat number for the device (preview_interaction_seat
 * turns a seat's name into one). Since 1.3 `kind` may be KEYBOARD: a device for keys only
 * (contacts on it are UNSUPPORTED; see preview_interaction_key.device). */
int preview_interaction_device_add(struct preview_interaction *context, enum preview_interaction_device_kind kind,
	const char *name, double pressure_min, double pressure_max, uint32_t seat,
	struct preview_interaction_device **out);

/* A device the host's libinput opened (wlroots: wlr_libinput_get_device_handle). Kind and
 * name come from libinput; for touchpads and touchscreens, whose pressure libinput does
 * not report, the library reads the kernel's evdev state of the device node (its own
 * read-only descriptor, watched on the display's loop), so a pressure touchpad's force
 * click works: pass PREVIEW_INTERACTION_PRESSURE_FROM_DEVICE as the pressure. Pens report
 * libinput's normalised 0...1 pressure. A host may hand over every device it opens: since
 * 1.3 a keyboard becomes a keyboard device, and a device that can press nothing (a switch,
 * a tablet pad) returns PREVIEW_INTERACTION_ERROR_UNSUPPORTED with *out NULL and is logged
 * at DEBUG only (it is no misuse). */
int preview_interaction_device_add_libinput(struct preview_interaction *context, struct libinput_device *device,
	uint32_t seat, struct preview_interaction_device **out);

/* Since 1.3. The host's own pointer for a device (its struct for the device: the callbacks
 * and phase events name the library's handle, and this finds the host's). NULL until set;
 * the library never reads it. */
int preview_interaction_device_set_user_data(struct preview_interaction_device *device, void *data);
int preview_interaction_device_get_user_data(struct preview_interaction_device *device, void **data);

/* Since 1.3. The number of the seat named `name` (wlr_seat.name, "seat0"): numbers from 0 in
 * the order names are first asked for, stable while the context lives, so a host that names
 * its seats needs no table of its own (it should then use only these numbers). At most 64
 * names of 1...255 bytes (PREVIEW_INTERACTION_ERROR_LIMIT, INVALID_ARGUMENT). */
int preview_interaction_seat(struct preview_interaction *context, const char *name, uint32_t *seat);

/* The device went away: its interactions are cancelled (device_removed). The handle is
 * invalid afterwards. */
int preview_interaction_device_remove(struct preview_interaction_device *device, uint64_t time_usec);

/* Pressure argument meaning "read it from the device" (libinput touch devices). */
#define PREVIEW_INTERACTION_PRESSURE_FROM_DEVICE (-1.0)

/* A contact went down (finger, pen tip, primary button) on `surface` (the wl_surface
 * resource the host routes it to, or NULL over no client surface) at surface-local
 * (sx, sy). `contact`: the touch slot or tracking id, 0 for a pen tip or a button.
 * `pressure` in the device's range (ignored without one). A touchpad's click is its contact
 * whichever button libinput reports it as (BTN_LEFT, or BTN_RIGHT and BTN_MIDDLE for two and
 * three fingers), from its first button down to its last up: on a haptic pad the library
 * plays the press and release there. */
int preview_interaction_contact_down(struct preview_interaction_device *device, int32_t contact,
	struct wl_resource *surface, double sx, double sy, double pressure, uint64_t time_usec);
/* The contact moved: surface-local to the surface it went down on. */
int preview_interaction_contact_motion(struct preview_interaction_device *device, int32_t contact, double sx,
	double sy, uint64_t time_usec);
/* New pressure of a contact that is down. */
int preview_interaction_contact_force(struct preview_interaction_device *device, int32_t contact, double pressure,
	uint64_t time_usec);
/* Position and pressure of one device frame together (a pen's axis event): one sample for
 * the force filter, where motion + force would be two. */
int preview_interaction_contact_update(struct preview_interaction_device *device, int32_t contact, double sx, double sy,
	double pressure, uint64_t time_usec);
/* The contact was lifted. `*swallow_release` (may be NULL) is set to true when the host
 * must not deliver this release to the client: the contact was taken away. */
int preview_interaction_contact_up(struct preview_interaction_device *device, int32_t contact, uint64_t time_usec,
	bool *swallow_release);
/* Since 1.3. A button of a pointer or touchpad went down or up (`button` is the evdev code,
 * linux/input-event-codes.h). The library knows which buttons are the device's click: BTN_LEFT,
 * and on a touchpad also BTN_RIGHT and BTN_MIDDLE (libinput names a clickpad's one click by the
 * fingers on it). The first of them down is contact 0 going down on `surface` at (sx, sy) with
 * `pressure` (as contact_down), the last up is its release (as contact_up, which sets
 * `*swallow_release`); other buttons and other transitions change nothing (OK). Pass every
 * button; then move the contact with contact_motion(device, 0, ...). */
int preview_interaction_pointer_button(struct preview_interaction_device *device, uint32_t button, bool pressed,
	struct wl_resource *surface, double sx, double sy, double pressure, uint64_t time_usec, bool *swallow_release);
/* The contact was lost without a lift (seat lost focus, touch cancelled): reason system. */
int preview_interaction_contact_cancel(struct preview_interaction_device *device, int32_t contact,
	uint64_t time_usec);
/* Whether the contact is taken away from core input right now (skip its core events). */
int preview_interaction_contact_is_taken_away(struct preview_interaction_device *device, int32_t contact,
	bool *taken_away);

/* Since 1.3: how long a contact stays taken away. */
enum preview_interaction_take_away_mode {
	/* The default: give_back comes when the interaction ends, even with the contact still down
	 * (a pop on force); contact_up's swallow_release then tells the host to skip the release. */
	PREVIEW_INTERACTION_TAKE_AWAY_UNTIL_END = 1,
	/* For hosts that report contacts after delivering them (sway: the release must still travel
	 * the seat's own state): take_away means "drop every further event of this contact, its
	 * release included", and give_back comes only once the contact is up, from inside the
	 * contact_up, contact_cancel, device_remove or destroy call that ended it, never while it is
	 * down; contact_is_taken_away stays true until then. */
	PREVIEW_INTERACTION_TAKE_AWAY_UNTIL_RELEASE = 2,
};
int preview_interaction_set_take_away_mode(struct preview_interaction *context,
	enum preview_interaction_take_away_mode mode);

/* Since 1.3: the unit of the times a host passes (every `time_usec` argument and
 * preview_interaction_key.time_usec). Either way 0 means "now". Times the library reports
 * (preview_interaction_phase_event.time_usec) stay microseconds; DELIVER_TAP's press time is
 * in the host's unit. */
enum preview_interaction_time_unit {
	/* The default: microseconds of the host's monotonic clock. */
	PREVIEW_INTERACTION_TIME_USEC = 1,
	/* The 32-bit milliseconds input events carry (wlroots' time_msec, libinput's
	 * libinput_event_*_get_time) on the same clock, CLOCK_MONOTONIC unless now_usec says
	 * otherwise: the library places each within 24 days of its clock's now, across the
	 * wrap every 49.7 days; bits above 32 are ignored. */
	PREVIEW_INTERACTION_TIME_MSEC = 2,
};
int preview_interaction_set_time_unit(struct preview_interaction *context, enum preview_interaction_time_unit unit);

/* The wl_surface was committed: applies the double-buffered region and sources of its
 * interaction object. Since 1.3 the library sees every wl_surface.commit request itself (a
 * protocol logger on the display, as the request is dispatched) and applies the state then:
 * a host needs no commit listener, and a call here is a harmless repeat. Before 1.3: call
 * from the host's commit handler. */
int preview_interaction_surface_commit(struct preview_interaction *context, struct wl_resource *surface);
/* The surface is going away (unmapped or destroyed): its interactions are cancelled
 * (surface_gone). Destruction of the wl_surface resource is noticed by the library too. */
int preview_interaction_surface_gone(struct preview_interaction *context, struct wl_resource *surface,
	uint64_t time_usec);

/*
 * The keyboard (since 1.1). A user who cannot press hard, or at all, holds a preview key (the
 * user's choice; by default Menu, and F10 with Shift) on the focused surface: held for the
 * long-press duration, the client is asked should_begin with source keyboard at its focused
 * item; released before completion it cancels (lifted); Escape cancels every interaction of
 * the seat (dismissed). Pass every key of the seat's keyboard before delivering it through
 * wl_keyboard, and deliver what the verdict says.
 */

/* Modifiers held with a key (xkbcommon's effective state: depressed, latched and locked). */
#define PREVIEW_INTERACTION_MODIFIER_SHIFT (1u << 0)
#define PREVIEW_INTERACTION_MODIFIER_CONTROL (1u << 1)
#define PREVIEW_INTERACTION_MODIFIER_ALT (1u << 2)
#define PREVIEW_INTERACTION_MODIFIER_LOGO (1u << 3)

/* One key event of a seat's keyboard. Set `size` to sizeof(struct preview_interaction_key)
 * (newer members are added at the end). */
struct preview_interaction_key {
	size_t size;
	uint32_t seat;
	uint32_t keycode; /* evdev (linux/input-event-codes.h: KEY_COMPOSE = 127), 0 if unknown */
	uint32_t keysym; /* xkb keysym (XKB_KEY_Menu = 0xff67), 0 if unknown */
	uint32_t modifiers; /* PREVIEW_INTERACTION_MODIFIER_* held */
	bool pressed;
	uint64_t time_usec;
	/* Presses: the wl_surface with the seat's keyboard focus (NULL: none) and its size,
	 * surface-local (a client that gave no focus point gets its region's default). */
	struct wl_resource *focus;
	int32_t focus_width, focus_height;
	/* Since 1.3: the keyboard device the key comes from (a KEYBOARD device of this context),
	 * or NULL. Its phase events then carry it as their device. */
	struct preview_interaction_device *device;
};

enum preview_interaction_key_verdict {
	/* Deliver the key through wl_keyboard as usual. */
	PREVIEW_INTERACTION_KEY_DELIVER = 0,
	/* The library consumed it (a preview key that may begin or began an interaction, an
	 * Escape that cancelled, or their releases): do not deliver it. */
	PREVIEW_INTERACTION_KEY_CONSUMED = 1,
	/* A release whose press was withheld and began nothing (a tap): deliver the withheld
	 * press, at *press_time_usec, and then this release. */
	PREVIEW_INTERACTION_KEY_DELIVER_TAP = 2,
};

/* A key went down or up. `verdict` is required; `press_time_usec` (may be NULL) is set
 * for DELIVER_TAP (in the host's time unit). Key repeat is the host's: pass physical presses
 * only. */
int preview_interaction_keyboard_key(struct preview_interaction *context, const struct preview_interaction_key *key,
	enum preview_interaction_key_verdict *verdict, uint64_t *press_time_usec);

/* The seat's keyboard focus left the surface (or went to another): a preview key held
 * there ends (its interaction is cancelled with reason system; a press still withheld is
 * dropped, never delivered, nor its release). */
int preview_interaction_keyboard_focus_lost(struct preview_interaction *context, uint32_t seat, uint64_t time_usec);

/* A preview key the user chose: an evdev keycode and/or an xkb keysym (0: not matched on)
 * and exactly the modifiers held with it (Ctrl+Shift+F10 does not match Shift+F10); a Latin
 * letter's keysym matches either case. */
struct preview_interaction_key_binding {
	uint32_t keycode;
	uint32_t keysym;
	uint32_t modifiers;
};

/* The user's preview keys (at most 16), replacing the current ones; `count` 0 turns the
 * keyboard off as a source; `keys` NULL with `count` 0 restores the defaults (Menu, and
 * F10 with Shift). Escape is not a preview key: it always cancels. */
int preview_interaction_set_preview_keys(struct preview_interaction *context,
	const struct preview_interaction_key_binding *keys, uint32_t count);

/* Interactions running now (for tests and a compositor's idle check). */
int preview_interaction_running_count(struct preview_interaction *context, uint32_t *count);
/* Interactions whose client was asked should-begin and has not answered yet. A host that replays
 * recorded input can pause while this is nonzero, as a user holds still until the app answers. */
int preview_interaction_awaiting_answer_count(struct preview_interaction *context, uint32_t *count);

/*
 * Look Up (since 1.3). A firm press where no client declared a preview area looks up what is
 * under it: the library asks preview-lookup (which reads the app's accessibility tree and an
 * offline dictionary) and shows the answer through the host, with the phases of a preview
 * interaction: the word is highlighted through the preview phase (lookup_highlight), the
 * panel appears at the commit and grows (lookup_panel), and stays after completion until
 * Escape (preview_interaction_keyboard_key), a press elsewhere or a new press; cancelled
 * removes everything. The app's input is never taken away: it gets its press as always.
 * The library starts preview-lookup as a private client of the host's wl_display (on a
 * socketpair, no socket name) and restarts it with back-off if it exits; its one surface is
 * the panel. Pass contacts as usual (contact_down with the wl_surface under the press).
 */

/* Since 1.3: where the Look Up panel goes, for the lookup_panel callback. Valid during the
 * call only. */
struct preview_interaction_lookup_panel {
	/* The panel: a wl_surface of preview-lookup's client (it has no role and is drawn and
	 * committed by preview-lookup). NULL: remove the panel. */
	struct wl_resource *panel;
	/* The window looked up, and the word's box in it (surface-local; all 0 when the app gave
	 * no extents). Place the panel beside the word (below it, or above when there is no room
	 * below), inside the output, above every window; it takes input (its buttons). */
	struct wl_resource *surface;
	struct preview_interaction_box word;
	/* How much of the panel's height to show, from its top: it grows into view with the
	 * commit phase, a third at once, 1 at completion. Hosts that cannot clip show it whole
	 * (the wlroots example crops a copy of its buffer instead). */
	double shown;
	/* True at the commit (place the panel now), false when only `shown` changed. */
	bool place;
};

/* Since 1.4: what happened to a lookup, for the lookup_event callback. */
enum preview_interaction_lookup_event_kind {
	/* preview-lookup answered: `outcome`, and what it found. */
	PREVIEW_INTERACTION_LOOKUP_ANSWERED = 1,
	/* The commit completed: the panel is whole and stays until dismissed. */
	PREVIEW_INTERACTION_LOOKUP_COMPLETED = 2,
	/* A lookup that found something ended before it completed: `reason` (lifted, moved,
	 * dismissed by Escape, its window gone...). DISMISSED follows. */
	PREVIEW_INTERACTION_LOOKUP_CANCELLED = 3,
	/* What the lookup showed went (Escape, a press elsewhere or anew, cancelled). */
	PREVIEW_INTERACTION_LOOKUP_DISMISSED = 4,
};

/* Since 1.4: what preview-lookup's answer meant. */
enum preview_interaction_lookup_outcome {
	PREVIEW_INTERACTION_LOOKUP_OUTCOME_NONE = 0, /* not an answer */
	/* A word or link: the lookup goes on (highlight, then the panel). */
	PREVIEW_INTERACTION_LOOKUP_OUTCOME_FOUND = 1,
	/* Nothing there: the press is just the app's. */
	PREVIEW_INTERACTION_LOOKUP_OUTCOME_NOTHING = 2,
	/* After the deadline: the press was the app's already. */
	PREVIEW_INTERACTION_LOOKUP_OUTCOME_LATE = 3,
};

/* Since 1.4: one lookup's news. Valid during the call only. */
struct preview_interaction_lookup_event {
	enum preview_interaction_lookup_event_kind kind;
	uint32_t lookup; /* numbered by the library, increasing */
	enum preview_interaction_lookup_outcome outcome; /* ANSWERED only */
	enum preview_interaction_cancel_reason reason; /* CANCELLED only, else NONE */
	struct wl_resource *surface; /* ANSWERED: the window looked up (NULL if it is gone) */
	/* ANSWERED: UTF-8, "" when none: the word (its base form's definition follows), the link's
	 * address, the app's toolkit as preview-lookup named it. */
	const char *word;
	const char *link;
	const char *toolkit;
	const char *definition;
	uint64_t waited_usec; /* ANSWERED: from the question to the answer */
};

/*
 * Replay (since 1.4). A host that replays recorded input (tests, demos) paces it as every host
 * of the library and preview-compositor do: each event re-timed onto the host's clock; the
 * recording holds still while a should-begin question (a client's, or Look Up's) is open, as a
 * user who waits for the app; with FAST idle gaps are skipped once every client acknowledged
 * its frames and committed after the key it was sent; with AWAIT_CLIENTS the recorded gaps stay
 * but the next stroke waits until the client the last stroke ended on has committed since; a
 * new file starts half a second after the previous one's last event. The host keeps its events
 * and its timer and asks, for the next event, whether it goes now.
 */
enum preview_interaction_replay_pacing {
	PREVIEW_INTERACTION_REPLAY_RECORDED = 0, /* the recorded timing (and the pauses for answers) */
	PREVIEW_INTERACTION_REPLAY_FAST = 1,
	PREVIEW_INTERACTION_REPLAY_AWAIT_CLIENTS = 2,
};

/* Flags of a replayed event, for preview_interaction_replay_next. */
enum preview_interaction_replay_flags {
	/* A contact, button or key goes down (what AWAIT_CLIENTS holds). */
	PREVIEW_INTERACTION_REPLAY_BEGINS_STROKE = 1 << 0,
	/* The first event of a recording played after another. */
	PREVIEW_INTERACTION_REPLAY_STARTS_FILE = 1 << 1,
};

/* Since 1.4: a replay begins (any earlier one's pacing is forgotten). */
int preview_interaction_replay_start(struct preview_interaction *context, enum preview_interaction_replay_pacing pacing);

/* Since 1.4: whether the next event (recorded at `recorded_usec` in its recording, `flags`) goes
 * now. *wait_usec 0: emit it now, timed *time_usec on the host's clock; else keep it, and ask
 * again after *wait_usec or when replay_wake is called. Before replay_start every event goes now. */
int preview_interaction_replay_next(struct preview_interaction *context, uint64_t recorded_usec, uint32_t flags,
	uint64_t *wait_usec, uint64_t *time_usec);

/* Where preview-lookup is installed (the default for preview_interaction_set_lookup). */
#define PREVIEW_INTERACTION_LOOKUP_PATH "/usr/bin/preview-lookup"

/* Turns Look Up on or off (default off). `lookup_path`: the preview-lookup executable, NULL
 * for PREVIEW_INTERACTION_LOOKUP_PATH. A path that is not executable is
 * PREVIEW_INTERACTION_ERROR_UNSUPPORTED (Look Up stays off). */
int preview_interaction_set_lookup(struct preview_interaction *context, bool enabled, const char *lookup_path);

/* The user's setting: presses without measured force (a long press of a mouse or of a
 * finger without pressure) look up too. Default false: a long press already means something
 * in many apps. */
int preview_interaction_set_lookup_long_press(struct preview_interaction *context, bool enabled);

/* Since 1.5. The user's setting: how long preview-lookup may take to answer (100...5000 ms;
 * default 500) before the press is just the app's (its answer is then LATE). preview-lookup's
 * own search follows it (350 ms at the default, the deadline less a call's timeout): a longer
 * deadline gives slow apps and a loaded machine more time, a shorter one keeps a slow app's
 * lookup from showing long after the press. Out of range:
 * PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT (the setting is kept). */
int preview_interaction_set_lookup_deadline(struct preview_interaction *context, uint32_t milliseconds);

/* preview-lookup's Wayland client while it runs (its surfaces are the panel: a host that
 * maps surfaces by role can recognise it), else NULL. */
int preview_interaction_lookup_client(struct preview_interaction *context, struct wl_client **client);

#ifdef __cplusplus
}
#endif

#endif
