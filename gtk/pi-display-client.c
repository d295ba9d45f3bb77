/* The client library's context on a GdkDisplay, driven from the GLib main loop: a GSource
 * on the library's descriptor calls its dispatch, so every signal is emitted on the main
 * thread, between GTK's own events. */
#include "config.h"

#include <gdk/wayland/gdkwayland.h>
#include <glib-unix.h>
#include <math.h>

#include "pi-display-client.h"
#include "pi-settings-private.h"

typedef struct
{
  const PiDisplayClientListener *listener;
  gpointer data;
} Listening;

struct _PiDisplayClient
{
  GdkDisplay *display; /* weak: the client is data on it */
  struct preview_interaction_client *handle;
  guint source_id;
  gboolean available;
  PiSettings *settings;
  GArray *listeners; /* Listening: each is removed before its data dies */
};

/* Calls every listener's `member` (a copy: a listener may remove itself). */
#define TELL(client, member)                                                                                        \
  G_STMT_START                                                                                                      \
  {                                                                                                                 \
    g_autoptr (GArray) listening = g_array_copy ((client)->listeners);                                             \
    for (guint i = 0; i < listening->len; i++)                                                                      \
      {                                                                                                             \
        Listening *one = &g_array_index (listening, Listening, i);                                                  \
        if (one->listener->member != NULL && is_listening ((client), one->data))                                    \
          one->listener->member (one->data);                                                                        \
      }                                                                                                             \
  }                                                                                                                 \
  G_STMT_END

static gboolean
is_listening (PiDisplayClient *client, gpointer data)
{
  for (guint i = 0; i < client->listeners->len; i++)
    if (g_array_index (client->listeners, Listening, i).data == data)
      return TRUE;
  return FALSE;
}

static const char *client_key = "pi-display-client";

/* The library's messages: a compositor breaking the protocol or a lost connection is worth
 * a message, not a warning (G_DEBUG=fatal-warnings must not turn someone else's bug into
 * the app's crash); misuse of the API is the adapter's bug. May come from the reader. */
static void
log_message (void *user_data, enum preview_interaction_client_log_level level, const char *message)
{
  (void) user_data;
  switch (level)
    {
    case PREVIEW_INTERACTION_CLIENT_LOG_DEBUG:
      g_log (PI_LOG_DOMAIN, G_LOG_LEVEL_DEBUG, "%s", message);
      break;
    case PREVIEW_INTERACTION_CLIENT_LOG_INFO:
      g_log (PI_LOG_DOMAIN, G_LOG_LEVEL_INFO, "%s", message);
      break;
    case PREVIEW_INTERACTION_CLIENT_LOG_WARNING:
    case PREVIEW_INTERACTION_CLIENT_LOG_ERROR:
    default:
      g_log (PI_LOG_DOMAIN, G_LOG_LEVEL_MESSAGE, "%s", message);
      break;
    }
}

static void
availability_changed (void *user_data, struct preview_interaction_client *handle, bool available)
{
  PiDisplayClient *client = user_data;
  (void) handle;
  client->available = available;
  TELL (client, availability_changed);
}

static double
clamp_threshold (double value)
{
  return isfinite (value) ? CLAMP (value, 0, 1) : 0;
}

static void
apply_settings (PiDisplayClient *client, const struct preview_interaction_client_settings *settings)
{
  PiSettingsValues values = {
    .sensitivity = settings->sensitivity >= PREVIEW_INTERACTION_CLIENT_SENSITIVITY_LIGHT
                           && settings->sensitivity <= PREVIEW_INTERACTION_CLIENT_SENSITIVITY_CUSTOM
                       ? (PiSensitivity) settings->sensitivity
                       : PI_SENSITIVITY_CUSTOM,
    .begin = clamp_threshold (settings->begin_threshold),
    .commit = clamp_threshold (settings->commit_threshold),
    .complete = clamp_threshold (settings->complete_threshold),
    .long_press_ms = settings->long_press_ms,
    .haptics = settings->haptics <= PREVIEW_INTERACTION_CLIENT_HAPTICS_STRONG ? (PiHaptics) settings->haptics
                                                                              : PI_HAPTICS_STRONG,
    .completion = settings->completion == PREVIEW_INTERACTION_CLIENT_COMPLETION_ON_RELEASE ? PI_COMPLETION_RELEASE
                                                                                           : PI_COMPLETION_FORCE,
  };
  pi_settings_update (client->settings, &values);
}

/* The compositor's settings group (protocol version 2), once per change. */
static void
settings_changed (void *user_data, struct preview_interaction_client *handle,
                  const struct preview_interaction_client_settings *settings)
{
  (void) handle;
  apply_settings (user_data, settings);
}

static gboolean
readable (int fd, GIOCondition condition, gpointer user_data)
{
  PiDisplayClient *client = user_data;
  (void) fd;
  (void) condition;
  if (preview_interaction_client_dispatch (client->handle) == PREVIEW_INTERACTION_CLIENT_ERROR_DISCONNECTED)
    {
      /* The compositor is gone: the running presses' cancels were delivered. GDK ends the
       * app on its own connection's loss; until then nothing more comes from here. */
      client->source_id = 0;
      if (client->available)
        availability_changed (client, client->handle, FALSE);
      return G_SOURCE_REMOVE;
    }
  /* The windows acknowledge what they were given right before their next picture. */
  TELL (client, dispatched);
  return G_SOURCE_CONTINUE;
}

static void
display_client_free (gpointer data)
{
  PiDisplayClient *client = data;
  if (client->source_id)
    g_source_remove (client->source_id);
  if (client->handle)
    preview_interaction_client_destroy (client->handle);
  g_array_unref (client->listeners);
  g_object_unref (client->settings);
  g_free (client);
}

static PiDisplayClient *
display_client_new (GdkDisplay *display)
{
  PiDisplayClient *client = g_new0 (PiDisplayClient, 1);
  client->display = display;
  client->listeners = g_array_new (FALSE, FALSE, sizeof (Listening));
  client->settings = pi_settings_new_for_client (display);
  if (!GDK_IS_WAYLAND_DISPLAY (display))
    return client; /* X11, Broadway: the app works as before, without previews */

  struct preview_interaction_client_callbacks callbacks = {
    .size = sizeof callbacks,
    .availability_changed = availability_changed,
    .log = log_message,
    .settings_changed = settings_changed,
  };
  struct wl_display *wl_display = gdk_wayland_display_get_wl_display (display);
  /* On GDK's default queue, which GDK dispatches on this thread: the library's events are read
   * and handled with GDK's own, no thread of its own reads the connection. */
  int status = preview_interaction_client_create_on_queue (wl_display, NULL, &callbacks, client, &client->handle);
  if (status != PREVIEW_INTERACTION_CLIENT_OK)
    {
      g_debug ("preview interactions unavailable: %s", preview_interaction_client_status_string (status));
      client->handle = NULL;
      return client;
    }
  bool available = false;
  preview_interaction_client_is_available (client->handle, &available);
  client->available = available;
  struct preview_interaction_client_settings settings = { .size = sizeof settings };
  if (preview_interaction_client_get_settings (client->handle, &settings) == PREVIEW_INTERACTION_CLIENT_OK)
    apply_settings (client, &settings);
  int fd = -1;
  if (preview_interaction_client_get_fd (client->handle, &fd) == PREVIEW_INTERACTION_CLIENT_OK)
    client->source_id = g_unix_fd_add_full (G_PRIORITY_DEFAULT, fd, G_IO_IN, readable, client, NULL);
  return client;
}

PiDisplayClient *
pi_display_client_for_display (GdkDisplay *display)
{
  PiDisplayClient *client = g_object_get_data (G_OBJECT (display), client_key);
  if (client == NULL)
    {
      client = display_client_new (display);
      /* Lives as long as the display: the library's context belongs to its connection. */
      g_object_set_data_full (G_OBJECT (display), client_key, client, display_client_free);
    }
  return client;
}

struct preview_interaction_client *
pi_display_client_get_handle (PiDisplayClient *client)
{
  return client->handle;
}

PiSettings *
pi_display_client_get_settings (PiDisplayClient *client)
{
  return client->settings;
}

gboolean
pi_display_client_is_available (PiDisplayClient *client)
{
  return client->handle != NULL && client->available;
}

void
pi_display_client_add_listener (PiDisplayClient *client, const PiDisplayClientListener *listener, gpointer data)
{
  Listening one = { listener, data };
  g_array_append_val (client->listeners, one);
}

void
pi_display_client_remove_listener (PiDisplayClient *client, gpointer data)
{
  for (guint i = 0; i < client->listeners->len; i++)
    if (g_array_index (client->listeners, Listening, i).data == data)
      {
        g_array_remove_index (client->listeners, i);
        return;
      }
}

/**
 * pi_settings_get_for_display:
 * @display: a display
 *
 * Returns: (transfer none): the user's settings on @display (the same object every time)
 *
 * Since: 1.1
 */
PiSettings *
pi_settings_get_for_display (GdkDisplay *display)
{
  g_return_val_if_fail (GDK_IS_DISPLAY (display), NULL);
  /* The display's client reads them from the compositor. */
  return pi_display_client_get_settings (pi_display_client_for_display (display));
}

/**
 * pi_settings_get_default:
 *
 * Returns: (transfer none) (nullable): the user's settings on the default display, %NULL
 *   when there is none
 *
 * Since: 1.1
 */
PiSettings *
pi_settings_get_default (void)
{
  GdkDisplay *display = gdk_display_get_default ();
  return display != NULL ? pi_settings_get_for_display (display) : NULL;
}
