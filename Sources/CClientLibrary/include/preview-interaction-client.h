/*
 * libpreview-interaction-client: the preview interaction ("peek and pop", Apple's
 * UIPreviewInteraction) for Wayland apps and toolkits, over the spi_preview_interaction_v1
 * protocol. The client-side twin of libpreview-interaction (the compositor's library).
 *
 * The library works on the app's own wl_display (the toolkit's connection). It never
 * touches the app's objects: it binds the protocol's global from a registry of its own. The
 * library gives a file descriptor that is readable while callbacks are waiting, and the app
 * calls preview_interaction_client_dispatch() when it is (a GLib GSource, a Qt
 * QSocketNotifier, or the app's own poll), the way libinput is driven. Where the library's
 * events are read and handled, the two ways to create a context:
 *
 * - preview_interaction_client_create_on_queue (since 1.4; what toolkits use): the library's
 *   objects live on a queue the app already dispatches on its thread in its own loop (the
 *   default queue, or one it names). The app's own reading and dispatching handle the
 *   library's events too, on the app's thread, as they arrive with the app's other events:
 *   the library starts no thread and reads nothing itself; its listeners run the client core,
 *   acknowledge frames and make the descriptor readable when a frame made callbacks.
 * - preview_interaction_client_create (1.0): for an app that dispatches no queue the library
 *   could use (it only polls the library's descriptor), the library keeps its objects on a
 *   queue of its own and a thread of its own reads the connection (following libwayland's
 *   multi-threaded reading protocol, wl_display_prepare_read_queue, so it coexists with the
 *   app's reading on any thread), making the descriptor readable when that queue has events;
 *   dispatch() handles them on the app's thread. That thread wakes whenever the connection
 *   has something to read, the app's own events too.
 *
 * Either way every callback, acknowledgement and answer is made on the app's thread, and
 * frames are acknowledged as they are handled. From protocol version 3 the compositor keeps
 * sending progress while the app draws between two dispatches (the protocol's acknowledgement
 * window): frames are acknowledged once per several, the phase changes at once. A toolkit
 * that commits on its own may hold the acknowledgements of frames that gave callbacks until
 * its pictures show them (set_hold_acks).
 *
 * A context (struct preview_interaction_client) per wl_display; an interaction (struct
 * preview_interaction_client_interaction, UIKit's UIPreviewInteraction) per wl_surface the
 * app wants presses on. Presses that begin on the surface, inside its region, from an
 * allowed source, are reported to the interaction's callbacks as UIKit reports them:
 *
 *     should_begin                         may this press begin? (answer now or later)
 *       (declined: nothing more for this press)
 *     preview   progress, ended = false    repeated, progress in 0...1, may go down
 *     preview   1,        ended = true     once: the commit phase begins
 *     commit    progress, ended = false    repeated
 *     commit    1,        ended = true     completed: perform the action, once
 *     cancelled reason                     instead of the rest, at any point after
 *                                          should_begin (never for a declined press)
 *
 * Several presses can run at once on one surface (one per finger, pen or button): every
 * callback carries the press (struct preview_interaction_client_press) with its id, source,
 * force, surface-local location and progress; a toolkit routes the press to the widget under
 * press->x, press->y when should_begin comes, and keeps that routing by press->id.
 *
 * The library keeps this order whatever the compositor sends: every event is untrusted. An
 * unknown press, a phase out of order or a progress outside 0...1 is logged; the press it
 * concerns ends with cancelled (reason DESYNCHRONISED) and nothing else changes. A
 * compositor that goes away ends every running press with cancelled (reason SYSTEM). The
 * library never aborts the app.
 *
 * Rules of the API:
 * - Every call returns an enum preview_interaction_client_status (0 = success) and checks
 *   its arguments: NULL, stale or foreign handles, unknown presses, calls after destroy are
 *   reported errors, never crashes. Misuse is logged through the log callback.
 * - Handles are opaque and never dereferenced by the library: a destroyed handle stays
 *   invalid (it is not reused), so using it is a reported error.
 * - Thread: a context belongs to the thread that created it (the app's main thread, the one
 *   that runs the toolkit's loop). Call every function with a context or interaction from
 *   that thread; other threads get PREVIEW_INTERACTION_CLIENT_ERROR_WRONG_THREAD (an
 *   asynchronous should-begin answer found on a worker thread is handed back to the main
 *   loop first, e.g. with g_idle_add or QMetaObject::invokeMethod). Callbacks run on that
 *   thread, only from inside preview_interaction_client_dispatch() and the cancel calls; a
 *   callback may call the API again (answer, cancel, set_*, even detach its interaction).
 * - A context made by create starts one thread (its reader); one made by create_on_queue
 *   starts none. Each owns one file descriptor
 *   (the one preview_interaction_client_get_fd returns); both end with destroy.
 * - Strings and structs passed to callbacks are valid during the call only.
 * - Callback structs start with a `size` member: set it to sizeof the struct. Members are
 *   only ever added at the end; an older app's shorter struct is read only as far as its
 *   size, and the members it lacks count as NULL.
 *
 * Protocol version 2 (library 1.2): the library binds the compositor's global at the highest
 * version both speak. Version 2 adds the keyboard (a preview key held at the app's focus
 * point: set_focus_point), the user's settings (get_settings, settings_changed), pressure
 * behaviours per area (set_behaviours, the stage callback) and haptic effects for apps
 * (play_haptic, haptics_changed). Against a compositor of version 1 everything of 1.1 works
 * as before and the version 2 calls return UNSUPPORTED, sending nothing;
 * preview_interaction_client_get_protocol_version says which version is bound.
 *
 * Surfaces with items (library 1.3): a toolkit attaches one surface (the protocol's one object
 * per wl_surface) and adds an item per widget with a rectangle, a depth, sources, a behaviour
 * and stages. The library makes the surface's region, sources, behaviours and focus point from
 * its items, routes each press to the item under it (the focused item for the keyboard), and
 * reports per item; see "Surfaces with items" below and docs/client-items.md.
 *
 * One API (library 1.4): surfaces with items are the one way; the interaction calls of 1.0
 * are thin wrappers over them. An interaction is a surface whose region, sources, focus point
 * and behaviours the app sets itself (instead of the library making them from items) and
 * whose every press goes to its one item, made with the interaction's callbacks and handle.
 * Each interaction call is the matching surface or item call (attach: surface_attach with that
 * item; answer, cancel, play_haptic: the item's; commit_surface, set_hold_acks, will_commit,
 * running_count: the surface's; detach: surface_detach, which makes no call for an
 * interaction), with the behaviour it always had; the differences are in each call's text.
 *
 * pkg-config: preview-interaction-client. See docs/preview-interaction.md.
 */
#ifndef PREVIEW_INTERACTION_CLIENT_H
#define PREVIEW_INTERACTION_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PREVIEW_INTERACTION_CLIENT_VERSION_MAJOR 1
#define PREVIEW_INTERACTION_CLIENT_VERSION_MINOR 4
#define PREVIEW_INTERACTION_CLIENT_VERSION_PATCH 0
#define PREVIEW_INTERACTION_CLIENT_VERSION "1.4.0"
/* (major << 16) | (minor << 8) | patch, as returned by preview_interaction_client_version(). */
#define PREVIEW_INTERACTION_CLIENT_VERSION_NUMBER \
	((PREVIEW_INTERACTION_CLIENT_VERSION_MAJOR << 16) | (PREVIEW_INTERACTION_CLIENT_VERSION_MINOR << 8) | \
	 PREVIEW_INTERACTION_CLIENT_VERSION_PATCH)

struct wl_display;
struct wl_event_queue;
struct wl_surface;

/* The library's state on one wl_display. */
struct preview_interaction_client;
/* Preview interactions on one wl_surface (UIKit's UIPreviewInteraction). */
struct preview_interaction_client_interaction;

enum preview_interaction_client_status {
	PREVIEW_INTERACTION_CLIENT_OK = 0,
	/* A NULL pointer where one is required, a value out of range, a non-finite number,
	 * bits that name no source. */
	PREVIEW_INTERACTION_CLIENT_ERROR_INVALID_ARGUMENT = -1,
	/* The context handle is NULL, destroyed or was never made by this library. */
	PREVIEW_INTERACTION_CLIENT_ERROR_INVALID_CONTEXT = -2,
	/* The interaction handle is NULL, detached, or its context was destroyed. */
	PREVIEW_INTERACTION_CLIENT_ERROR_INVALID_INTERACTION = -3,
	/* No such press was ever announced on this interaction. */
	PREVIEW_INTERACTION_CLIENT_ERROR_UNKNOWN_PRESS = -4,
	/* The press already ended (its cancelled or completion was delivered, or is about to
	 * be: a timeout raced with a late answer). Harmless: nothing was sent. */
	PREVIEW_INTERACTION_CLIENT_ERROR_PRESS_ENDED = -5,
	/* The press's should-begin was already answered (by a return value or an answer call). */
	PREVIEW_INTERACTION_CLIENT_ERROR_ALREADY_ANSWERED = -6,
	/* Called from a thread other than the context's. */
	PREVIEW_INTERACTION_CLIENT_ERROR_WRONG_THREAD = -7,
	/* The surface already has an interaction, of this context or of another one on the same
	 * wl_display (the protocol allows one). */
	PREVIEW_INTERACTION_CLIENT_ERROR_SURFACE_TAKEN = -8,
	/* The Wayland connection failed or libwayland refused (queue, thread or descriptor
	 * could not be created). */
	PREVIEW_INTERACTION_CLIENT_ERROR_WAYLAND = -9,
	/* The connection to the compositor is gone: the running presses' cancels have been
	 * delivered; nothing more will come. Destroy the context. */
	PREVIEW_INTERACTION_CLIENT_ERROR_DISCONNECTED = -10,
	/* Too many interactions on one context (see docs/preview-interaction.md). */
	PREVIEW_INTERACTION_CLIENT_ERROR_LIMIT = -11,
	/* Not allowed from inside one of the context's callbacks (destroying the context). */
	PREVIEW_INTERACTION_CLIENT_ERROR_BUSY = -12,
	/* The compositor's global is bound at protocol version 1 (or, for get_settings, no
	 * settings have arrived: no global): the version 2 call did nothing. Since 1.2. */
	PREVIEW_INTERACTION_CLIENT_ERROR_UNSUPPORTED = -13,
	/* The press is not running yet: its should_begin is not accepted (play_haptic). Nothing
	 * was sent. Since 1.2. */
	PREVIEW_INTERACTION_CLIENT_ERROR_NOT_RUNNING = -14,
};

/* A short English description of a status ("invalid argument"); never NULL. */
const char *preview_interaction_client_status_string(int status);

/* The library's version: (major << 16) | (minor << 8) | patch, and as text. Compare with
 * PREVIEW_INTERACTION_CLIENT_VERSION_NUMBER to find a header/library mismatch at run time. */
uint32_t preview_interaction_client_version(void);
const char *preview_interaction_client_version_string(void);

/* The kind of device that drives a press (the protocol's source). The numbers of the phases,
 * cancel reasons and sources are the project's one vocabulary (the GTK and Qt adapters carry
 * the same ones). */
enum preview_interaction_client_source {
	/* No press, or a value this library does not know (a newer compositor). NONE since 1.4. */
	PREVIEW_INTERACTION_CLIENT_SOURCE_NONE = 0,
	PREVIEW_INTERACTION_CLIENT_SOURCE_UNKNOWN = PREVIEW_INTERACTION_CLIENT_SOURCE_NONE,
	PREVIEW_INTERACTION_CLIENT_SOURCE_PEN = 1,
	PREVIEW_INTERACTION_CLIENT_SOURCE_TOUCHPAD = 2,
	PREVIEW_INTERACTION_CLIENT_SOURCE_TOUCHSCREEN = 3,
	/* A pointer button without force: the compositor simulates force from a long press. */
	PREVIEW_INTERACTION_CLIENT_SOURCE_POINTER = 4,
	/* The keyboard's preview key, held (by default Menu or Shift+F10), with simulated force,
	 * at the interaction's focus point. Protocol version 2; since 1.2. */
	PREVIEW_INTERACTION_CLIENT_SOURCE_KEYBOARD = 5,
};

/* A set of sources, for preview_interaction_client_interaction_set_sources: a source s has
 * the bit 1 << (s - 1). */
enum preview_interaction_client_sources {
	PREVIEW_INTERACTION_CLIENT_SOURCES_NONE = 0,
	PREVIEW_INTERACTION_CLIENT_SOURCES_PEN = 1,
	PREVIEW_INTERACTION_CLIENT_SOURCES_TOUCHPAD = 2,
	PREVIEW_INTERACTION_CLIENT_SOURCES_TOUCHSCREEN = 4,
	PREVIEW_INTERACTION_CLIENT_SOURCES_POINTER = 8,
	/* The preview key (since 1.2; protocol version 2, ignored on version 1). It takes effect
	 * only while the interaction has a focus point (set_focus_point): an app that gives the
	 * point of its focused item gets keyboard presses with no other change, and an app that
	 * gives none keeps the key's usual meaning. */
	PREVIEW_INTERACTION_CLIENT_SOURCES_KEYBOARD = 16,
	/* Every source (the initial set). 15 before 1.2: an app built against 1.1 that sets
	 * sources explicitly leaves the keyboard out. */
	PREVIEW_INTERACTION_CLIENT_SOURCES_ALL = 31,
};

/* Whether progress follows a measured force, or one the compositor simulates from the
 * duration of a long press (progress then grows with time, not with effort). */
enum preview_interaction_client_force {
	PREVIEW_INTERACTION_CLIENT_FORCE_UNKNOWN = 0,
	PREVIEW_INTERACTION_CLIENT_FORCE_MEASURED = 1,
	PREVIEW_INTERACTION_CLIENT_FORCE_SIMULATED = 2,
};

/* Where a press is. */
enum preview_interaction_client_phase {
	/* No press yet (an item's before its first; since 1.3). */
	PREVIEW_INTERACTION_CLIENT_PHASE_NONE = 0,
	/* should_begin was delivered; no progress yet (the answer may still be pending). */
	PREVIEW_INTERACTION_CLIENT_PHASE_ASKING = 1,
	PREVIEW_INTERACTION_CLIENT_PHASE_PREVIEW = 2,
	PREVIEW_INTERACTION_CLIENT_PHASE_COMMIT = 3,
	PREVIEW_INTERACTION_CLIENT_PHASE_COMPLETED = 4,
	PREVIEW_INTERACTION_CLIENT_PHASE_CANCELLED = 5,
	/* An ACCELERATOR press after the answer: press->stage is its level (0 before the first
	 * stage callback). Since 1.2 (named STAGE before 1.4). */
	PREVIEW_INTERACTION_CLIENT_PHASE_ACCELERATING = 6,
	PREVIEW_INTERACTION_CLIENT_PHASE_STAGE = PREVIEW_INTERACTION_CLIENT_PHASE_ACCELERATING,
	/* Declined (by the app, or by the library for a press no item takes): nothing more is
	 * reported about it; its cancel_reason is DECLINED. Since 1.4: before, such a press read
	 * CANCELLED (with cancel_reason DECLINED). */
	PREVIEW_INTERACTION_CLIENT_PHASE_DECLINED = 7,
};

/* What force means where a press begins (protocol version 2; the protocol's behaviour), like
 * a view's pressure configuration on another platform. Since 1.2. */
enum preview_interaction_client_behaviour {
	/* The preview and commit phases (version 1's behaviour; the default everywhere). */
	PREVIEW_INTERACTION_CLIENT_BEHAVIOUR_DEEP_CLICK = 1,
	/* No interaction at all: the app reads raw pressure from core input (a drawing canvas).
	 * Never the behaviour of a press (nothing begins there). */
	PREVIEW_INTERACTION_CLIENT_BEHAVIOUR_GENERIC = 2,
	/* The force selects one of 2...5 stage levels, reported with the stage callback instead
	 * of preview and commit (fast-forward speed, a zoom step). The press ends with the commit
	 * callback (1, ended = true) when the contact lifts (keep what the control did), or
	 * cancelled; core input is never taken away from it. */
	PREVIEW_INTERACTION_CLIENT_BEHAVIOUR_ACCELERATOR = 3,
};

/* A short haptic effect for play_haptic (the protocol's haptic_effect); the compositor
 * chooses the waveform, at the user's intensity. Since 1.2. */
enum preview_interaction_client_haptic_effect {
	/* A light, short click: a selection moved (a quick action highlighted). */
	PREVIEW_INTERACTION_CLIENT_HAPTIC_TICK = 1,
	/* A firmer click: something settled into place (a detent, a snap point). */
	PREVIEW_INTERACTION_CLIENT_HAPTIC_SNAP = 2,
	/* A distinct click: an action was chosen (a quick action performed). */
	PREVIEW_INTERACTION_CLIENT_HAPTIC_CONFIRM = 3,
};

/* The user's settings (protocol version 2, the manager's settings group). Since 1.2. */
enum preview_interaction_client_sensitivity {
	PREVIEW_INTERACTION_CLIENT_SENSITIVITY_LIGHT = 1,
	PREVIEW_INTERACTION_CLIENT_SENSITIVITY_MEDIUM = 2,
	PREVIEW_INTERACTION_CLIENT_SENSITIVITY_FIRM = 3,
	/* Thresholds that match no preset: see the thresholds. */
	PREVIEW_INTERACTION_CLIENT_SENSITIVITY_CUSTOM = 4,
};

enum preview_interaction_client_haptics_setting {
	/* No effect is ever played, the compositor's own or an app's. */
	PREVIEW_INTERACTION_CLIENT_HAPTICS_OFF = 0,
	PREVIEW_INTERACTION_CLIENT_HAPTICS_LIGHT = 1,
	PREVIEW_INTERACTION_CLIENT_HAPTICS_MEDIUM = 2,
	PREVIEW_INTERACTION_CLIENT_HAPTICS_STRONG = 3,
};

enum preview_interaction_client_completion {
	/* The commit phase completes when the force reaches the completion threshold. */
	PREVIEW_INTERACTION_CLIENT_COMPLETION_ON_FORCE = 1,
	/* It completes when the contact lifts (or the key is released) in the commit phase. */
	PREVIEW_INTERACTION_CLIENT_COMPLETION_ON_RELEASE = 2,
};

/*
 * The user's settings, so an app's own recogniser (on raw tablet pressure, say) agrees with
 * the compositor. They are the user's: nothing lets an app change them. Filled by
 * preview_interaction_client_get_settings and passed to settings_changed. The caller of
 * get_settings sets `size` to sizeof the struct; members are only ever added at the end. Since
 * 1.2.
 */
struct preview_interaction_client_settings {
	size_t size; /* sizeof(struct preview_interaction_client_settings) */
	enum preview_interaction_client_sensitivity sensitivity;
	/* The preset's thresholds on a force normalised to 0...1 of the device (a tablet tool's
	 * pressure / 65535): begin asks should_begin, commit begins the commit phase, complete
	 * completes it (completion ON_FORCE). begin < commit < complete <= 1. */
	double begin_threshold, commit_threshold, complete_threshold;
	/* How long a contact without force, or the preview key, is held before should_begin. */
	uint32_t long_press_ms;
	enum preview_interaction_client_haptics_setting haptics;
	enum preview_interaction_client_completion completion;
};

/* Why a press ended without completing (the protocol's cancel_reason). Informative: the
 * app undoes its visual effects whatever the reason. */
enum preview_interaction_client_cancel_reason {
	PREVIEW_INTERACTION_CLIENT_CANCEL_NONE = 0,
	/* The finger or tool left, or the button was released. */
	PREVIEW_INTERACTION_CLIENT_CANCEL_LIFTED = 1,
	/* The app cancelled (preview_interaction_client_interaction_cancel). */
	PREVIEW_INTERACTION_CLIENT_CANCEL_CLIENT_CANCELLED = 2,
	/* Never delivered: a declined press gets no callback after should_begin. */
	PREVIEW_INTERACTION_CLIENT_CANCEL_DECLINED = 3,
	/* The app did not answer should_begin within the compositor's wait. */
	PREVIEW_INTERACTION_CLIENT_CANCEL_TIMEOUT = 4,
	PREVIEW_INTERACTION_CLIENT_CANCEL_DEVICE_REMOVED = 5,
	/* The surface was destroyed. */
	PREVIEW_INTERACTION_CLIENT_CANCEL_SURFACE_GONE = 6,
	/* The device lost events, or the compositor broke the protocol's order for this press
	 * (the library logs what it saw). */
	PREVIEW_INTERACTION_CLIENT_CANCEL_DESYNCHRONISED = 7,
	/* A long-press contact moved too far before its force was simulated. */
	PREVIEW_INTERACTION_CLIENT_CANCEL_MOVED = 8,
	/* The compositor cancelled it (focus change, grab, shutdown), the connection to the
	 * compositor was lost, or the global went away. */
	PREVIEW_INTERACTION_CLIENT_CANCEL_SYSTEM = 9,
	/* The user pressed Escape (protocol version 2; since 1.2). */
	PREVIEW_INTERACTION_CLIENT_CANCEL_DISMISSED = 10,
	/* Values above are a newer compositor's reasons: treat them as SYSTEM. */
};

/* The protocol's name of a reason ("lifted", "client_cancelled", ...), "unknown" for others;
 * never NULL. Likewise for sources ("pen", ...). */
const char *preview_interaction_client_cancel_reason_string(uint32_t reason);
const char *preview_interaction_client_source_string(uint32_t source);

/* The answer of a should_begin callback. */
enum preview_interaction_client_answer {
	/* The press may become a preview interaction (UIKit's YES). */
	PREVIEW_INTERACTION_CLIENT_ANSWER_ACCEPT = 1,
	/* It may not: nothing more is reported about it, its core input stays the app's. */
	PREVIEW_INTERACTION_CLIENT_ANSWER_DECLINE = 2,
	/* The app answers later with preview_interaction_client_interaction_answer(), on the
	 * context's thread, within the compositor's should-begin wait (150 ms by default, the
	 * user's setting); without an answer in time the press is cancelled with TIMEOUT. */
	PREVIEW_INTERACTION_CLIENT_ANSWER_LATER = 3,
};

enum preview_interaction_client_log_level {
	PREVIEW_INTERACTION_CLIENT_LOG_DEBUG = 1,
	PREVIEW_INTERACTION_CLIENT_LOG_INFO = 2,
	/* The compositor broke the protocol (the press concerned was cancelled). */
	PREVIEW_INTERACTION_CLIENT_LOG_WARNING = 3,
	/* The app misused the API (the call returned an error), or the connection failed. */
	PREVIEW_INTERACTION_CLIENT_LOG_ERROR = 4,
};

/* One press (one finger, pen or button), as every interaction callback sees it. Owned by
 * the library, valid during the call only; members are only ever added at the end. */
struct preview_interaction_client_press {
	/* Unique on its interaction, from 1, increasing (the protocol's interaction number). */
	uint32_t id;
	enum preview_interaction_client_source source;
	enum preview_interaction_client_force force;
	enum preview_interaction_client_phase phase;
	/* The progress of the current phase, 0...1 (1 once completed). */
	double progress;
	/* Where the contact is, in the surface's coordinates (the units of wl_pointer.motion);
	 * may lie outside the surface while the contact moves. During the commit phase this is
	 * the only source of the contact's position: the compositor takes the contact away
	 * from core input (the protocol's rules). */
	double x, y;
	/* The timestamp of the latest hardware event about the press, in microseconds on the
	 * clock of core input event times (divided by 1000 and truncated to 32 bits it is
	 * their `time`). */
	uint64_t time_usec;
	/* CANCELLED only (else NONE). */
	enum preview_interaction_client_cancel_reason cancel_reason;
	/* Since 1.2 (protocol version 2; on version 1: DEEP_CLICK, 0, 0, false). The press's
	 * behaviour, fixed for its life (known at should_begin); for an ACCELERATOR its number of
	 * stages, else 0. */
	enum preview_interaction_client_behaviour behaviour;
	uint32_t stages;
	/* An ACCELERATOR's level, 1...stages, once the first stage callback came (else 0). */
	uint32_t stage;
	/* Whether haptic effects asked for with play_haptic can be felt for this press: its
	 * device has actuators and the user has haptics on (never for the keyboard). Known at
	 * should_begin; changes are reported with haptics_changed. */
	bool haptics_available;
};

/*
 * What the context tells the app. Every member may be NULL.
 */
struct preview_interaction_client_callbacks {
	size_t size; /* sizeof(struct preview_interaction_client_callbacks) */

	/* The compositor's global appeared or went away after create (create itself reports
	 * the first state: preview_interaction_client_is_available). When it goes away, every
	 * running press is cancelled (SYSTEM) and interactions stay attached but receive
	 * nothing; when it appears, attached interactions start working on their surface's
	 * next wl_surface.commit. Called from dispatch. */
	void (*availability_changed)(void *user_data, struct preview_interaction_client *context, bool available);
	/* The library's messages (a compositor breaking the protocol, the app's misuse). NULL:
	 * warnings and errors go to stderr. Called on the context's thread since 1.4 (on the
	 * reader's too before): keep it short. */
	void (*log)(void *user_data, enum preview_interaction_client_log_level level, const char *message);

	/* Since 1.2. The user changed a setting (protocol version 2): `settings` holds every
	 * value, applied together. Called from dispatch, for each change after create (create
	 * itself reads the first settings: get_settings), and when a global of version 2
	 * appears. */
	void (*settings_changed)(void *user_data, struct preview_interaction_client *context,
		const struct preview_interaction_client_settings *settings);
};

/*
 * What an interaction tells the app about its presses (UIPreviewInteractionDelegate).
 * Every member may be NULL. Each is called on the context's thread, from dispatch (or
 * from the cancel calls for CLIENT_CANCELLED), with the interaction's user_data.
 */
struct preview_interaction_client_interaction_callbacks {
	size_t size; /* sizeof(struct preview_interaction_client_interaction_callbacks) */

	/* A press began on the surface: may it become a preview interaction
	 * (previewInteractionShouldBegin:)? Return ACCEPT or DECLINE to answer now, or LATER
	 * and answer with preview_interaction_client_interaction_answer(). press->x, press->y
	 * say where (route it to the widget under it). NULL: every press is accepted (UIKit's
	 * default). */
	enum preview_interaction_client_answer (*should_begin)(void *user_data,
		struct preview_interaction_client_interaction *interaction,
		const struct preview_interaction_client_press *press);

	/* Progress through the preview phase, 0...1, repeatedly; it may go down, and it is
	 * repeated at the same progress when the contact moved. `ended` is true once, with
	 * progress 1: the commit phase begins and no preview call follows
	 * (didUpdatePreviewTransition:ended:). */
	void (*preview)(void *user_data, struct preview_interaction_client_interaction *interaction,
		const struct preview_interaction_client_press *press, double progress, bool ended);

	/* Progress through the commit phase, 0...1, repeatedly (and when the contact moved).
	 * `ended` true: the press completed; perform the action now, once; nothing follows
	 * (didUpdateCommitTransition:ended:). */
	void (*commit)(void *user_data, struct preview_interaction_client_interaction *interaction,
		const struct preview_interaction_client_press *press, double progress, bool ended);

	/* The press ended without completing (previewInteractionDidCancel:): undo its visual
	 * effects. `reason` is also press->cancel_reason. Not called for a press the app
	 * declined, nor after completion; once per press. */
	void (*cancelled)(void *user_data, struct preview_interaction_client_interaction *interaction,
		const struct preview_interaction_client_press *press, enum preview_interaction_client_cancel_reason reason);

	/* Since 1.2 (protocol version 2). An ACCELERATOR press's level, 1...press->stages: the
	 * first after the app accepted, then at every change, up or down (possibly by more than
	 * one level; a busy app gets the latest). Also press->stage. */
	void (*stage)(void *user_data, struct preview_interaction_client_interaction *interaction,
		const struct preview_interaction_client_press *press, uint32_t stage);

	/* Since 1.2 (protocol version 2). Whether effects can be felt for a running press changed
	 * (the user turned haptics on or off); the value at should_begin is
	 * press->haptics_available, and this is called only for later changes. */
	void (*haptics_changed)(void *user_data, struct preview_interaction_client_interaction *interaction,
		const struct preview_interaction_client_press *press, bool available);
};

/*
 * Creates the library's state on the app's `display` (the toolkit's connection; GTK:
 * gdk_wayland_display_get_wl_display). Makes a wl_event_queue and a wl_registry of its own,
 * does one roundtrip on that queue (the app's queues are not dispatched) and binds
 * spi_preview_interaction_manager_v1 and wl_compositor (for regions) if the compositor has
 * them, then starts its reading thread: for an app that dispatches no queue the library could
 * live on (see create_on_queue, which costs less). `callbacks` (may be NULL) is copied;
 * `user_data` is passed to its members.
 *
 * A compositor without the global is not an error: the context is made, reports
 * unavailable (preview_interaction_client_is_available), and interactions can still be
 * attached: they receive nothing (the app works as before, with no message above DEBUG).
 *
 * Errors: INVALID_ARGUMENT (NULL display or out), WAYLAND (the roundtrip failed: the
 * connection is broken; or no thread, queue or descriptor could be made). *out is NULL then.
 */
int preview_interaction_client_create(struct wl_display *display,
	const struct preview_interaction_client_callbacks *callbacks, void *user_data,
	struct preview_interaction_client **out);

/*
 * As create, for an app that dispatches `queue` on this thread in its own loop (NULL: the
 * display's default queue, which a toolkit's loop dispatches; GTK, Qt and most apps do): the
 * library looks for the global on a queue of its own as create does, then moves its objects
 * to `queue` and starts no thread. The app's own reading and dispatching of `queue` run the
 * library's listeners (the client core, the acknowledgements) on this thread, and the
 * descriptor turns readable when callbacks wait: callbacks still come from dispatch(). Dispatch
 * `queue` on this thread only (events dispatched elsewhere are dropped with an error). When the
 * app's own dispatch fails (the connection is lost), call dispatch(): it ends the running
 * presses (SYSTEM) and returns DISCONNECTED. Errors as create. Since 1.4.
 */
int preview_interaction_client_create_on_queue(struct wl_display *display, struct wl_event_queue *queue,
	const struct preview_interaction_client_callbacks *callbacks, void *user_data,
	struct preview_interaction_client **out);

/* Detaches every interaction (their handles become invalid; no callback is made), stops the
 * reading thread (if any), closes the descriptor and frees everything. Call it before
 * wl_display_disconnect. The handle is invalid afterwards. From inside one of the context's
 * callbacks it returns BUSY and does nothing (destroy it once dispatch has returned). */
int preview_interaction_client_destroy(struct preview_interaction_client *context);

/* Whether the compositor has preview interactions (the global is bound). */
int preview_interaction_client_is_available(struct preview_interaction_client *context, bool *available);

/* The descriptor the app polls for reading (POLLIN; GLib: g_unix_fd_add or a GSource with
 * G_IO_IN; Qt: QSocketNotifier::Read). It is readable while callbacks are waiting for
 * preview_interaction_client_dispatch(), and when the connection failed (dispatch then
 * reports DISCONNECTED). Level-triggered: dispatch clears it. Owned by the library: do not
 * read or close it. The same descriptor for the context's life. */
int preview_interaction_client_get_fd(struct preview_interaction_client *context, int *fd);

/* Makes every callback whose events were read so far (by the library's reader, or by the app's
 * dispatch of its queue), in the order the compositor sent them, then sends the answers given.
 * Never blocks. Returns OK, or
 * DISCONNECTED once the connection to the compositor is lost (after delivering the running
 * presses' cancels with SYSTEM). Calling it with nothing waiting is fine. */
int preview_interaction_client_dispatch(struct preview_interaction_client *context);

/* The protocol version the compositor's global is bound at: 1 or 2, 0 while it has none. A
 * global of version 3 or later reports 2: version 3 changes only how the library acknowledges
 * frames, nothing an app sees. Since 1.2. */
int preview_interaction_client_get_protocol_version(struct preview_interaction_client *context, uint32_t *version);

/* The user's settings as the compositor last told them (set settings->size first; filled as
 * far as it goes). UNSUPPORTED: the global is of version 1, or there is none (settings
 * unknown). INVALID_ARGUMENT: NULL, or a size smaller than size_t. Since 1.2. */
int preview_interaction_client_get_settings(struct preview_interaction_client *context,
	struct preview_interaction_client_settings *settings);

/* The user_data given to create. */
int preview_interaction_client_get_user_data(struct preview_interaction_client *context, void **user_data);

/* A rectangle in surface coordinates, for regions. Empty or negative sizes add nothing. */
struct preview_interaction_client_rect {
	int32_t x, y, width, height;
};

/*
 * The interaction calls of 1.0: wrappers over a surface with one item (see "One API" above).
 *
 * Attaches preview interactions to `surface` (UIPreviewInteraction(view:); the protocol's
 * get_interaction): presses that begin on it may be reported to `callbacks` (copied; may be
 * NULL, then every press is accepted and nothing is reported: useful only to test), with
 * `user_data`. The initial state is enabled, all sources, the whole surface; like every
 * setting it applies on the surface's next wl_surface.commit.
 *
 * Detach before destroying the surface. Works while the compositor has no global (the
 * interaction receives nothing until it has).
 *
 * Errors: INVALID_ARGUMENT (NULL surface or out), SURFACE_TAKEN, LIMIT.
 */
int preview_interaction_client_interaction_attach(struct preview_interaction_client *context,
	struct wl_surface *surface, const struct preview_interaction_client_interaction_callbacks *callbacks,
	void *user_data, struct preview_interaction_client_interaction **out);

/* Detaches (the protocol's destroy): no more callbacks; running presses end without any
 * (the app undoes their effects itself if it wants). The handle is invalid afterwards. May
 * be called from the interaction's own callback. */
int preview_interaction_client_interaction_detach(struct preview_interaction_client_interaction *interaction);

/* The user_data given to attach. */
int preview_interaction_client_interaction_get_user_data(struct preview_interaction_client_interaction *interaction,
	void **user_data);

/* Where presses may begin, in surface coordinates: the union of `count` rectangles
 * (replacing the previous region). `rects` NULL with `count` 0: the whole surface (the
 * initial state); `rects` non-NULL with `count` 0: nowhere. The surface's input region
 * still applies. Applies on the surface's next wl_surface.commit, to presses that begin
 * afterwards. At most 4096 rectangles (INVALID_ARGUMENT beyond). */
int preview_interaction_client_interaction_set_region(struct preview_interaction_client_interaction *interaction,
	const struct preview_interaction_client_rect *rects, uint32_t count);

/* The kinds of devices that may begin presses (enum preview_interaction_client_sources
 * bits; ALL initially): a drawing app may keep the pen for drawing. Other bits:
 * INVALID_ARGUMENT. Applies on the next wl_surface.commit. */
int preview_interaction_client_interaction_set_sources(struct preview_interaction_client_interaction *interaction,
	uint32_t sources);

/* Whether new presses may begin at all (true initially); sources are kept. Applies on the
 * next wl_surface.commit; running presses continue. */
int preview_interaction_client_interaction_set_enabled(struct preview_interaction_client_interaction *interaction,
	bool enabled);

/* Answers a should_begin whose callback returned LATER (or that had no chance to return:
 * it is fine to answer from inside the callback and return LATER). Errors: UNKNOWN_PRESS,
 * ALREADY_ANSWERED, PRESS_ENDED (a timeout came first: harmless). Declining delivers
 * nothing more for the press. */
int preview_interaction_client_interaction_answer(struct preview_interaction_client_interaction *interaction,
	uint32_t press, bool accept);

/* Cancels one running press (the protocol's cancel): its cancelled callback (reason
 * CLIENT_CANCELLED) is made before this call returns, or, when called from a callback of
 * this interaction, right after that callback returns; nothing more is reported about it.
 * A press still waiting for its answer is cancelled the same way (the compositor takes the
 * cancel as a decline). Errors: UNKNOWN_PRESS, PRESS_ENDED. */
int preview_interaction_client_interaction_cancel(struct preview_interaction_client_interaction *interaction,
	uint32_t press);

/* Cancels every running press of the interaction (UIKit's cancelInteraction), as above. */
int preview_interaction_client_interaction_cancel_all(struct preview_interaction_client_interaction *interaction);

/* Presses announced and not ended yet (asking, preview or commit). */
int preview_interaction_client_interaction_running_count(struct preview_interaction_client_interaction *interaction,
	uint32_t *count);

/* Commits the surface (wl_surface_commit) saying which interaction frames the picture shows:
 * the acknowledgement of the last frame whose callbacks the app has had is repeated right
 * before the commit, with no other acknowledgement in between, so a compositor that
 * photographs phases takes the picture that shows them. Optional: a plain
 * wl_surface_commit works too (the toolkit's own commit). */
int preview_interaction_client_interaction_commit_surface(struct preview_interaction_client_interaction *interaction);

/*
 * For toolkits that commit the surface on their own (GTK, Qt): by default the library
 * acknowledges frames as it handles them, so a commit can be taken for one showing frames
 * the app has not drawn yet. With `hold` true the library keeps the acknowledgement of every
 * frame that gave the app callbacks, and the toolkit calls
 * preview_interaction_client_interaction_will_commit() on the app's thread right before
 * each picture it commits (GTK: the frame clock's "before-paint", emitted on every frame
 * clock cycle before the paint that commits; Qt: QWindow's frame-swap or update request).
 * Frames that gave the app nothing are still acknowledged as handled, and turning `hold` off
 * acknowledges what was handled.
 *
 * Flow control then follows the toolkit's frame cycle (the compositor sends fresh
 * progress once the frame clock has run after a dispatch; BENCHMARKS.md): the toolkit
 * must run a cycle soon after every dispatch (GTK: gdk_frame_clock_request_phase), or the
 * compositor, after 150 ms owed, declines new presses on the app's behalf. Initially
 * false. Since 1.1.
 */
int preview_interaction_client_interaction_set_hold_acks(struct preview_interaction_client_interaction *interaction,
	bool hold);

/*
 * The toolkit is about to draw and commit a picture that shows every callback made so far:
 * acknowledges the last frame whose callbacks were made (or every frame read, if no callback
 * waits for dispatch), sent from the app's thread ahead of the commit it makes next.
 * `serial` (may be NULL) receives the last frame serial acknowledged (0: none yet). Cheap
 * and harmless to call on every frame, also without hold (it then sends nothing new).
 * Since 1.1.
 */
int preview_interaction_client_interaction_will_commit(struct preview_interaction_client_interaction *interaction,
	uint32_t *serial);

/*
 * Protocol version 2 (since 1.2). Settings of an interaction (focus point, behaviours) are
 * kept by the library and sent again if the global comes back; like set_region they apply on
 * the surface's next wl_surface.commit. While the global is bound at version 1 they return
 * UNSUPPORTED (the values are kept for a later global of version 2); with no global they
 * return OK.
 */

/*
 * The point, in surface coordinates, of the item that has the app's keyboard focus (the item a
 * context-menu key acts on): a keyboard press (the user's preview key, held) begins there, as
 * a press with source KEYBOARD and force SIMULATED that runs the preview and commit like a long
 * press. Keyboard presses begin only while a focus point is set (and KEYBOARD is among the
 * sources, as it is initially): giving the point is the only change an app needs. A tap of the
 * key reaches the app as an ordinary key press. Non-finite: INVALID_ARGUMENT.
 */
int preview_interaction_client_interaction_set_focus_point(struct preview_interaction_client_interaction *interaction,
	double x, double y);

/* No item has focus: keyboard presses no longer begin on the surface (the key keeps its usual
 * meaning). The initial state. */
int preview_interaction_client_interaction_unset_focus_point(
	struct preview_interaction_client_interaction *interaction);

/* One area for set_behaviours: `rects` NULL with `rect_count` 0 is the whole surface. */
struct preview_interaction_client_behaviour_area {
	enum preview_interaction_client_behaviour behaviour;
	/* ACCELERATOR: 2...5; the other behaviours: 0. */
	uint32_t stages;
	const struct preview_interaction_client_rect *rects;
	uint32_t rect_count;
};

/*
 * What force means on each part of the surface, replacing the previous list: at a point, the
 * last area that contains it decides; where none does, DEEP_CLICK. `count` 0 (areas may then
 * be NULL): DEEP_CLICK everywhere, the initial state. A press keeps the behaviour of the point
 * where it began (for the keyboard, the focus point). At most 32 areas of at most 4096
 * rectangles; a behaviour or number of stages the protocol does not allow: INVALID_ARGUMENT
 * (nothing sent).
 */
int preview_interaction_client_interaction_set_behaviours(struct preview_interaction_client_interaction *interaction,
	const struct preview_interaction_client_behaviour_area *areas, uint32_t count);

/*
 * Asks for a short haptic effect for a running press (a quick action highlighted in the
 * preview: TICK), played on the device that drives it. Sent only while the press runs (after
 * the app accepted, until its end): NOT_RUNNING before the answer, PRESS_ENDED after its end,
 * UNKNOWN_PRESS; nothing is sent then. The compositor still drops it where effects cannot be
 * felt (press->haptics_available false), within 50 ms of the press's previous effect, and
 * when the user turned haptics off: OK means sent, not felt. Another effect value:
 * INVALID_ARGUMENT. UNSUPPORTED on version 1.
 */
int preview_interaction_client_interaction_play_haptic(struct preview_interaction_client_interaction *interaction,
	uint32_t press, enum preview_interaction_client_haptic_effect effect);

/* Whether effects can be felt for a press now (its latest haptics state; false on version
 * 1). Errors: UNKNOWN_PRESS, PRESS_ENDED. */
int preview_interaction_client_interaction_haptics_available(struct preview_interaction_client_interaction *interaction,
	uint32_t press, bool *available);

/*
 * Surfaces with items (since 1.3).
 *
 * A toolkit has several widgets with preview interactions in one window, but the protocol
 * allows one object per wl_surface. A surface (struct preview_interaction_client_surface)
 * is that object; an item (struct preview_interaction_client_item) is one widget on it, with
 * a rectangle, a depth, sources, enabled, a behaviour and stages. The library:
 *
 * - makes the surface's region (the union of the shown items' rectangles), its sources (the
 *   union of theirs), its behaviour areas (the items whose behaviour differs from DEEP_CLICK,
 *   and the items inside them, innermost on top; at most 32, the deepest kept) and its focus
 *   point (the focused item's, while that item takes the keyboard and the compositor speaks
 *   version 2), and sends what changed when the toolkit says its layout changed
 *   (preview_interaction_client_surface_layout_changed);
 * - routes each press at should_begin: the keyboard's to the focused item, the others to the
 *   deepest shown item whose rectangle holds the press (or to the item the surface's pick
 *   callback names); a press the item cannot take (its source, its behaviour, not enabled)
 *   is declined without a call; later callbacks follow the press by id;
 * - reports to the item's callbacks, with the item; the item's latest press, with its phase
 *   as the library's core knows it, is preview_interaction_client_item_get_press;
 * - holds acknowledgements for the toolkit's own commits (set_hold_acks, will_commit), as an
 *   interaction does.
 *
 * Item settings are recorded by the setters and take effect at the next layout_changed (one
 * batch per layout); like every setting they then apply on the surface's next
 * wl_surface.commit. Coordinates are the surface's. A surface and an interaction cannot share
 * a wl_surface (SURFACE_TAKEN). Every call is on the context's thread, as above.
 */

/* One wl_surface's protocol object, shared by its items. */
struct preview_interaction_client_surface;
/* One widget with preview interactions on a surface. */
struct preview_interaction_client_item;

/* What a surface asks of the toolkit. Every member may be NULL. */
struct preview_interaction_client_surface_callbacks {
	size_t size; /* sizeof(struct preview_interaction_client_surface_callbacks) */

	/* The item a pointer, pen or touch press at press->x, press->y belongs to, for a toolkit
	 * that hit-tests itself (an overlay above the items, widgets without items); NULL: none
	 * (the press is declined). When this member is NULL the library picks the deepest shown
	 * item whose rectangle holds the point (the last added of equal depth). Not called for
	 * keyboard presses (they go to the focused item). */
	struct preview_interaction_client_item *(*pick)(void *user_data,
		struct preview_interaction_client_surface *surface, const struct preview_interaction_client_press *press);
};

/* What an item tells the app about its presses: the interaction callbacks with the item. Every
 * member may be NULL; should_begin NULL accepts. */
struct preview_interaction_client_item_callbacks {
	size_t size; /* sizeof(struct preview_interaction_client_item_callbacks) */

	enum preview_interaction_client_answer (*should_begin)(void *user_data,
		struct preview_interaction_client_item *item, const struct preview_interaction_client_press *press);
	void (*preview)(void *user_data, struct preview_interaction_client_item *item,
		const struct preview_interaction_client_press *press, double progress, bool ended);
	/* For an ACCELERATOR press, commit (1, ended = true) is its end when the contact lifts. */
	void (*commit)(void *user_data, struct preview_interaction_client_item *item,
		const struct preview_interaction_client_press *press, double progress, bool ended);
	/* Also made by item_remove (CLIENT_CANCELLED) and surface_detach (SURFACE_GONE) for the
	 * presses they end. */
	void (*cancelled)(void *user_data, struct preview_interaction_client_item *item,
		const struct preview_interaction_client_press *press, enum preview_interaction_client_cancel_reason reason);
	void (*stage)(void *user_data, struct preview_interaction_client_item *item,
		const struct preview_interaction_client_press *press, uint32_t stage);
	void (*haptics_changed)(void *user_data, struct preview_interaction_client_item *item,
		const struct preview_interaction_client_press *press, bool available);

	/* Since 1.4. The phase of the item's latest press changed (a new press, the app's answer
	 * declining it, the preview, the commit, its end): press->phase is the new one. Made before
	 * the callback of the call that changed it, and only then: a toolkit that shows the phase
	 * as a property notifies it here and keeps no phase of its own. */
	void (*phase_changed)(void *user_data, struct preview_interaction_client_item *item,
		const struct preview_interaction_client_press *press);
	/* Since 1.4. An ACCELERATOR press ended as the contact lifted (press->phase COMPLETED,
	 * press->stage 0): when set, made instead of commit (1, ended = true), for toolkits that
	 * have no commit phase to tell for an accelerator. */
	void (*accelerator_ended)(void *user_data, struct preview_interaction_client_item *item,
		const struct preview_interaction_client_press *press);
};

/*
 * Attaches a surface with items to `surface`: the protocol object is made now (or when the
 * global appears). No item yet: presses begin nowhere (the region is empty) until items are
 * added and layout_changed is called. `callbacks` may be NULL (copied).
 * Errors: INVALID_ARGUMENT, SURFACE_TAKEN, LIMIT.
 */
int preview_interaction_client_surface_attach(struct preview_interaction_client *context,
	struct wl_surface *surface, const struct preview_interaction_client_surface_callbacks *callbacks,
	void *user_data, struct preview_interaction_client_surface **out);

/* Detaches the surface (before the wl_surface is destroyed): each running press's item gets
 * cancelled (SURFACE_GONE) before this returns, then the items' handles and the surface's
 * become invalid. May be called from an item's callback (the rest of its calls are dropped). */
int preview_interaction_client_surface_detach(struct preview_interaction_client_surface *surface);

int preview_interaction_client_surface_get_user_data(struct preview_interaction_client_surface *surface,
	void **user_data);

/*
 * The toolkit's layout is done (allocations, scrolling, visibility, focus, or an item's
 * settings changed): the region, sources, behaviours and focus point are made again from the
 * items and what differs from what was sent is sent. `changed` (may be NULL) is set to whether
 * anything was sent: the toolkit then makes sure a wl_surface.commit follows (queue a redraw).
 */
int preview_interaction_client_surface_layout_changed(struct preview_interaction_client_surface *surface,
	bool *changed);

/*
 * The item that has the keyboard focus, and where a keyboard press begins, in surface
 * coordinates (the focused item's centre, or the point of the thing inside it the app
 * considers focused). NULL: no item has focus (the initial state). The point is sent only
 * while the item is shown, enabled, takes KEYBOARD and is not GENERIC, and the compositor
 * speaks version 2; a keyboard press then goes to that item. Takes effect at layout_changed.
 * Non-finite: INVALID_ARGUMENT. An item of another surface: INVALID_ARGUMENT.
 */
int preview_interaction_client_surface_set_focus(struct preview_interaction_client_surface *surface,
	struct preview_interaction_client_item *item, double x, double y);

/* As the interaction's calls of the same names (the surface's one protocol object). */
int preview_interaction_client_surface_set_hold_acks(struct preview_interaction_client_surface *surface, bool hold);
int preview_interaction_client_surface_will_commit(struct preview_interaction_client_surface *surface,
	uint32_t *serial);
int preview_interaction_client_surface_commit_surface(struct preview_interaction_client_surface *surface);
/* Presses announced on the surface and not ended yet, whatever their item. */
int preview_interaction_client_surface_running_count(struct preview_interaction_client_surface *surface,
	uint32_t *count);

/*
 * The toolkit got a pen's button release (a tablet tool's tip) on the surface's window, before
 * acting on it: *swallow says whether it is the release the commit phase took away, which the
 * toolkit then drops (no click). When a pen press's commit phase begins the compositor takes
 * the pen away from core input, and tablet-v2 lifts the tip before the tool leaves: that lift
 * reaches the toolkit as a release of the widget under the pen. The preview_ended that explains
 * it is read on the library's queue: while a pen press may be about to take the pen away, this
 * makes the callbacks waiting first (it may call back). Since 1.4.
 */
int preview_interaction_client_surface_pen_released(struct preview_interaction_client_surface *surface,
	bool *swallow);

/*
 * Adds an item to a surface: not shown (no rectangle), depth 0, every source, enabled,
 * DEEP_CLICK. `callbacks` may be NULL (copied). At most 4096 items on one surface: LIMIT.
 */
int preview_interaction_client_item_add(struct preview_interaction_client_surface *surface,
	const struct preview_interaction_client_item_callbacks *callbacks, void *user_data,
	struct preview_interaction_client_item **out);

/* Removes an item: its running presses are cancelled (the compositor gives the contacts
 * back) and their cancelled callbacks (CLIENT_CANCELLED) are made before this returns; then
 * its handle is invalid. If it had the focus, no item has. May be called from its own
 * callback. */
int preview_interaction_client_item_remove(struct preview_interaction_client_item *item);

int preview_interaction_client_item_get_user_data(struct preview_interaction_client_item *item, void **user_data);

/* The item's visible rectangle, surface coordinates (the part its ancestors let show); NULL
 * or an empty one: not shown (no region, no presses, no focus point). */
int preview_interaction_client_item_set_rect(struct preview_interaction_client_item *item,
	const struct preview_interaction_client_rect *rect);

/* How deep the item lies in the toolkit's tree (the window 0, its child 1, ...): a deeper item
 * lies on top, gets the presses that begin on it and keeps its own behaviour there. */
int preview_interaction_client_item_set_depth(struct preview_interaction_client_item *item, uint32_t depth);

/* As set_sources and set_enabled of an interaction, for this item. */
int preview_interaction_client_item_set_sources(struct preview_interaction_client_item *item, uint32_t sources);
int preview_interaction_client_item_set_enabled(struct preview_interaction_client_item *item, bool enabled);

/* What force means on the item: DEEP_CLICK (the default), GENERIC or ACCELERATOR with 2...5
 * stages (else stages 0); otherwise INVALID_ARGUMENT. An item gets only presses of its own
 * behaviour (a compositor of version 1 makes every press DEEP_CLICK: an ACCELERATOR item's
 * presses are then declined). */
int preview_interaction_client_item_set_behaviour(struct preview_interaction_client_item *item,
	enum preview_interaction_client_behaviour behaviour, uint32_t stages);

/* As the interaction's calls of the same names, for a press of this item (UNKNOWN_PRESS for
 * another item's). */
int preview_interaction_client_item_answer(struct preview_interaction_client_item *item, uint32_t press, bool accept);
int preview_interaction_client_item_cancel(struct preview_interaction_client_item *item, uint32_t press);
/* Cancels every running press of the item. */
int preview_interaction_client_item_cancel_all(struct preview_interaction_client_item *item);
int preview_interaction_client_item_play_haptic(struct preview_interaction_client_item *item, uint32_t press,
	enum preview_interaction_client_haptic_effect effect);
int preview_interaction_client_item_running_count(struct preview_interaction_client_item *item, uint32_t *count);

/*
 * The item's latest press (the last one routed to it) as the library's core last reported it
 * to the item (with its last callback, or after an answer): its phase (a declined press is
 * DECLINED since 1.4, CANCELLED before; its cancel_reason is DECLINED), progress, location,
 * stage, haptics. The phase a toolkit shows is this one, never one of its own. `press` is
 * filled; its id is 0 and its phase NONE before the item's first press.
 */
int preview_interaction_client_item_get_press(struct preview_interaction_client_item *item,
	struct preview_interaction_client_press *press);

#ifdef __cplusplus
}
#endif

#endif
