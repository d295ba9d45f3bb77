/* The user's preview interaction settings, as the compositor tells them to apps. */
#pragma once

#include <gtk/gtk.h>

#include "pi-enums.h"

G_BEGIN_DECLS

#define PI_TYPE_SETTINGS (pi_settings_get_type ())
G_DECLARE_FINAL_TYPE (PiSettings, pi_settings, PI, SETTINGS, GObject)

PiSettings *pi_settings_get_for_display (GdkDisplay *display);
PiSettings *pi_settings_get_default (void);

GdkDisplay *pi_settings_get_display (PiSettings *self);
gboolean pi_settings_get_available (PiSettings *self);
PiSensitivity pi_settings_get_sensitivity (PiSettings *self);
double pi_settings_get_begin_threshold (PiSettings *self);
double pi_settings_get_commit_threshold (PiSettings *self);
double pi_settings_get_complete_threshold (PiSettings *self);
guint pi_settings_get_long_press_duration (PiSettings *self);
PiHaptics pi_settings_get_haptics (PiSettings *self);
PiCompletion pi_settings_get_completion (PiSettings *self);

G_END_DECLS
