/* The adapter's latency at the app, side by side with GTK's own: a window whose drawing area
 * has a PiPreviewInteraction and a GtkGestureStylus. For every preview signal and every
 * stylus event it prints when the app got it (g_get_monotonic_time, µs) and the hardware
 * event's time (the adapter's in µs, GDK's in ms), for gtk/tests/latency.py to pair up. */
#include <preview-interaction-gtk.h>
#include <stdio.h>

static void
previewed (PiPreviewInteraction *interaction, double progress, gboolean ended, gpointer data)
{
  gint64 now = g_get_monotonic_time ();
  printf ("signal %" G_GUINT64_FORMAT " %" G_GINT64_FORMAT "\n", pi_preview_interaction_get_time (interaction), now);
}

static void
stylus_event (GtkGestureStylus *stylus, double x, double y, gpointer data)
{
  gint64 now = g_get_monotonic_time ();
  GdkEvent *event = gtk_event_controller_get_current_event (GTK_EVENT_CONTROLLER (stylus));
  if (event != NULL)
    printf ("stylus %u %" G_GINT64_FORMAT "\n", gdk_event_get_time (event), now);
}

static void
activate (GtkApplication *app)
{
  GtkWidget *window = gtk_application_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  GtkWidget *area = gtk_drawing_area_new ();
  gtk_window_set_child (GTK_WINDOW (window), area);
  PiPreviewInteraction *interaction = pi_preview_interaction_new (area);
  g_signal_connect (interaction, "preview", G_CALLBACK (previewed), NULL);
  g_object_unref (interaction);
  GtkGesture *stylus = gtk_gesture_stylus_new ();
  g_signal_connect (stylus, "down", G_CALLBACK (stylus_event), NULL);
  g_signal_connect (stylus, "motion", G_CALLBACK (stylus_event), NULL);
  gtk_widget_add_controller (area, GTK_EVENT_CONTROLLER (stylus));
  gtk_window_present (GTK_WINDOW (window));
}

int
main (int argc, char **argv)
{
  setvbuf (stdout, NULL, _IOLBF, 0);
  GtkApplication *app = gtk_application_new ("org.example.PeekLatency", G_APPLICATION_NON_UNIQUE);
  g_signal_connect (app, "activate", G_CALLBACK (activate), NULL);
  int status = g_application_run (G_APPLICATION (app), argc, argv);
  g_object_unref (app);
  return status;
}
