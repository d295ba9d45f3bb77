#include "config.h"

#include "pi-enum-types.h"
#include "pi-settings-private.h"

/**
 * PiSettings:
 *
 * The user's preview interaction settings on a display, as the compositor tells them to
 * apps (protocol version 2): the sensitivity preset and its force thresholds, the
 * long-press duration, the haptics setting and when the commit phase completes.
 *
 * They are the user's: nothing here changes them. An app that runs a recogniser of its own
 * (on a tablet's raw pressure, say) reads them so that it agrees with the compositor, and
 * follows changes with `notify` (all properties of one change are notified together).
 * Before the compositor sent them, or on a compositor without them,
 * [property@Pi.Settings:available] is %FALSE and every property has its default.
 *
 * ```python
 * settings = Pi.Settings.get_default()
 * settings.connect("notify::long-press-duration", lambda s, _: print(s.props.long_press_duration))
 * ```
 *
 * Since: 1.1
 */
struct _PiSettings
{
  GObject parent_instance;

  GdkDisplay *display; /* weak: the settings live as long as the display's client */
  gboolean available;
  PiSettingsValues values;
};

enum
{
  PROP_0,
  PROP_DISPLAY,
  PROP_AVAILABLE,
  PROP_SENSITIVITY,
  PROP_BEGIN_THRESHOLD,
  PROP_COMMIT_THRESHOLD,
  PROP_COMPLETE_THRESHOLD,
  PROP_LONG_PRESS_DURATION,
  PROP_HAPTICS,
  PROP_COMPLETION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PiSettings, pi_settings, G_TYPE_OBJECT)

static void
pi_settings_get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  PiSettings *self = PI_SETTINGS (object);
  switch (id)
    {
    case PROP_DISPLAY:
      g_value_set_object (value, self->display);
      break;
    case PROP_AVAILABLE:
      g_value_set_boolean (value, self->available);
      break;
    case PROP_SENSITIVITY:
      g_value_set_enum (value, self->values.sensitivity);
      break;
    case PROP_BEGIN_THRESHOLD:
      g_value_set_double (value, self->values.begin);
      break;
    case PROP_COMMIT_THRESHOLD:
      g_value_set_double (value, self->values.commit);
      break;
    case PROP_COMPLETE_THRESHOLD:
      g_value_set_double (value, self->values.complete);
      break;
    case PROP_LONG_PRESS_DURATION:
      g_value_set_uint (value, self->values.long_press_ms);
      break;
    case PROP_HAPTICS:
      g_value_set_enum (value, self->values.haptics);
      break;
    case PROP_COMPLETION:
      g_value_set_enum (value, self->values.completion);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
pi_settings_class_init (PiSettingsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  object_class->get_property = pi_settings_get_property;
  const GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  /**
   * PiSettings:display:
   *
   * The display whose compositor sent the settings.
   */
  properties[PROP_DISPLAY] = g_param_spec_object ("display", NULL, NULL, GDK_TYPE_DISPLAY, flags);
  /**
   * PiSettings:available:
   *
   * Whether the compositor sent the user's settings (a compositor of protocol version 2);
   * %FALSE: every other property has its default.
   */
  properties[PROP_AVAILABLE] = g_param_spec_boolean ("available", NULL, NULL, FALSE, flags);
  /**
   * PiSettings:sensitivity:
   *
   * The user's sensitivity preset.
   */
  properties[PROP_SENSITIVITY] = g_param_spec_enum ("sensitivity", NULL, NULL, PI_TYPE_SENSITIVITY,
                                                    PI_SENSITIVITY_UNKNOWN, flags);
  /**
   * PiSettings:begin-threshold:
   *
   * The force, 0 to 1 of the device's range (a tablet tool's pressure), at which a press
   * asks [signal@Pi.PreviewInteraction::should-begin]; 0 when unknown.
   */
  properties[PROP_BEGIN_THRESHOLD] = g_param_spec_double ("begin-threshold", NULL, NULL, 0, 1, 0, flags);
  /**
   * PiSettings:commit-threshold:
   *
   * The force, 0 to 1, at which the preview phase ends and the commit phase begins; 0 when
   * unknown.
   */
  properties[PROP_COMMIT_THRESHOLD] = g_param_spec_double ("commit-threshold", NULL, NULL, 0, 1, 0, flags);
  /**
   * PiSettings:complete-threshold:
   *
   * The force, 0 to 1, at which the commit phase completes when
   * [property@Pi.Settings:completion] is %PI_COMPLETION_FORCE; 0 when unknown.
   */
  properties[PROP_COMPLETE_THRESHOLD] = g_param_spec_double ("complete-threshold", NULL, NULL, 0, 1, 0, flags);
  /**
   * PiSettings:long-press-duration:
   *
   * How long, in milliseconds, a press without force (a mouse button, the keyboard's
   * preview key) is held before it may become a preview; 0 when unknown.
   */
  properties[PROP_LONG_PRESS_DURATION] = g_param_spec_uint ("long-press-duration", NULL, NULL, 0, G_MAXUINT, 0,
                                                            flags);
  /**
   * PiSettings:haptics:
   *
   * Whether, and how strongly, the user wants haptic feedback.
   */
  properties[PROP_HAPTICS] = g_param_spec_enum ("haptics", NULL, NULL, PI_TYPE_HAPTICS, PI_HAPTICS_OFF, flags);
  /**
   * PiSettings:completion:
   *
   * When the commit phase completes.
   */
  properties[PROP_COMPLETION] = g_param_spec_enum ("completion", NULL, NULL, PI_TYPE_COMPLETION,
                                                   PI_COMPLETION_FORCE, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
pi_settings_init (PiSettings *self)
{
  self->values = (PiSettingsValues) { .sensitivity = PI_SENSITIVITY_UNKNOWN,
                                      .haptics = PI_HAPTICS_OFF,
                                      .completion = PI_COMPLETION_FORCE };
}

PiSettings *
pi_settings_new_for_client (GdkDisplay *display)
{
  PiSettings *self = g_object_new (PI_TYPE_SETTINGS, NULL);
  self->display = display;
  return self;
}

/* A settings group arrived (the compositor's settings_done): its values apply together. */
void
pi_settings_update (PiSettings *self, const PiSettingsValues *values)
{
  GObject *object = G_OBJECT (self);
  PiSettingsValues old = self->values;
  g_object_freeze_notify (object);
  self->values = *values;
  if (!self->available)
    {
      self->available = TRUE;
      g_object_notify_by_pspec (object, properties[PROP_AVAILABLE]);
    }
  if (old.sensitivity != values->sensitivity)
    g_object_notify_by_pspec (object, properties[PROP_SENSITIVITY]);
  if (old.begin != values->begin)
    g_object_notify_by_pspec (object, properties[PROP_BEGIN_THRESHOLD]);
  if (old.commit != values->commit)
    g_object_notify_by_pspec (object, properties[PROP_COMMIT_THRESHOLD]);
  if (old.complete != values->complete)
    g_object_notify_by_pspec (object, properties[PROP_COMPLETE_THRESHOLD]);
  if (old.long_press_ms != values->long_press_ms)
    g_object_notify_by_pspec (object, properties[PROP_LONG_PRESS_DURATION]);
  if (old.haptics != values->haptics)
    g_object_notify_by_pspec (object, properties[PROP_HAPTICS]);
  if (old.completion != values->completion)
    g_object_notify_by_pspec (object, properties[PROP_COMPLETION]);
  g_object_thaw_notify (object);
}

/**
 * pi_settings_get_display:
 * @self: the settings
 *
 * Returns: (transfer none): the display
 *
 * Since: 1.1
 */
GdkDisplay *
pi_settings_get_display (PiSettings *self)
{
  g_return_val_if_fail (PI_IS_SETTINGS (self), NULL);
  return self->display;
}

/**
 * pi_settings_get_available:
 * @self: the settings
 *
 * Returns: whether the compositor sent the user's settings
 *
 * Since: 1.1
 */
gboolean
pi_settings_get_available (PiSettings *self)
{
  g_return_val_if_fail (PI_IS_SETTINGS (self), FALSE);
  return self->available;
}

/**
 * pi_settings_get_sensitivity:
 * @self: the settings
 *
 * Returns: the user's sensitivity preset
 *
 * Since: 1.1
 */
PiSensitivity
pi_settings_get_sensitivity (PiSettings *self)
{
  g_return_val_if_fail (PI_IS_SETTINGS (self), PI_SENSITIVITY_UNKNOWN);
  return self->values.sensitivity;
}

/**
 * pi_settings_get_begin_threshold:
 * @self: the settings
 *
 * Returns: the force (0 to 1) that asks should-begin, 0 when unknown
 *
 * Since: 1.1
 */
double
pi_settings_get_begin_threshold (PiSettings *self)
{
  g_return_val_if_fail (PI_IS_SETTINGS (self), 0);
  return self->values.begin;
}

/**
 * pi_settings_get_commit_threshold:
 * @self: the settings
 *
 * Returns: the force (0 to 1) that begins the commit phase, 0 when unknown
 *
 * Since: 1.1
 */
double
pi_settings_get_commit_threshold (PiSettings *self)
{
  g_return_val_if_fail (PI_IS_SETTINGS (self), 0);
  return self->values.commit;
}

/**
 * pi_settings_get_complete_threshold:
 * @self: the settings
 *
 * Returns: the force (0 to 1) that completes, 0 when unknown
 *
 * Since: 1.1
 */
double
pi_settings_get_complete_threshold (PiSettings *self)
{
  g_return_val_if_fail (PI_IS_SETTINGS (self), 0);
  return self->values.complete;
}

/**
 * pi_settings_get_long_press_duration:
 * @self: the settings
 *
 * Returns: the long-press duration in milliseconds, 0 when unknown
 *
 * Since: 1.1
 */
guint
pi_settings_get_long_press_duration (PiSettings *self)
{
  g_return_val_if_fail (PI_IS_SETTINGS (self), 0);
  return self->values.long_press_ms;
}

/**
 * pi_settings_get_haptics:
 * @self: the settings
 *
 * Returns: the user's haptics setting
 *
 * Since: 1.1
 */
PiHaptics
pi_settings_get_haptics (PiSettings *self)
{
  g_return_val_if_fail (PI_IS_SETTINGS (self), PI_HAPTICS_OFF);
  return self->values.haptics;
}

/**
 * pi_settings_get_completion:
 * @self: the settings
 *
 * Returns: when the commit phase completes
 *
 * Since: 1.1
 */
PiCompletion
pi_settings_get_completion (PiSettings *self)
{
  g_return_val_if_fail (PI_IS_SETTINGS (self), PI_COMPLETION_FORCE);
  return self->values.completion;
}
