/* docs/gtk.md's C example, built by meson so that it stays true: a button that peeks and pops. */
#include <preview-interaction-gtk.h>

static void
previewed (PiPreviewInteraction *interaction, double progress, gboolean ended, GtkWidget *button)
{
  gtk_widget_set_opacity (button, 1.0 - 0.4 * progress); /* a hint of what is coming */
}

static void
committed (PiPreviewInteraction *interaction, double progress, gboolean ended, GtkWidget *button)
{
  if (ended)
    g_print ("opened\n"); /* the pop: perform the action, once */
}

static void
cancelled (PiPreviewInteraction *interaction, PiCancelReason reason, GtkWidget *button)
{
  gtk_widget_set_opacity (button, 1.0); /* undo the hint, whatever the reason */
}

static gboolean
should_begin (PiPreviewInteraction *interaction, gpointer user_data)
{
  double x, y;
  pi_preview_interaction_get_location (interaction, &x, &y); /* in the button's coordinates */
  return x >= 0 && y >= 0;
}

static void
activate (GtkApplication *app)
{
  GtkWidget *window = gtk_application_window_new (app);
  GtkWidget *button = gtk_button_new_with_label ("Press harder");
  gtk_window_set_child (GTK_WINDOW (window), button);

  /* UIPreviewInteraction(view: button); the button keeps it alive. */
  PiPreviewInteraction *interaction = pi_preview_interaction_new (button);
  g_signal_connect (interaction, "should-begin", G_CALLBACK (should_begin), NULL);
  g_signal_connect (interaction, "preview", G_CALLBACK (previewed), button);
  g_signal_connect (interaction, "commit", G_CALLBACK (committed), button);
  g_signal_connect (interaction, "cancelled", G_CALLBACK (cancelled), button);
  g_object_unref (interaction);

  gtk_window_present (GTK_WINDOW (window));
}

int
main (int argc, char **argv)
{
  GtkApplication *app = gtk_application_new ("org.example.Peek", G_APPLICATION_DEFAULT_FLAGS);
  g_signal_connect (app, "activate", G_CALLBACK (activate), NULL);
  int status = g_application_run (G_APPLICATION (app), argc, argv);
  g_object_unref (app);
  return status;
}
