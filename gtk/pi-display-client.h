/* One per GdkDisplay: the client library's context, driven from the GLib main loop. It knows
 * nothing of windows or widgets: the windows' contexts listen to it. */
#pragma once

#include <gtk/gtk.h>
#include <preview-interaction-client.h>

#include "pi-settings.h"

G_BEGIN_DECLS

#define PI_LOG_DOMAIN "PreviewInteraction"

typedef struct _PiDisplayClient PiDisplayClient;

/* What a listener hears (each may be NULL). */
typedef struct
{
  /* The compositor's global appeared or went away. */
  void (*availability_changed) (gpointer data);
  /* The library made its callbacks. */
  void (*dispatched) (gpointer data);
} PiDisplayClientListener;

PiDisplayClient *pi_display_client_for_display (GdkDisplay *display);
/* NULL when the display is not Wayland or the library could not start. */
struct preview_interaction_client *pi_display_client_get_handle (PiDisplayClient *client);
gboolean pi_display_client_is_available (PiDisplayClient *client);
PiSettings *pi_display_client_get_settings (PiDisplayClient *client);

/* `listener` (static) is called with `data` until it is removed. */
void pi_display_client_add_listener (PiDisplayClient *client, const PiDisplayClientListener *listener,
                                     gpointer data);
void pi_display_client_remove_listener (PiDisplayClient *client, gpointer data);

G_END_DECLS
