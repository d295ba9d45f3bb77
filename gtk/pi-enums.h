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
 *
 * The kind of device that drives a press.
 */
typedef enum {
  PI_SOURCE_NONE = 0,
  PI_SOURCE_PEN = 1,
  PI_SOURCE_TOUCHPAD = 2,
  PI_SOURCE_TOUCHSCREEN = 3,
  PI_SOURCE_POINTER = 4,
} PiSource;

/**
 * PiSources:
 * @PI_SOURCES_NONE: no device: no press begins
 * @PI_SOURCES_PEN: tablet tools
 * @PI_SOURCES_TOUCHPAD: touchpads
 * @PI_SOURCES_TOUCHSCREEN: touchscreens
 * @PI_SOURCES_POINTER: pointer buttons (long press)
 * @PI_SOURCES_ALL: every kind of device
 *
 * The kinds of devices that may begin presses: a drawing app may keep the pen for drawing.
 */
typedef enum /*< flags >*/ {
  PI_SOURCES_NONE = 0,
  PI_SOURCES_PEN = 1 << 0,
  PI_SOURCES_TOUCHPAD = 1 << 1,
  PI_SOURCES_TOUCHSCREEN = 1 << 2,
  PI_SOURCES_POINTER = 1 << 3,
  PI_SOURCES_ALL = 0xf,
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
 * @PI_PHASE_DECLINED: the app declined the press
 *
 * Where the widget's latest press is.
 */
typedef enum {
  PI_PHASE_NONE = 0,
  PI_PHASE_ASKING = 1,
  PI_PHASE_PREVIEW = 2,
  PI_PHASE_COMMIT = 3,
  PI_PHASE_COMPLETED = 4,
  PI_PHASE_CANCELLED = 5,
  PI_PHASE_DECLINED = 6,
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
} PiCancelReason;

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
