/* What the display's client tells the settings object: the compositor's settings groups. */
#pragma once

#include "pi-settings.h"

G_BEGIN_DECLS

/* One settings group of the compositor (applied together, at its settings_done). */
typedef struct
{
  PiSensitivity sensitivity;
  double begin, commit, complete;
  guint long_press_ms;
  PiHaptics haptics;
  PiCompletion completion;
} PiSettingsValues;

PiSettings *pi_settings_new_for_client (GdkDisplay *display);
void pi_settings_update (PiSettings *self, const PiSettingsValues *values);

G_END_DECLS
