/* One per GtkNative with attached widgets: the client library's surface with items on its
 * wl_surface, one item per widget. It knows nothing of PiPreviewInteraction: each item has an
 * owner (the widget's interaction) that answers and hears through PiItemOwner. */
#pragma once

#include <gtk/gtk.h>
#include <preview-interaction-client.h>

#include "pi-enums.h"

G_BEGIN_DECLS

typedef struct _PiSurfaceContext PiSurfaceContext;

/* What the context asks of an item's owner, and tells it (every member is set). */
typedef struct
{
  GtkWidget *(*widget) (gpointer owner);
  /* The sources presses may begin with now (none: not enabled). */
  PiSources (*sources) (gpointer owner);
  /* The behaviour, and an accelerator's number of stages (else 0). */
  PiBehaviour (*behaviour) (gpointer owner, guint *stages);
  /* The app's focus point, in the widget's coordinates; FALSE: none. */
  gboolean (*focus_point) (gpointer owner, double *x, double *y);

  enum preview_interaction_client_answer (*should_begin) (gpointer owner,
                                                          const struct preview_interaction_client_press *press);
  void (*preview) (gpointer owner, const struct preview_interaction_client_press *press, double progress,
                   gboolean ended);
  void (*commit) (gpointer owner, const struct preview_interaction_client_press *press, double progress,
                  gboolean ended);
  void (*cancelled) (gpointer owner, const struct preview_interaction_client_press *press, PiCancelReason reason);
  void (*stage) (gpointer owner, const struct preview_interaction_client_press *press, guint stage);
  void (*accelerator_ended) (gpointer owner, const struct preview_interaction_client_press *press);
  void (*phase_changed) (gpointer owner, const struct preview_interaction_client_press *press);
  void (*haptics_changed) (gpointer owner, const struct preview_interaction_client_press *press);
  void (*availability_changed) (gpointer owner);
} PiItemOwner;

PiSurfaceContext *pi_surface_context_join (GtkWidget *widget, const PiItemOwner *calls, gpointer owner);
void pi_surface_context_leave (PiSurfaceContext *context, gpointer owner);
/* Something that shapes the region changed (enabled, sources, sensitivity, visibility). */
void pi_surface_context_invalidate (PiSurfaceContext *context);
gboolean pi_surface_context_is_available (PiSurfaceContext *context);
int pi_surface_context_answer (PiSurfaceContext *context, gpointer owner, guint press, gboolean accept);
void pi_surface_context_cancel_presses_of (PiSurfaceContext *context, gpointer owner);
gboolean pi_surface_context_play_haptic (PiSurfaceContext *context, gpointer owner, guint press,
                                         PiHapticEffect effect);
/* The owner's latest press as the library knows it (its phase is the library's). */
gboolean pi_surface_context_get_press (PiSurfaceContext *context, gpointer owner,
                                       struct preview_interaction_client_press *press);
/* Surface coordinates of the context's native to the widget's coordinates. */
gboolean pi_surface_context_to_widget (PiSurfaceContext *context, GtkWidget *widget, double sx, double sy,
                                       double *x, double *y);

G_END_DECLS
