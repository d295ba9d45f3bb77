/* What the adapter's parts tell each other: the widget's interaction, the window's context
 * (one protocol object per toplevel surface) and the display's client library. */
#pragma once

#include <preview-interaction-client.h>

#include "pi-preview-interaction.h"
#include "pi-settings.h"

G_BEGIN_DECLS

#define PI_LOG_DOMAIN "PreviewInteraction"

/* One per GdkDisplay: the client library's context, driven from the GLib main loop. */
typedef struct _PiDisplayClient PiDisplayClient;

PiDisplayClient *pi_display_client_for_display (GdkDisplay *display);
/* NULL when the display is not Wayland or the library could not start. */
struct preview_interaction_client *pi_display_client_get_handle (PiDisplayClient *client);
gboolean pi_display_client_is_available (PiDisplayClient *client);
PiSettings *pi_display_client_get_settings (PiDisplayClient *client);

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

/* One per GtkNative with attached widgets: the client library's surface with items on its
 * wl_surface, one item per widget. */
typedef struct _PiSurfaceContext PiSurfaceContext;

void pi_display_client_add_context (PiDisplayClient *client, PiSurfaceContext *context);
void pi_display_client_remove_context (PiDisplayClient *client, PiSurfaceContext *context);

PiSurfaceContext *pi_surface_context_join (GtkWidget *widget, PiPreviewInteraction *interaction);
void pi_surface_context_leave (PiSurfaceContext *context, PiPreviewInteraction *interaction);
/* Something that shapes the region changed (enabled, sources, sensitivity, visibility). */
void pi_surface_context_invalidate (PiSurfaceContext *context);
gboolean pi_surface_context_is_available (PiSurfaceContext *context);
int pi_surface_context_answer (PiSurfaceContext *context, PiPreviewInteraction *interaction, guint press,
                               gboolean accept);
void pi_surface_context_cancel_presses_of (PiSurfaceContext *context, PiPreviewInteraction *interaction);
gboolean pi_surface_context_play_haptic (PiSurfaceContext *context, PiPreviewInteraction *interaction, guint press,
                                         PiHapticEffect effect);
/* The widget's latest press as the library knows it (its phase is the library's). */
gboolean pi_surface_context_get_press (PiSurfaceContext *context, PiPreviewInteraction *interaction,
                                       struct preview_interaction_client_press *press);
/* Surface coordinates of the context's native to the widget's coordinates. */
gboolean pi_surface_context_to_widget (PiSurfaceContext *context, GtkWidget *widget, double sx, double sy,
                                       double *x, double *y);
void pi_surface_context_availability_changed (PiSurfaceContext *context);
/* The library made callbacks: run a frame clock cycle, whose "before-paint" acknowledges them. */
void pi_surface_context_dispatched (PiSurfaceContext *context);

/* The context's calls into the interaction the library routed a press to. */
PiSources pi_preview_interaction_region_sources (PiPreviewInteraction *self);
enum preview_interaction_client_answer pi_preview_interaction_emit_should_begin (
    PiPreviewInteraction *self, const struct preview_interaction_client_press *press);
void pi_preview_interaction_emit_preview (PiPreviewInteraction *self,
                                          const struct preview_interaction_client_press *press,
                                          double progress, gboolean ended);
void pi_preview_interaction_emit_commit (PiPreviewInteraction *self,
                                         const struct preview_interaction_client_press *press,
                                         double progress, gboolean ended);
void pi_preview_interaction_emit_cancelled (PiPreviewInteraction *self,
                                            const struct preview_interaction_client_press *press,
                                            PiCancelReason reason);
void pi_preview_interaction_emit_stage (PiPreviewInteraction *self,
                                        const struct preview_interaction_client_press *press, guint stage);
void pi_preview_interaction_emit_accelerator_ended (PiPreviewInteraction *self,
                                                    const struct preview_interaction_client_press *press);
void pi_preview_interaction_emit_phase_changed (PiPreviewInteraction *self,
                                                const struct preview_interaction_client_press *press);
void pi_preview_interaction_set_press_haptics (PiPreviewInteraction *self,
                                               const struct preview_interaction_client_press *press);
/* The behaviour of the widget's area, and an accelerator's number of stages (else 0). */
PiBehaviour pi_preview_interaction_region_behaviour (PiPreviewInteraction *self, guint *stages);
void pi_preview_interaction_notify_available (PiPreviewInteraction *self);

G_END_DECLS
