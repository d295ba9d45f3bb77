#include "config.h"

#include <math.h>

#include "pi-enum-types.h"
#include "pi-surface-context.h"
#include "pi-preview-interaction.h"

/**
 * PiPreviewInteraction:
 *
 * Peek and pop on a widget: UIKit's `UIPreviewInteraction(view:)` for GTK 4 on Wayland.
 *
 * A press that grows harder on the widget (a pen's pressure, a force touchpad, or a long
 * press on a device without force; the thresholds are the user's, set in the compositor)
 * goes through two phases, each with a progress from 0 to 1:
 *
 * - [signal@Pi.PreviewInteraction::should-begin]: may this press become a
 *   preview? Answer now (the handler's return value) or later
 *   ([method@Pi.PreviewInteraction.defer_answer]).
 * - [signal@Pi.PreviewInteraction::preview] with `ended` %FALSE, repeatedly
 *   (it may go down), then once with `ended` %TRUE: the commit phase begins, and the
 *   compositor takes the contact away from GTK's own input: the widget's click, drag and
 *   other gestures see it cancelled, so the press never also activates the widget.
 * - [signal@Pi.PreviewInteraction::commit] with `ended` %FALSE, repeatedly,
 *   then once with `ended` %TRUE: perform the action.
 * - [signal@Pi.PreviewInteraction::cancelled] instead of the rest, at any
 *   point after should-begin (never for a declined press).
 *
 * A light tap stays an ordinary click.
 *
 * The keyboard previews too (protocol version 2): while the widget, or an item inside it, or
 * the list row or grid child that holds it, has keyboard focus, the user's preview key (by
 * default Menu or Shift+F10) held for the long-press duration begins a press with source
 * %PI_SOURCE_KEYBOARD at the focused item's centre (or at
 * [method@Pi.PreviewInteraction.set_focus_point]); a tap of the key keeps its usual meaning.
 * No app code is needed beyond what a pointer's press needs.
 *
 * [property@Pi.PreviewInteraction:behaviour] says what force means on the widget: peek and
 * pop (the default), nothing at all (%PI_BEHAVIOUR_GENERIC, for a canvas that reads pressure
 * itself), or levels (%PI_BEHAVIOUR_ACCELERATOR, for a zoom or a scrubber). During a press
 * an app may ask for a short haptic effect ([method@Pi.PreviewInteraction.play_haptic]).
 *
 * Where the compositor does not offer preview
 * interactions (or the display is not Wayland), [property@Pi.PreviewInteraction:available]
 * is %FALSE, no signal is emitted and the widget works as before.
 *
 * The widget keeps the interaction alive until the widget is destroyed or
 * [method@Pi.PreviewInteraction.detach] is called, so an app need not keep a
 * reference. Any number of widgets of a window may have one: they share the window's
 * protocol object, whose region follows their allocations.
 *
 * ```python
 * interaction = Pi.PreviewInteraction.new(photo)
 * interaction.connect("preview", lambda i, progress, ended: dim_others(progress))
 * interaction.connect("commit", lambda i, progress, ended: ended and open_photo())
 * interaction.connect("cancelled", lambda i, reason: restore())
 * ```
 */
struct _PiPreviewInteraction
{
  GObject parent_instance;

  GtkWidget *widget; /* weak */
  gboolean held_by_widget;
  PiSurfaceContext *context; /* while the widget is realized */
  gulong realize_id, unrealize_id, map_id, unmap_id, state_id;

  gboolean enabled;
  PiSources allowed_sources;
  PiBehaviour behaviour;
  guint stages;
  gboolean has_focus_point;
  double focus_x, focus_y;

  /* The latest press (UIKit's currentPress) as the library last reported it: the properties
   * read the library's own while the widget is in its window, this once it left. */
  struct preview_interaction_client_press last;
  gboolean in_should_begin, deferred;
};

enum
{
  PROP_0,
  PROP_WIDGET,
  PROP_AVAILABLE,
  PROP_ENABLED,
  PROP_ALLOWED_SOURCES,
  PROP_SOURCE,
  PROP_FORCE,
  PROP_PHASE,
  PROP_PRESS,
  PROP_BEHAVIOUR,
  PROP_STAGES,
  PROP_STAGE,
  PROP_HAPTICS_AVAILABLE,
  N_PROPS
};

enum
{
  SHOULD_BEGIN,
  PREVIEW,
  COMMIT,
  CANCELLED,
  STAGE,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (PiPreviewInteraction, pi_preview_interaction, G_TYPE_OBJECT)

G_DEFINE_QUARK (pi-preview-interaction-error-quark, pi_preview_interaction_error)

static const char *widget_key = "pi-preview-interaction";

static struct preview_interaction_client_press latest (PiPreviewInteraction *self);
static const PiItemOwner owner_calls;

static void
join (PiPreviewInteraction *self)
{
  if (self->context == NULL && self->widget != NULL)
    self->context = pi_surface_context_join (self->widget, &owner_calls, self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_AVAILABLE]);
}

static void
leave (PiPreviewInteraction *self)
{
  PiSurfaceContext *context = g_steal_pointer (&self->context);
  if (context != NULL)
    {
      pi_surface_context_leave (context, self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_AVAILABLE]);
    }
}

static void
invalidate (PiPreviewInteraction *self)
{
  if (self->context != NULL)
    pi_surface_context_invalidate (self->context);
}

static void
widget_realized (GtkWidget *widget, PiPreviewInteraction *self)
{
  (void) widget;
  join (self);
}

/* A widget is realized while it is in a realized window: unrealizing means it leaves that
 * window (removed, moved to another, or the window goes). */
static void
widget_unrealizing (GtkWidget *widget, PiPreviewInteraction *self)
{
  (void) widget;
  leave (self);
}

static void
widget_mapped_or_unmapped (GtkWidget *widget, PiPreviewInteraction *self)
{
  (void) widget;
  invalidate (self);
}

static void
widget_state_changed (GtkWidget *widget, GtkStateFlags previous, PiPreviewInteraction *self)
{
  if ((previous ^ gtk_widget_get_state_flags (widget)) & GTK_STATE_FLAG_INSENSITIVE)
    invalidate (self);
}

static void
release_widget (PiPreviewInteraction *self, gboolean widget_alive)
{
  GtkWidget *widget = self->widget;
  if (widget == NULL)
    return;
  leave (self);
  if (widget_alive)
    {
      g_clear_signal_handler (&self->realize_id, widget);
      g_clear_signal_handler (&self->unrealize_id, widget);
      g_clear_signal_handler (&self->map_id, widget);
      g_clear_signal_handler (&self->unmap_id, widget);
      g_clear_signal_handler (&self->state_id, widget);
      g_object_set_data (G_OBJECT (widget), widget_key, NULL);
    }
  self->widget = NULL;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WIDGET]);
  if (self->held_by_widget)
    {
      self->held_by_widget = FALSE;
      g_object_unref (self);
    }
}

static void
widget_gone (gpointer data, GObject *where_the_widget_was)
{
  PiPreviewInteraction *self = data;
  (void) where_the_widget_was;
  self->realize_id = self->unrealize_id = self->map_id = self->unmap_id = self->state_id = 0;
  g_object_ref (self);
  release_widget (self, FALSE);
  g_object_unref (self);
}

static void
set_widget (PiPreviewInteraction *self, GtkWidget *widget)
{
  if (widget == NULL)
    return;
  if (g_object_get_data (G_OBJECT (widget), widget_key) != NULL)
    {
      g_critical ("%s %p already has a PiPreviewInteraction", G_OBJECT_TYPE_NAME (widget), (void *) widget);
      return;
    }
  self->widget = widget;
  g_object_weak_ref (G_OBJECT (widget), widget_gone, self);
  g_object_set_data (G_OBJECT (widget), widget_key, self);
  self->held_by_widget = TRUE;
  g_object_ref (self);
  self->realize_id = g_signal_connect (widget, "realize", G_CALLBACK (widget_realized), self);
  self->unrealize_id = g_signal_connect (widget, "unrealize", G_CALLBACK (widget_unrealizing), self);
  self->map_id = g_signal_connect (widget, "map", G_CALLBACK (widget_mapped_or_unmapped), self);
  self->unmap_id = g_signal_connect (widget, "unmap", G_CALLBACK (widget_mapped_or_unmapped), self);
  self->state_id = g_signal_connect (widget, "state-flags-changed", G_CALLBACK (widget_state_changed), self);
  if (gtk_widget_get_realized (widget))
    join (self);
}

static void
pi_preview_interaction_dispose (GObject *object)
{
  PiPreviewInteraction *self = PI_PREVIEW_INTERACTION (object);
  if (self->widget != NULL)
    {
      g_object_weak_unref (G_OBJECT (self->widget), widget_gone, self);
      self->held_by_widget = FALSE; /* run_dispose: the widget's reference is being dropped */
      release_widget (self, TRUE);
    }
  G_OBJECT_CLASS (pi_preview_interaction_parent_class)->dispose (object);
}

static void
pi_preview_interaction_get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  PiPreviewInteraction *self = PI_PREVIEW_INTERACTION (object);
  switch (id)
    {
    case PROP_WIDGET:
      g_value_set_object (value, self->widget);
      break;
    case PROP_AVAILABLE:
      g_value_set_boolean (value, pi_preview_interaction_get_available (self));
      break;
    case PROP_ENABLED:
      g_value_set_boolean (value, self->enabled);
      break;
    case PROP_ALLOWED_SOURCES:
      g_value_set_flags (value, self->allowed_sources);
      break;
    case PROP_SOURCE:
      g_value_set_enum (value, pi_preview_interaction_get_source (self));
      break;
    case PROP_FORCE:
      g_value_set_enum (value, pi_preview_interaction_get_force (self));
      break;
    case PROP_PHASE:
      g_value_set_enum (value, pi_preview_interaction_get_phase (self));
      break;
    case PROP_PRESS:
      g_value_set_uint (value, self->last.id);
      break;
    case PROP_BEHAVIOUR:
      g_value_set_enum (value, self->behaviour);
      break;
    case PROP_STAGES:
      g_value_set_uint (value, self->stages);
      break;
    case PROP_STAGE:
      g_value_set_uint (value, pi_preview_interaction_get_stage (self));
      break;
    case PROP_HAPTICS_AVAILABLE:
      g_value_set_boolean (value, pi_preview_interaction_get_haptics_available (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
pi_preview_interaction_set_property (GObject *object, guint id, const GValue *value, GParamSpec *pspec)
{
  PiPreviewInteraction *self = PI_PREVIEW_INTERACTION (object);
  switch (id)
    {
    case PROP_WIDGET:
      set_widget (self, g_value_get_object (value));
      break;
    case PROP_ENABLED:
      pi_preview_interaction_set_enabled (self, g_value_get_boolean (value));
      break;
    case PROP_ALLOWED_SOURCES:
      pi_preview_interaction_set_allowed_sources (self, g_value_get_flags (value));
      break;
    case PROP_BEHAVIOUR:
      pi_preview_interaction_set_behaviour (self, g_value_get_enum (value));
      break;
    case PROP_STAGES:
      pi_preview_interaction_set_stages (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static gboolean
pi_preview_interaction_real_should_begin (PiPreviewInteraction *self)
{
  (void) self;
  return TRUE; /* UIKit's default: every press may begin */
}

static void
pi_preview_interaction_class_init (PiPreviewInteractionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  object_class->dispose = pi_preview_interaction_dispose;
  object_class->get_property = pi_preview_interaction_get_property;
  object_class->set_property = pi_preview_interaction_set_property;

  /**
   * PiPreviewInteraction:widget:
   *
   * The widget presses begin on; %NULL once it was destroyed or the interaction detached.
   */
  properties[PROP_WIDGET] = g_param_spec_object ("widget", NULL, NULL, GTK_TYPE_WIDGET,
                                                 G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS
                                                     | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * PiPreviewInteraction:available:
   *
   * Whether presses on the widget can become previews now: the display is Wayland, the
   * compositor offers preview interactions, and the widget is in a realized window. Keep
   * other ways to the same actions (a context menu, keys) when it is %FALSE.
   */
  properties[PROP_AVAILABLE] = g_param_spec_boolean ("available", NULL, NULL, FALSE,
                                                     G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /**
   * PiPreviewInteraction:enabled:
   *
   * Whether new presses may begin on the widget; running presses continue.
   */
  properties[PROP_ENABLED] = g_param_spec_boolean ("enabled", NULL, NULL, TRUE,
                                                   G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * PiPreviewInteraction:allowed-sources:
   *
   * The kinds of devices whose presses may begin on the widget.
   */
  properties[PROP_ALLOWED_SOURCES] = g_param_spec_flags ("allowed-sources", NULL, NULL, PI_TYPE_SOURCES, PI_SOURCES_ALL,
                                                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS
                                                             | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * PiPreviewInteraction:source:
   *
   * The kind of device of the latest press.
   */
  properties[PROP_SOURCE] = g_param_spec_enum ("source", NULL, NULL, PI_TYPE_SOURCE, PI_SOURCE_NONE,
                                               G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /**
   * PiPreviewInteraction:force:
   *
   * Whether the latest press's progress follows a measured force or one simulated from a
   * long press.
   */
  properties[PROP_FORCE] = g_param_spec_enum ("force", NULL, NULL, PI_TYPE_FORCE, PI_FORCE_UNKNOWN,
                                              G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /**
   * PiPreviewInteraction:phase:
   *
   * Where the latest press is.
   */
  properties[PROP_PHASE] = g_param_spec_enum ("phase", NULL, NULL, PI_TYPE_PHASE, PI_PHASE_NONE,
                                              G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /**
   * PiPreviewInteraction:press:
   *
   * The id of the latest press (from 1, unique in its window); 0 before the first.
   */
  properties[PROP_PRESS] = g_param_spec_uint ("press", NULL, NULL, 0, G_MAXUINT, 0,
                                              G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /**
   * PiPreviewInteraction:behaviour:
   *
   * What force means on the widget (where an inner widget has an interaction of its own,
   * its behaviour applies there). Applies to presses that begin afterwards.
   *
   * Since: 1.1
   */
  properties[PROP_BEHAVIOUR] = g_param_spec_enum ("behaviour", NULL, NULL, PI_TYPE_BEHAVIOUR, PI_BEHAVIOUR_DEEP_CLICK,
                                                  G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS
                                                      | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * PiPreviewInteraction:stages:
   *
   * The number of levels of an accelerator ([property@Pi.PreviewInteraction:behaviour]),
   * 2 to 5: each is a band of force the user can hold, and no more than five fit.
   *
   * Since: 1.1
   */
  properties[PROP_STAGES] = g_param_spec_uint ("stages", NULL, NULL, 2, 5, 3,
                                               G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * PiPreviewInteraction:stage:
   *
   * The level of the accelerator's running press, 1 to
   * [property@Pi.PreviewInteraction:stages]; 0 when none runs.
   *
   * Since: 1.1
   */
  properties[PROP_STAGE] = g_param_spec_uint ("stage", NULL, NULL, 0, 5, 0,
                                              G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * PiPreviewInteraction:haptics-available:
   *
   * Whether haptic effects ([method@Pi.PreviewInteraction.play_haptic]) can be felt for the
   * latest press: its device can play them and the user has haptics on. The keyboard, a
   * mouse, and pens never can.
   *
   * Since: 1.1
   */
  properties[PROP_HAPTICS_AVAILABLE] = g_param_spec_boolean ("haptics-available", NULL, NULL, FALSE,
                                                             G_PARAM_READABLE | G_PARAM_STATIC_STRINGS
                                                                 | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * PiPreviewInteraction::should-begin:
   * @self: the interaction
   *
   * A press began on the widget: may it become a preview (UIKit's
   * `previewInteractionShouldBegin`)? [method@Pi.PreviewInteraction.get_location]
   * says where. To answer later (after a lookup), call
   * [method@Pi.PreviewInteraction.defer_answer] here and
   * [method@Pi.PreviewInteraction.answer] within the compositor's wait
   * (150 ms by default); the return value is then ignored.
   *
   * Returns: %TRUE to accept the press (the default without a handler), %FALSE to decline it
   */
  signals[SHOULD_BEGIN] = g_signal_new_class_handler ("should-begin", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                                      G_CALLBACK (pi_preview_interaction_real_should_begin),
                                                      g_signal_accumulator_first_wins, NULL, NULL, G_TYPE_BOOLEAN, 0);
  /**
   * PiPreviewInteraction::preview:
   * @self: the interaction
   * @progress: 0 to 1; it may go down as well as up
   * @ended: %TRUE once, with progress 1: the preview phase is over and the commit phase
   *   begins (the contact no longer reaches the widget's gestures)
   *
   * Progress through the preview phase (UIKit's `didUpdatePreviewTransition:ended:`).
   * Emitted again at the same progress when the contact moved.
   */
  signals[PREVIEW] = g_signal_new ("preview", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                   G_TYPE_NONE, 2, G_TYPE_DOUBLE, G_TYPE_BOOLEAN);
  /**
   * PiPreviewInteraction::commit:
   * @self: the interaction
   * @progress: 0 to 1
   * @ended: %TRUE once, with progress 1: the press completed; perform the action now
   *
   * Progress through the commit phase (UIKit's `didUpdateCommitTransition:ended:`).
   * Emitted again at the same progress when the contact moved (hit-test quick actions).
   */
  signals[COMMIT] = g_signal_new ("commit", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                  G_TYPE_NONE, 2, G_TYPE_DOUBLE, G_TYPE_BOOLEAN);
  /**
   * PiPreviewInteraction::cancelled:
   * @self: the interaction
   * @reason: why; informative only
   *
   * The press ended without completing (UIKit's `previewInteractionDidCancel`): undo its
   * visual effects and perform nothing.
   */
  signals[CANCELLED] = g_signal_new ("cancelled", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                     G_TYPE_NONE, 1, PI_TYPE_CANCEL_REASON);
  /**
   * PiPreviewInteraction::stage-changed:
   * @self: the interaction
   * @stage: the level, 1 to [property@Pi.PreviewInteraction:stages]; 0 when the press ended
   *   (always told when it completes, also before any level was reached)
   *
   * An accelerator's press changed level (%PI_BEHAVIOUR_ACCELERATOR): first 1, then on every
   * change, up or down, possibly by more than one level. A held force at a level's edge does
   * not flicker (the compositor's hysteresis); with simulated force (a long press, the
   * keyboard) the level rises with the time held. When the press ends the stage is 0: the
   * phase is %PI_PHASE_COMPLETED when the contact lifted (keep what the control did), and
   * [signal@Pi.PreviewInteraction::cancelled] follows for any other end.
   *
   * Since: 1.1
   */
  signals[STAGE] = g_signal_new ("stage-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                 G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void
pi_preview_interaction_init (PiPreviewInteraction *self)
{
  self->enabled = TRUE;
  self->allowed_sources = PI_SOURCES_ALL;
  self->behaviour = PI_BEHAVIOUR_DEEP_CLICK;
  self->stages = 3;
}

/**
 * pi_preview_interaction_new:
 * @widget: the widget presses begin on
 *
 * Attaches a preview interaction to @widget (UIKit's `UIPreviewInteraction(view:)`). The
 * widget holds a reference until it is destroyed or the interaction is detached.
 *
 * Returns: (transfer full): the interaction
 */
PiPreviewInteraction *
pi_preview_interaction_new (GtkWidget *widget)
{
  g_return_val_if_fail (GTK_IS_WIDGET (widget), NULL);
  return g_object_new (PI_TYPE_PREVIEW_INTERACTION, "widget", widget, NULL);
}

/**
 * pi_preview_interaction_get_for_widget:
 * @widget: a widget
 *
 * Returns: (transfer none) (nullable): the interaction attached to @widget, if any
 */
PiPreviewInteraction *
pi_preview_interaction_get_for_widget (GtkWidget *widget)
{
  g_return_val_if_fail (GTK_IS_WIDGET (widget), NULL);
  return g_object_get_data (G_OBJECT (widget), widget_key);
}

/**
 * pi_preview_interaction_get_widget:
 * @self: the interaction
 *
 * Returns: (transfer none) (nullable): the widget, or %NULL once it is gone or detached
 */
GtkWidget *
pi_preview_interaction_get_widget (PiPreviewInteraction *self)
{
  g_return_val_if_fail (PI_IS_PREVIEW_INTERACTION (self), NULL);
  return self->widget;
}

/**
 * pi_preview_interaction_detach:
 * @self: the interaction
 *
 * Removes the interaction from its widget: running presses are cancelled
 * ([signal@Pi.PreviewInteraction::cancelled] with
 * %PI_CANCEL_REASON_CLIENT_CANCELLED) and the widget drops its reference.
 */
void
pi_preview_interaction_detach (PiPreviewInteraction *self)
{
  g_return_if_fail (PI_IS_PREVIEW_INTERACTION (self));
  if (self->widget == NULL)
    return;
  g_object_ref (self);
  g_object_weak_unref (G_OBJECT (self->widget), widget_gone, self);
  release_widget (self, TRUE);
  g_object_unref (self);
}

/**
 * pi_preview_interaction_get_available:
 * @self: the interaction
 *
 * Returns: whether presses on the widget can become previews now
 */
gboolean
pi_preview_interaction_get_available (PiPreviewInteraction *self)
{
  g_return_val_if_fail (PI_IS_PREVIEW_INTERACTION (self), FALSE);
  return self->context != NULL && pi_surface_context_is_available (self->context);
}

/**
 * pi_preview_interaction_get_enabled:
 * @self: the interaction
 *
 * Returns: whether new presses may begin
 */
gboolean
pi_preview_interaction_get_enabled (PiPreviewInteraction *self)
{
  g_return_val_if_fail (PI_IS_PREVIEW_INTERACTION (self), FALSE);
  return self->enabled;
}

/**
 * pi_preview_interaction_set_enabled:
 * @self: the interaction
 * @enabled: whether new presses may begin on the widget
 *
 * Enables or disables new presses; running presses continue.
 */
void
pi_preview_interaction_set_enabled (PiPreviewInteraction *self, gboolean enabled)
{
  g_return_if_fail (PI_IS_PREVIEW_INTERACTION (self));
  enabled = !!enabled;
  if (self->enabled == enabled)
    return;
  self->enabled = enabled;
  invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ENABLED]);
}

/**
 * pi_preview_interaction_get_allowed_sources:
 * @self: the interaction
 *
 * Returns: the kinds of devices whose presses may begin
 */
PiSources
pi_preview_interaction_get_allowed_sources (PiPreviewInteraction *self)
{
  g_return_val_if_fail (PI_IS_PREVIEW_INTERACTION (self), PI_SOURCES_NONE);
  return self->allowed_sources;
}

/**
 * pi_preview_interaction_set_allowed_sources:
 * @self: the interaction
 * @sources: the kinds of devices whose presses may begin on the widget
 *
 * Chooses the devices; a drawing widget may keep the pen for drawing.
 */
void
pi_preview_interaction_set_allowed_sources (PiPreviewInteraction *self, PiSources sources)
{
  g_return_if_fail (PI_IS_PREVIEW_INTERACTION (self));
  sources &= PI_SOURCES_ALL;
  if (self->allowed_sources == sources)
    return;
  self->allowed_sources = sources;
  invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ALLOWED_SOURCES]);
}

/**
 * pi_preview_interaction_get_source:
 * @self: the interaction
 *
 * Returns: the kind of device of the latest press
 */
PiSource
pi_preview_interaction_get_source (PiPreviewInteraction *self)
{
  g_return_val_if_fail (PI_IS_PREVIEW_INTERACTION (self), PI_SOURCE_NONE);
  struct preview_interaction_client_press press = latest (self);
  /* The same numbers (rules/vocabulary.txt); a newer compositor's sources are NONE. */
  return press.source <= PREVIEW_INTERACTION_CLIENT_SOURCE_KEYBOARD ? (PiSource) press.source : PI_SOURCE_NONE;
}

/**
 * pi_preview_interaction_get_force:
 * @self: the interaction
 *
 * Returns: whether the latest press's force is measured or simulated
 */
PiForce
pi_preview_interaction_get_force (PiPreviewInteraction *self)
{
  g_return_val_if_fail (PI_IS_PREVIEW_INTERACTION (self), PI_FORCE_UNKNOWN);
  struct preview_interaction_client_press press = latest (self);
  return press.force <= PREVIEW_INTERACTION_CLIENT_FORCE_SIMULATED ? (PiForce) press.force : PI_FORCE_UNKNOWN;
}

/**
 * pi_preview_interaction_get_phase:
 * @self: the interaction
 *
 * Returns: where the latest press is
 */
PiPhase
pi_preview_interaction_get_phase (PiPreviewInteraction *self)
{
  g_return_val_if_fail (PI_IS_PREVIEW_INTERACTION (self), PI_PHASE_NONE);
  /* The library's phase, by the same numbers (rules/vocabulary.txt). */
  struct preview_interaction_client_press press = latest (self);
  return press.phase <= PREVIEW_INTERACTION_CLIENT_PHASE_DECLINED ? (PiPhase) press.phase : PI_PHASE_NONE;
}

/**
 * pi_preview_interaction_get_press:
 * @self: the interaction
 *
 * Returns: the id of the latest press, 0 before the first
 */
guint
pi_preview_interaction_get_press (PiPreviewInteraction *self)
{
  g_return_val_if_fail (PI_IS_PREVIEW_INTERACTION (self), 0);
  return self->last.id;
}

/**
 * pi_preview_interaction_get_location:
 * @self: the interaction
 * @x: (out) (optional): the horizontal position, in the widget's coordinates
 * @y: (out) (optional): the vertical position, in the widget's coordinates
 *
 * Where the latest press's contact is (UIKit's `location(in: view)`), in the widget's
 * current coordinates (it may lie outside the widget while the contact moves). During the
 * commit phase this is the only source of the contact's position.
 *
 * Returns: %FALSE when there is no press or the widget is not in a window
 */
gboolean
pi_preview_interaction_get_location (PiPreviewInteraction *self, double *x, double *y)
{
  g_return_val_if_fail (PI_IS_PREVIEW_INTERACTION (self), FALSE);
  double wx = 0, wy = 0;
  struct preview_interaction_client_press press = latest (self);
  gboolean known = press.id != 0 && self->context != NULL && self->widget != NULL
                   && pi_surface_context_to_widget (self->context, self->widget, press.x, press.y, &wx, &wy);
  if (x != NULL)
    *x = wx;
  if (y != NULL)
    *y = wy;
  return known;
}

/**
 * pi_preview_interaction_get_time:
 * @self: the interaction
 *
 * When the hardware event behind the latest signal happened, in microseconds on the clock
 * of GDK's event times (divided by 1000 and truncated to 32 bits it is
 * [method@Gdk.Event.get_time] of the same contact's core events).
 *
 * Returns: the timestamp, 0 before the first press
 */
guint64
pi_preview_interaction_get_time (PiPreviewInteraction *self)
{
  g_return_val_if_fail (PI_IS_PREVIEW_INTERACTION (self), 0);
  return latest (self).time_usec;
}

/**
 * pi_preview_interaction_defer_answer:
 * @self: the interaction
 *
 * Called from a [signal@Pi.PreviewInteraction::should-begin] handler: the
 * app answers later with [method@Pi.PreviewInteraction.answer], from the
 * main thread, within the compositor's should-begin wait (150 ms by default, the user's
 * setting); a press left unanswered is cancelled with %PI_CANCEL_REASON_TIMEOUT.
 *
 * Returns: the press to answer
 */
guint
pi_preview_interaction_defer_answer (PiPreviewInteraction *self)
{
  g_return_val_if_fail (PI_IS_PREVIEW_INTERACTION (self), 0);
  g_return_val_if_fail (self->in_should_begin, 0);
  self->deferred = TRUE;
  return self->last.id;
}

/**
 * pi_preview_interaction_answer:
 * @self: the interaction
 * @press: the press [method@Pi.PreviewInteraction.defer_answer] returned
 * @accept: whether the press may become a preview
 * @error: return location for an error
 *
 * Answers a deferred should-begin. A press that timed out meanwhile is the harmless
 * %PI_PREVIEW_INTERACTION_ERROR_PRESS_ENDED.
 *
 * Returns: %TRUE when the answer was sent
 */
gboolean
pi_preview_interaction_answer (PiPreviewInteraction *self, guint press, gboolean accept, GError **error)
{
  g_return_val_if_fail (PI_IS_PREVIEW_INTERACTION (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  int status = self->context != NULL ? pi_surface_context_answer (self->context, self, press, accept)
                                     : PREVIEW_INTERACTION_CLIENT_ERROR_DISCONNECTED;
  PiPreviewInteractionError code;
  switch (status)
    {
    case PREVIEW_INTERACTION_CLIENT_OK:
      return TRUE; /* a decline's phase is told by the library (phase_changed) */
    case PREVIEW_INTERACTION_CLIENT_ERROR_UNKNOWN_PRESS:
      code = PI_PREVIEW_INTERACTION_ERROR_UNKNOWN_PRESS;
      break;
    case PREVIEW_INTERACTION_CLIENT_ERROR_PRESS_ENDED:
      code = PI_PREVIEW_INTERACTION_ERROR_PRESS_ENDED;
      break;
    case PREVIEW_INTERACTION_CLIENT_ERROR_ALREADY_ANSWERED:
      code = PI_PREVIEW_INTERACTION_ERROR_ALREADY_ANSWERED;
      break;
    default:
      code = PI_PREVIEW_INTERACTION_ERROR_FAILED;
      break;
    }
  g_set_error (error, PI_PREVIEW_INTERACTION_ERROR, code, "press %u not answered: %s", press,
               preview_interaction_client_status_string (status));
  return FALSE;
}

/**
 * pi_preview_interaction_cancel:
 * @self: the interaction
 *
 * Cancels the widget's running presses (UIKit's `cancelInteraction`): each gets
 * [signal@Pi.PreviewInteraction::cancelled] with
 * %PI_CANCEL_REASON_CLIENT_CANCELLED, and a contact taken away in the commit phase is given
 * back to GTK's input (without its release).
 */
void
pi_preview_interaction_cancel (PiPreviewInteraction *self)
{
  g_return_if_fail (PI_IS_PREVIEW_INTERACTION (self));
  if (self->context != NULL)
    pi_surface_context_cancel_presses_of (self->context, self);
}

/**
 * pi_preview_interaction_get_behaviour:
 * @self: the interaction
 *
 * Returns: what force means on the widget
 *
 * Since: 1.1
 */
PiBehaviour
pi_preview_interaction_get_behaviour (PiPreviewInteraction *self)
{
  g_return_val_if_fail (PI_IS_PREVIEW_INTERACTION (self), PI_BEHAVIOUR_DEEP_CLICK);
  return self->behaviour;
}

/**
 * pi_preview_interaction_set_behaviour:
 * @self: the interaction
 * @behaviour: what force means on the widget
 *
 * Peek and pop (the default), nothing (%PI_BEHAVIOUR_GENERIC: a canvas that reads pressure
 * from GTK's events and must never peek), or levels (%PI_BEHAVIOUR_ACCELERATOR). Presses
 * that begin afterwards follow it.
 *
 * Since: 1.1
 */
void
pi_preview_interaction_set_behaviour (PiPreviewInteraction *self, PiBehaviour behaviour)
{
  g_return_if_fail (PI_IS_PREVIEW_INTERACTION (self));
  g_return_if_fail (behaviour >= PI_BEHAVIOUR_DEEP_CLICK && behaviour <= PI_BEHAVIOUR_ACCELERATOR);
  if (self->behaviour == behaviour)
    return;
  self->behaviour = behaviour;
  invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BEHAVIOUR]);
}

/**
 * pi_preview_interaction_get_stages:
 * @self: the interaction
 *
 * Returns: the number of levels of an accelerator
 *
 * Since: 1.1
 */
guint
pi_preview_interaction_get_stages (PiPreviewInteraction *self)
{
  g_return_val_if_fail (PI_IS_PREVIEW_INTERACTION (self), 0);
  return self->stages;
}

/**
 * pi_preview_interaction_set_stages:
 * @self: the interaction
 * @stages: 2 to 5
 *
 * Sets the number of levels of an accelerator (3 by default).
 *
 * Since: 1.1
 */
void
pi_preview_interaction_set_stages (PiPreviewInteraction *self, guint stages)
{
  g_return_if_fail (PI_IS_PREVIEW_INTERACTION (self));
  g_return_if_fail (stages >= 2 && stages <= 5);
  if (self->stages == stages)
    return;
  self->stages = stages;
  invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STAGES]);
}

/**
 * pi_preview_interaction_get_stage:
 * @self: the interaction
 *
 * Returns: the level of the accelerator's running press, 0 when none runs
 *
 * Since: 1.1
 */
guint
pi_preview_interaction_get_stage (PiPreviewInteraction *self)
{
  g_return_val_if_fail (PI_IS_PREVIEW_INTERACTION (self), 0);
  return MIN (latest (self).stage, 5u); /* the property's range; the library checks the number */
}

/**
 * pi_preview_interaction_set_focus_point:
 * @self: the interaction
 * @x: the horizontal position, in the widget's coordinates
 * @y: the vertical position, in the widget's coordinates
 *
 * Where a keyboard press begins while the widget has keyboard focus: the point of the
 * item the app considers focused (say, the selected cell of a canvas that draws its own
 * items). Without it the adapter uses the centre of the focused widget (of this widget
 * when the focus is on an ancestor that holds it, such as a list row). The point follows
 * the widget when it moves.
 *
 * Since: 1.1
 */
void
pi_preview_interaction_set_focus_point (PiPreviewInteraction *self, double x, double y)
{
  g_return_if_fail (PI_IS_PREVIEW_INTERACTION (self));
  g_return_if_fail (isfinite (x) && isfinite (y));
  if (self->has_focus_point && self->focus_x == x && self->focus_y == y)
    return;
  self->has_focus_point = TRUE;
  self->focus_x = x;
  self->focus_y = y;
  invalidate (self);
}

/**
 * pi_preview_interaction_unset_focus_point:
 * @self: the interaction
 *
 * Goes back to the focused widget's centre for keyboard presses.
 *
 * Since: 1.1
 */
void
pi_preview_interaction_unset_focus_point (PiPreviewInteraction *self)
{
  g_return_if_fail (PI_IS_PREVIEW_INTERACTION (self));
  if (!self->has_focus_point)
    return;
  self->has_focus_point = FALSE;
  invalidate (self);
}

/**
 * pi_preview_interaction_get_focus_point:
 * @self: the interaction
 * @x: (out) (optional): the horizontal position, in the widget's coordinates
 * @y: (out) (optional): the vertical position, in the widget's coordinates
 *
 * Returns: whether the app set a focus point
 *
 * Since: 1.1
 */
gboolean
pi_preview_interaction_get_focus_point (PiPreviewInteraction *self, double *x, double *y)
{
  g_return_val_if_fail (PI_IS_PREVIEW_INTERACTION (self), FALSE);
  if (x != NULL)
    *x = self->has_focus_point ? self->focus_x : 0;
  if (y != NULL)
    *y = self->has_focus_point ? self->focus_y : 0;
  return self->has_focus_point;
}

/**
 * pi_preview_interaction_get_haptics_available:
 * @self: the interaction
 *
 * Returns: whether haptic effects can be felt for the latest press
 *
 * Since: 1.1
 */
gboolean
pi_preview_interaction_get_haptics_available (PiPreviewInteraction *self)
{
  g_return_val_if_fail (PI_IS_PREVIEW_INTERACTION (self), FALSE);
  return latest (self).haptics_available;
}

/**
 * pi_preview_interaction_play_haptic:
 * @self: the interaction
 * @effect: the effect
 *
 * Asks for a short haptic effect on the device that drives the widget's running press, for
 * example %PI_HAPTIC_EFFECT_TICK when a quick action is highlighted in the peek. Only the
 * app's own running press can have one (after it was accepted, before it ends); the
 * compositor drops it silently when
 * [property@Pi.PreviewInteraction:haptics-available] is %FALSE (no actuator, or the user
 * turned haptics off) and when it comes less than 50 ms after the previous effect: it is
 * never an error to ask.
 *
 * Returns: %TRUE when a press was running and the request was sent
 *
 * Since: 1.1
 */
gboolean
pi_preview_interaction_play_haptic (PiPreviewInteraction *self, PiHapticEffect effect)
{
  g_return_val_if_fail (PI_IS_PREVIEW_INTERACTION (self), FALSE);
  g_return_val_if_fail (effect >= PI_HAPTIC_EFFECT_TICK && effect <= PI_HAPTIC_EFFECT_CONFIRM, FALSE);
  /* Whether the press may have one is the library's to say (it sends nothing otherwise). */
  if (self->context == NULL || self->last.id == 0)
    return FALSE;
  return pi_surface_context_play_haptic (self->context, self, self->last.id, effect);
}

/* The context's side. */

static PiSources
owner_sources (gpointer owner)
{
  PiPreviewInteraction *self = owner;
  return self->enabled ? self->allowed_sources : PI_SOURCES_NONE;
}

/* The latest press: the library's own while the widget is in its window, else the last one it
 * reported. */
static struct preview_interaction_client_press
latest (PiPreviewInteraction *self)
{
  struct preview_interaction_client_press press;
  if (self->last.id != 0 && self->context != NULL && pi_surface_context_get_press (self->context, self, &press)
      && press.id == self->last.id)
    return press;
  return self->last;
}

/* Keeps the library's word about the latest press, for when the widget has left its window. */
static void
take_press (PiPreviewInteraction *self, const struct preview_interaction_client_press *press)
{
  double x = self->last.x, y = self->last.y;
  guint64 time_usec = self->last.time_usec;
  self->last = *press;
  /* A press that was cancelled before it began has no position or time of its own. */
  if (press->phase == PREVIEW_INTERACTION_CLIENT_PHASE_CANCELLED && press->x == 0 && press->y == 0)
    {
      self->last.x = x;
      self->last.y = y;
    }
  if (press->time_usec == 0)
    self->last.time_usec = time_usec;
}

static enum preview_interaction_client_answer
owner_should_begin (gpointer owner, const struct preview_interaction_client_press *press)
{
  PiPreviewInteraction *self = owner;
  take_press (self, press);
  /* A new press: its id, device and haptics. */
  g_object_freeze_notify (G_OBJECT (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PRESS]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SOURCE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FORCE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HAPTICS_AVAILABLE]);
  g_object_thaw_notify (G_OBJECT (self));
  gboolean accept = FALSE;
  self->in_should_begin = TRUE;
  self->deferred = FALSE;
  g_object_ref (self);
  g_signal_emit (self, signals[SHOULD_BEGIN], 0, &accept);
  self->in_should_begin = FALSE;
  enum preview_interaction_client_answer answer;
  if (self->deferred)
    answer = PREVIEW_INTERACTION_CLIENT_ANSWER_LATER;
  else if (accept)
    answer = PREVIEW_INTERACTION_CLIENT_ANSWER_ACCEPT;
  else if (self->context != NULL
           && pi_surface_context_answer (self->context, self, press->id, FALSE) == PREVIEW_INTERACTION_CLIENT_OK)
    answer = PREVIEW_INTERACTION_CLIENT_ANSWER_LATER; /* declined now: the phase is the library's at once */
  else
    answer = PREVIEW_INTERACTION_CLIENT_ANSWER_DECLINE;
  g_object_unref (self);
  return answer;
}

static void
owner_phase_changed (gpointer owner, const struct preview_interaction_client_press *press)
{
  PiPreviewInteraction *self = owner;
  take_press (self, press);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PHASE]);
}

static void
owner_preview (gpointer owner, const struct preview_interaction_client_press *press, double progress,
               gboolean ended)
{
  PiPreviewInteraction *self = owner;
  take_press (self, press);
  g_signal_emit (self, signals[PREVIEW], 0, progress, ended);
}

static void
owner_commit (gpointer owner, const struct preview_interaction_client_press *press, double progress,
              gboolean ended)
{
  PiPreviewInteraction *self = owner;
  take_press (self, press);
  g_signal_emit (self, signals[COMMIT], 0, progress, ended);
}

/* The level the library reports, with its signal. */
static void
tell_stage (PiPreviewInteraction *self, guint stage)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STAGE]);
  g_signal_emit (self, signals[STAGE], 0, MIN (stage, 5u));
}

static void
owner_cancelled (gpointer owner, const struct preview_interaction_client_press *press, PiCancelReason reason)
{
  PiPreviewInteraction *self = owner;
  g_object_ref (self);
  guint stage = self->last.id == press->id ? self->last.stage : 0;
  take_press (self, press);
  /* An accelerator that had reached a level falls back to none. */
  if (stage != 0)
    tell_stage (self, 0);
  g_signal_emit (self, signals[CANCELLED], 0, reason);
  g_object_unref (self);
}

static void
owner_stage (gpointer owner, const struct preview_interaction_client_press *press, guint stage)
{
  PiPreviewInteraction *self = owner;
  take_press (self, press);
  tell_stage (self, stage);
}

static void
owner_accelerator_ended (gpointer owner, const struct preview_interaction_client_press *press)
{
  PiPreviewInteraction *self = owner;
  take_press (self, press);
  tell_stage (self, 0); /* always told, also when no level was reached */
}

static void
owner_haptics_changed (gpointer owner, const struct preview_interaction_client_press *press)
{
  PiPreviewInteraction *self = owner;
  if (press->id != self->last.id)
    return;
  take_press (self, press);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HAPTICS_AVAILABLE]);
}

static PiBehaviour
owner_behaviour (gpointer owner, guint *stages)
{
  PiPreviewInteraction *self = owner;
  *stages = self->behaviour == PI_BEHAVIOUR_ACCELERATOR ? self->stages : 0;
  return self->behaviour;
}

static void
owner_availability_changed (gpointer owner)
{
  PiPreviewInteraction *self = owner;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_AVAILABLE]);
}

static GtkWidget *
owner_widget (gpointer owner)
{
  return ((PiPreviewInteraction *) owner)->widget;
}

static gboolean
owner_focus_point (gpointer owner, double *x, double *y)
{
  return pi_preview_interaction_get_focus_point (owner, x, y);
}

/* What the window's context asks of the widget's interaction, and tells it. */
static const PiItemOwner owner_calls = {
  .widget = owner_widget,
  .sources = owner_sources,
  .behaviour = owner_behaviour,
  .focus_point = owner_focus_point,
  .should_begin = owner_should_begin,
  .preview = owner_preview,
  .commit = owner_commit,
  .cancelled = owner_cancelled,
  .stage = owner_stage,
  .accelerator_ended = owner_accelerator_ended,
  .phase_changed = owner_phase_changed,
  .haptics_changed = owner_haptics_changed,
  .availability_changed = owner_availability_changed,
};
