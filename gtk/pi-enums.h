/* The values of PreviewInteraction's properties and signals (the protocol's enums). */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/**
 * PiSource:
 * @PI_SOURCE_NONE: no press (or a device this library does not know)
 * @PI_SOURCE_PEN: a tablet pen or other tablet tool
 * @PI_SOURCE_TOUCHPAD: a force or pressure touchpad
 * @PI_SOURCE_TOUCHSCREEN: a touchscreen
 * @PI_SOURCE_POINTER: a pointer button without force (the compositor simulates force from a
 *   long press)
 * @PI_SOURCE_KEYBOARD: the keyboard's preview key (the user's choice; by default Menu and
 *   Shift+F10) held on the focused widget; the force is always simulated. Since: 1.1
 *
 * The kind of device that drives a press.
 */
typedef enum {
  PI_SOURCE_NONE = 0,
  PI_SOURCE_PEN = 1,
  PI_SOURCE_TOUCHPAD = 2,
  PI_SOURCE_TOUCHSCREEN = 3,
  PI_SOURCE_POINTER = 4,
  PI_SOURCE_KEYBOARD = 5,
} PiSource;

/**
 * PiSources:
 * @PI_SOURCES_NONE: no device: no press begins
 * @PI_SOURCES_PEN: tablet tools
 * @PI_SOURCES_TOUCHPAD: touchpads
 * @PI_SOURCES_TOUCHSCREEN: touchscreens
 * @PI_SOURCES_POINTER: pointer buttons (long press)
 * @PI_SOURCES_KEYBOARD: the keyboard's preview key, while the widget (or an item in it) has
 *   keyboard focus. Since: 1.1
 * @PI_SOURCES_ALL: every kind of device (without the keyboard's bit before 1.1: an app built
 *   against 1.0 that sets it leaves the keyboard out)
 *
 * The kinds of devices that may begin presses: a drawing app may keep the pen for drawing.
 */
typedef enum /*< flags >*/ {
  PI_SOURCES_NONE = 0,
  PI_SOURCES_PEN = 1 << 0,
  PI_SOURCES_TOUCHPAD = 1 << 1,
  PI_SOURCES_TOUCHSCREEN = 1 << 2,
  PI_SOURCES_POINTER = 1 << 3,
  PI_SOURCES_KEYBOARD = 1 << 4,
  PI_SOURCES_ALL = 0x1f,
} PiSources;

/**
 * PiForce:
 * @PI_FORCE_UNKNOWN: no press, or a kind this library does not know
 * @PI_FORCE_MEASURED: progress follows a force or pressure a sensor measures
 * @PI_FORCE_SIMULATED: progress is simulated from the duration of a long press: it grows
 *   with time, not with effort
 *
 * Where the progress of a press comes from.
 */
typedef enum {
  PI_FORCE_UNKNOWN = 0,
  PI_FORCE_MEASURED = 1,
  PI_FORCE_SIMULATED = 2,
} PiForce;

/**
 * PiPhase:
 * @PI_PHASE_NONE: no press has begun on the widget yet
 * @PI_PHASE_ASKING: [signal@Pi.PreviewInteraction::should-begin] was
 *   emitted; the answer may still be pending
 * @PI_PHASE_PREVIEW: the preview phase (the press grows harder)
 * @PI_PHASE_COMMIT: the commit phase: the compositor took the contact away from core input
 * @PI_PHASE_COMPLETED: the press completed: the action was performed
 * @PI_PHASE_CANCELLED: the press ended without completing
 * @PI_PHASE_ACCELERATING: an accelerator's press runs: its level is
 *   [property@Pi.PreviewInteraction:stage] (no preview or commit phase). Since: 1.1
 * @PI_PHASE_DECLINED: the app declined the press (or no widget took it)
 *
 * Where the widget's latest press is. The numbers are the project's one vocabulary, the client
 * library's and the Qt adapter's (since 2.0: before, DECLINED was 6 and ACCELERATING 7).
 */
typedef enum {
  PI_PHASE_NONE = 0,
  PI_PHASE_ASKING = 1,
  PI_PHASE_PREVIEW = 2,
  PI_PHASE_COMMIT = 3,
  PI_PHASE_COMPLETED = 4,
  PI_PHASE_CANCELLED = 5,
  PI_PHASE_ACCELERATING = 6,
  PI_PHASE_DECLINED = 7,
} PiPhase;

/**
 * PiCancelReason:
 * @PI_CANCEL_REASON_NONE: not cancelled
 * @PI_CANCEL_REASON_LIFTED: the finger or tool left, or the button was released
 * @PI_CANCEL_REASON_CLIENT_CANCELLED: the app cancelled
 *   ([method@Pi.PreviewInteraction.cancel]), or the widget went away
 * @PI_CANCEL_REASON_DECLINED: never emitted: a declined press gets no signal after
 *   should-begin
 * @PI_CANCEL_REASON_TIMEOUT: the app did not answer should-begin in time
 * @PI_CANCEL_REASON_DEVICE_REMOVED: the input device went away
 * @PI_CANCEL_REASON_SURFACE_GONE: the window's surface was destroyed
 * @PI_CANCEL_REASON_DESYNCHRONISED: the device lost events, or the compositor broke the
 *   protocol's order for this press
 * @PI_CANCEL_REASON_MOVED: a long-press contact moved too far before its force was simulated
 * @PI_CANCEL_REASON_SYSTEM: the compositor cancelled it (focus change, grab, shutdown), or
 *   the connection to it was lost; also any reason of a newer compositor
 * @PI_CANCEL_REASON_DISMISSED: the user pressed Escape. Since: 1.1
 *
 * Why a press ended without completing. Informative: undo the visual effects of the press
 * whatever the reason.
 */
typedef enum {
  PI_CANCEL_REASON_NONE = 0,
  PI_CANCEL_REASON_LIFTED = 1,
  PI_CANCEL_REASON_CLIENT_CANCELLED = 2,
  PI_CANCEL_REASON_DECLINED = 3,
  PI_CANCEL_REASON_TIMEOUT = 4,
  PI_CANCEL_REASON_DEVICE_REMOVED = 5,
  PI_CANCEL_REASON_SURFACE_GONE = 6,
  PI_CANCEL_REASON_DESYNCHRONISED = 7,
  PI_CANCEL_REASON_MOVED = 8,
  PI_CANCEL_REASON_SYSTEM = 9,
  PI_CANCEL_REASON_DISMISSED = 10,
} PiCancelReason;

/**
 * PiBehaviour:
 * @PI_BEHAVIOUR_DEEP_CLICK: presses peek and pop: the preview and commit phases (the default)
 * @PI_BEHAVIOUR_GENERIC: no preview interaction ever begins on the widget, however hard the
 *   press: it reads raw pressure from GTK's own events (a drawing canvas)
 * @PI_BEHAVIOUR_ACCELERATOR: the force selects one of a few levels,
 *   [property@Pi.PreviewInteraction:stages] of them, reported by
 *   [signal@Pi.PreviewInteraction::stage-changed] (a zoom, a scrubber's speed)
 *
 * What force means on a widget, like a view's pressure configuration on macOS.
 *
 * Since: 1.1
 */
typedef enum {
  PI_BEHAVIOUR_DEEP_CLICK = 1,
  PI_BEHAVIOUR_GENERIC = 2,
  PI_BEHAVIOUR_ACCELERATOR = 3,
} PiBehaviour;

/**
 * PiHapticEffect:
 * @PI_HAPTIC_EFFECT_TICK: a light, short click: a selection moved (a quick action highlighted)
 * @PI_HAPTIC_EFFECT_SNAP: a firmer click: something settled into place (a detent, a level)
 * @PI_HAPTIC_EFFECT_CONFIRM: a distinct click: an action was chosen
 *
 * Effects an app may ask for with [method@Pi.PreviewInteraction.play_haptic]. The
 * compositor chooses each one's waveform on the device, at the user's intensity.
 *
 * Since: 1.1
 */
typedef enum {
  PI_HAPTIC_EFFECT_TICK = 1,
  PI_HAPTIC_EFFECT_SNAP = 2,
  PI_HAPTIC_EFFECT_CONFIRM = 3,
} PiHapticEffect;

/**
 * PiSensitivity:
 * @PI_SENSITIVITY_UNKNOWN: the compositor sent no settings
 * @PI_SENSITIVITY_LIGHT: a light press previews and commits
 * @PI_SENSITIVITY_MEDIUM: the default
 * @PI_SENSITIVITY_FIRM: a firm press is needed
 * @PI_SENSITIVITY_CUSTOM: thresholds that match no preset (see
 *   [property@Pi.Settings:begin-threshold] and the others)
 *
 * The user's sensitivity preset.
 *
 * Since: 1.1
 */
typedef enum {
  PI_SENSITIVITY_UNKNOWN = 0,
  PI_SENSITIVITY_LIGHT = 1,
  PI_SENSITIVITY_MEDIUM = 2,
  PI_SENSITIVITY_FIRM = 3,
  PI_SENSITIVITY_CUSTOM = 4,
} PiSensitivity;

/**
 * PiHaptics:
 * @PI_HAPTICS_OFF: no haptic effect is ever played (also when the compositor sent no settings)
 * @PI_HAPTICS_LIGHT: light effects
 * @PI_HAPTICS_MEDIUM: medium effects
 * @PI_HAPTICS_STRONG: strong effects
 *
 * The user's haptics setting.
 *
 * Since: 1.1
 */
typedef enum {
  PI_HAPTICS_OFF = 0,
  PI_HAPTICS_LIGHT = 1,
  PI_HAPTICS_MEDIUM = 2,
  PI_HAPTICS_STRONG = 3,
} PiHaptics;

/**
 * PiCompletion:
 * @PI_COMPLETION_FORCE: the commit phase completes when the force reaches the completion
 *   threshold (the default)
 * @PI_COMPLETION_RELEASE: it completes when the contact lifts (or the key is released) in
 *   the commit phase; easing the force off below the commit threshold first cancels
 *
 * When the commit phase completes: the user's choice, for those who press hard by accident.
 *
 * Since: 1.1
 */
typedef enum {
  PI_COMPLETION_FORCE = 1,
  PI_COMPLETION_RELEASE = 2,
} PiCompletion;

/**
 * PiPreviewInteractionError:
 * @PI_PREVIEW_INTERACTION_ERROR_UNKNOWN_PRESS: no such press was deferred on this interaction
 * @PI_PREVIEW_INTERACTION_ERROR_PRESS_ENDED: the press already ended (a timeout came first)
 * @PI_PREVIEW_INTERACTION_ERROR_ALREADY_ANSWERED: the press was already answered
 * @PI_PREVIEW_INTERACTION_ERROR_FAILED: the connection to the compositor failed
 *
 * Errors of [method@Pi.PreviewInteraction.answer].
 */
typedef enum {
  PI_PREVIEW_INTERACTION_ERROR_UNKNOWN_PRESS,
  PI_PREVIEW_INTERACTION_ERROR_PRESS_ENDED,
  PI_PREVIEW_INTERACTION_ERROR_ALREADY_ANSWERED,
  PI_PREVIEW_INTERACTION_ERROR_FAILED,
} PiPreviewInteractionError;

G_END_DECLS
