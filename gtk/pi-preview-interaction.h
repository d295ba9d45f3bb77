/* The preview interaction ("peek and pop", UIKit's UIPreviewInteraction) for GTK 4 widgets. */
#pragma once

#include <gtk/gtk.h>

#include "pi-enums.h"

G_BEGIN_DECLS

#define PI_TYPE_PREVIEW_INTERACTION (pi_preview_interaction_get_type ())
G_DECLARE_FINAL_TYPE (PiPreviewInteraction, pi_preview_interaction, PI, PREVIEW_INTERACTION, GObject)

/**
 * PI_PREVIEW_INTERACTION_ERROR:
 *
 * The error domain of [method@Pi.PreviewInteraction.answer].
 */
#define PI_PREVIEW_INTERACTION_ERROR (pi_preview_interaction_error_quark ())
GQuark pi_preview_interaction_error_quark (void);

PiPreviewInteraction *pi_preview_interaction_new (GtkWidget *widget);
PiPreviewInteraction *pi_preview_interaction_get_for_widget (GtkWidget *widget);

GtkWidget *pi_preview_interaction_get_widget (PiPreviewInteraction *self);
void pi_preview_interaction_detach (PiPreviewInteraction *self);

gboolean pi_preview_interaction_get_available (PiPreviewInteraction *self);

gboolean pi_preview_interaction_get_enabled (PiPreviewInteraction *self);
void pi_preview_interaction_set_enabled (PiPreviewInteraction *self, gboolean enabled);

PiSources pi_preview_interaction_get_allowed_sources (PiPreviewInteraction *self);
void pi_preview_interaction_set_allowed_sources (PiPreviewInteraction *self, PiSources sources);

PiSource pi_preview_interaction_get_source (PiPreviewInteraction *self);
PiForce pi_preview_interaction_get_force (PiPreviewInteraction *self);
PiPhase pi_preview_interaction_get_phase (PiPreviewInteraction *self);
guint pi_preview_interaction_get_press (PiPreviewInteraction *self);
gboolean pi_preview_interaction_get_location (PiPreviewInteraction *self, double *x, double *y);
guint64 pi_preview_interaction_get_time (PiPreviewInteraction *self);

guint pi_preview_interaction_defer_answer (PiPreviewInteraction *self);
gboolean pi_preview_interaction_answer (PiPreviewInteraction *self, guint press, gboolean accept, GError **error);
void pi_preview_interaction_cancel (PiPreviewInteraction *self);

PiBehaviour pi_preview_interaction_get_behaviour (PiPreviewInteraction *self);
void pi_preview_interaction_set_behaviour (PiPreviewInteraction *self, PiBehaviour behaviour);
guint pi_preview_interaction_get_stages (PiPreviewInteraction *self);
void pi_preview_interaction_set_stages (PiPreviewInteraction *self, guint stages);
guint pi_preview_interaction_get_stage (PiPreviewInteraction *self);

void pi_preview_interaction_set_focus_point (PiPreviewInteraction *self, double x, double y);
void pi_preview_interaction_unset_focus_point (PiPreviewInteraction *self);
gboolean pi_preview_interaction_get_focus_point (PiPreviewInteraction *self, double *x, double *y);

gboolean pi_preview_interaction_get_haptics_available (PiPreviewInteraction *self);
gboolean pi_preview_interaction_play_haptic (PiPreviewInteraction *self, PiHapticEffect effect);

G_END_DECLS
