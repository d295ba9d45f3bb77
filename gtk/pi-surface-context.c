/* One protocol object per toplevel surface (the protocol allows one per wl_surface), shared by
 * every widget of that window that has a PiPreviewInteraction: its region is the union of
 * their visible allocations, its sources the union of theirs, and each press is routed to the
 * widget under it when it begins, then stays with it by press id. */
#include "config.h"

#include <gdk/wayland/gdkwayland.h>

#include "pi-private.h"

struct _PiSurfaceContext
{
  GtkNative *native; /* the context is data on it */
  PiDisplayClient *client;
  struct preview_interaction_client_interaction *handle; /* while the native is realized */
  GPtrArray *interactions;                              /* not owned: each leaves before it dies */
  GHashTable *presses;                                  /* press id → PiPreviewInteraction * */
  GdkFrameClock *clock;
  gulong realize_id, unrealize_id, layout_id, before_paint_id;
  cairo_region_t *region; /* the last one sent; NULL: none sent since attaching */
  PiSources sources;
  GtkEventController *guard; /* on the native, capture phase */
  guint pen_releases_to_swallow;
  guint in_callback; /* inside one of the library's callbacks for this window */
  gboolean orphaned; /* the last widget left during a callback: free it after */
};

static const char *context_key = "pi-surface-context";

static void
surface_transform (PiSurfaceContext *context, double *x, double *y)
{
  *x = 0;
  *y = 0;
  gtk_native_get_surface_transform (context->native, x, y);
}

/* The part of the widget its ancestors let show (a scrolled-away item has no region). */
static gboolean
visible_bounds (GtkWidget *widget, GtkWidget *native, graphene_rect_t *out)
{
  if (!gtk_widget_compute_bounds (widget, native, out))
    return FALSE;
  for (GtkWidget *ancestor = gtk_widget_get_parent (widget); ancestor != NULL && ancestor != native;
       ancestor = gtk_widget_get_parent (ancestor))
    {
      graphene_rect_t clip;
      if (gtk_widget_get_overflow (ancestor) != GTK_OVERFLOW_HIDDEN)
        continue;
      if (!gtk_widget_compute_bounds (ancestor, native, &clip) || !graphene_rect_intersection (out, &clip, out))
        return FALSE;
    }
  return out->size.width > 0 && out->size.height > 0;
}

static void
update_region (PiSurfaceContext *context)
{
  if (context->handle == NULL)
    return;
  GtkWidget *native = GTK_WIDGET (context->native);
  double tx, ty;
  surface_transform (context, &tx, &ty);
  cairo_region_t *region = cairo_region_create ();
  PiSources sources = PI_SOURCES_NONE;
  for (guint i = 0; i < context->interactions->len; i++)
    {
      PiPreviewInteraction *interaction = g_ptr_array_index (context->interactions, i);
      GtkWidget *widget = pi_preview_interaction_get_widget (interaction);
      PiSources allowed = pi_preview_interaction_region_sources (interaction);
      graphene_rect_t bounds;
      if (widget == NULL || allowed == PI_SOURCES_NONE || !gtk_widget_get_mapped (widget)
          || !gtk_widget_is_sensitive (widget) || !visible_bounds (widget, native, &bounds))
        continue;
      sources |= allowed;
      cairo_rectangle_int_t rect;
      rect.x = (int) floor (bounds.origin.x + tx);
      rect.y = (int) floor (bounds.origin.y + ty);
      rect.width = (int) ceil (bounds.origin.x + tx + bounds.size.width) - rect.x;
      rect.height = (int) ceil (bounds.origin.y + ty + bounds.size.height) - rect.y;
      cairo_region_union_rectangle (region, &rect);
    }

  gboolean changed = FALSE;
  if (context->region == NULL || !cairo_region_equal (region, context->region))
    {
      int count = cairo_region_num_rectangles (region);
      struct preview_interaction_client_rect *rects = g_new0 (struct preview_interaction_client_rect, MAX (count, 1));
      for (int i = 0; i < count; i++)
        {
          cairo_rectangle_int_t rect;
          cairo_region_get_rectangle (region, i, &rect);
          rects[i] = (struct preview_interaction_client_rect) { rect.x, rect.y, rect.width, rect.height };
        }
      /* Non-NULL with no rectangle is "nowhere", unlike NULL ("the whole surface"). */
      preview_interaction_client_interaction_set_region (context->handle, rects, (uint32_t) count);
      g_free (rects);
      g_clear_pointer (&context->region, cairo_region_destroy);
      context->region = cairo_region_reference (region);
      changed = TRUE;
    }
  if (sources != context->sources)
    {
      preview_interaction_client_interaction_set_sources (context->handle, sources);
      context->sources = sources;
      changed = TRUE;
    }
  cairo_region_destroy (region);
  /* Both apply on the surface's next commit: make sure there is one. */
  if (changed)
    gtk_widget_queue_draw (native);
}

/* After GTK's own layout: allocations (resize, scrolling, revealed or hidden widgets) are final. */
static void
after_layout (GdkFrameClock *clock, PiSurfaceContext *context)
{
  (void) clock;
  update_region (context);
}

/* GTK commits on its own, in the paint phase of its frame clock (GTK 4.8 has no commit hook).
 * "before-paint" is emitted on every cycle, before the tick callbacks, layout and the paint
 * that draws and commits, all in one main-loop dispatch: no callback of the library can come
 * in between. So the acknowledgement of the frames whose callbacks were made leaves here, just
 * ahead of the commit that shows them, and a compositor photographing a phase takes the
 * picture that shows it. */
static void
before_paint (GdkFrameClock *clock, PiSurfaceContext *context)
{
  (void) clock;
  if (context->handle != NULL)
    preview_interaction_client_interaction_will_commit (context->handle, NULL);
}

void
pi_surface_context_dispatched (PiSurfaceContext *context)
{
  if (context->clock != NULL)
    gdk_frame_clock_request_phase (context->clock, GDK_FRAME_CLOCK_PHASE_BEFORE_PAINT);
}

/* When the commit phase begins the compositor takes the contact away from core input. A
 * touch point gets wl_touch.cancel and a pointer wl_pointer.leave, but tablet-v2 wants the
 * tool's tip up before proximity_out, which GTK turns into a button release: a GtkButton
 * under the pen would click. So the gestures of the widget and its ancestors are reset
 * (they emit "cancel" and forget the sequence), and that release is swallowed. */
static void
cancel_gestures (GtkWidget *widget)
{
  for (; widget != NULL; widget = gtk_widget_get_parent (widget))
    {
      GListModel *controllers = gtk_widget_observe_controllers (widget);
      guint n = g_list_model_get_n_items (controllers);
      for (guint i = 0; i < n; i++)
        {
          GtkEventController *controller = g_list_model_get_item (controllers, i);
          if (GTK_IS_GESTURE (controller) && gtk_gesture_is_active (GTK_GESTURE (controller)))
            gtk_event_controller_reset (controller);
          g_object_unref (controller);
        }
      g_object_unref (controllers);
    }
}

static gboolean
press_in_flight (PiSurfaceContext *context)
{
  GHashTableIter iter;
  gpointer value;
  g_hash_table_iter_init (&iter, context->presses);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      PiPhase phase = pi_preview_interaction_get_phase (value);
      if (phase == PI_PHASE_ASKING || phase == PI_PHASE_PREVIEW)
        return TRUE;
    }
  return FALSE;
}

static gboolean
guard_event (GtkEventControllerLegacy *guard, GdkEvent *event, PiSurfaceContext *context)
{
  if (gdk_event_get_event_type (event) != GDK_BUTTON_RELEASE)
    return GDK_EVENT_PROPAGATE;
  /* A tablet tool's events carry the tool (their device is the tablet's logical pointer). */
  GdkDevice *device = gdk_event_get_device (event);
  if (gdk_event_get_device_tool (event) == NULL && (device == NULL || gdk_device_get_source (device) != GDK_SOURCE_PEN))
    return GDK_EVENT_PROPAGATE;
  /* The protocol sends preview_ended (or cancelled) before the core events it concerns, but
   * on another queue: catch up with it before GTK acts on the release. */
  if (context->pen_releases_to_swallow == 0 && press_in_flight (context))
    {
      struct preview_interaction_client *client = pi_display_client_get_handle (context->client);
      if (client != NULL)
        preview_interaction_client_dispatch (client);
    }
  if (context->pen_releases_to_swallow == 0)
    return GDK_EVENT_PROPAGATE;
  context->pen_releases_to_swallow--;
  return GDK_EVENT_STOP;
}

static PiPreviewInteraction *
routed (PiSurfaceContext *context, uint32_t press)
{
  return g_hash_table_lookup (context->presses, GUINT_TO_POINTER (press));
}

static enum preview_interaction_client_answer
route_should_begin (void *user_data, struct preview_interaction_client_interaction *handle,
                 const struct preview_interaction_client_press *press)
{
  PiSurfaceContext *context = user_data;
  (void) handle;
  double tx, ty;
  surface_transform (context, &tx, &ty);
  GtkWidget *native = GTK_WIDGET (context->native);
  /* The deepest widget that takes input there (insensitive and untargetable ones are
   * skipped), then up to the nearest one with an interaction of this window. */
  GtkWidget *picked = gtk_widget_pick (native, press->x - tx, press->y - ty, GTK_PICK_DEFAULT);
  for (GtkWidget *widget = picked; widget != NULL; widget = gtk_widget_get_parent (widget))
    {
      for (guint i = 0; i < context->interactions->len; i++)
        {
          PiPreviewInteraction *interaction = g_ptr_array_index (context->interactions, i);
          if (pi_preview_interaction_get_widget (interaction) != widget)
            continue;
          if (!pi_preview_interaction_accepts_source (interaction, (PiSource) press->source))
            return PREVIEW_INTERACTION_CLIENT_ANSWER_DECLINE;
          g_hash_table_insert (context->presses, GUINT_TO_POINTER (press->id), interaction);
          enum preview_interaction_client_answer answer = pi_preview_interaction_emit_should_begin (interaction, press);
          if (answer == PREVIEW_INTERACTION_CLIENT_ANSWER_DECLINE)
            g_hash_table_remove (context->presses, GUINT_TO_POINTER (press->id));
          return answer;
        }
      if (widget == native)
        break;
    }
  return PREVIEW_INTERACTION_CLIENT_ANSWER_DECLINE;
}

static void
route_preview (void *user_data, struct preview_interaction_client_interaction *handle,
            const struct preview_interaction_client_press *press, double progress, bool ended)
{
  (void) handle;
  PiSurfaceContext *context = user_data;
  PiPreviewInteraction *interaction = routed (context, press->id);
  if (interaction == NULL)
    return;
  if (ended)
    {
      if (press->source == PREVIEW_INTERACTION_CLIENT_SOURCE_PEN)
        context->pen_releases_to_swallow++;
      cancel_gestures (pi_preview_interaction_get_widget (interaction));
    }
  pi_preview_interaction_emit_preview (interaction, press, progress, ended);
}

static void
route_commit (void *user_data, struct preview_interaction_client_interaction *handle,
           const struct preview_interaction_client_press *press, double progress, bool ended)
{
  PiSurfaceContext *context = user_data;
  (void) handle;
  PiPreviewInteraction *interaction = routed (context, press->id);
  if (interaction == NULL)
    return;
  if (ended)
    g_hash_table_remove (context->presses, GUINT_TO_POINTER (press->id));
  pi_preview_interaction_emit_commit (interaction, press, progress, ended);
}

static void
route_cancelled (void *user_data, struct preview_interaction_client_interaction *handle,
              const struct preview_interaction_client_press *press, enum preview_interaction_client_cancel_reason reason)
{
  PiSurfaceContext *context = user_data;
  (void) handle;
  PiPreviewInteraction *interaction = routed (context, press->id);
  if (interaction == NULL)
    return;
  g_hash_table_remove (context->presses, GUINT_TO_POINTER (press->id));
  /* A newer compositor's reasons count as the system's. */
  PiCancelReason pi_reason = reason <= PREVIEW_INTERACTION_CLIENT_CANCEL_SYSTEM ? (PiCancelReason) reason
                                                                                : PI_CANCEL_REASON_SYSTEM;
  pi_preview_interaction_emit_cancelled (interaction, press, pi_reason);
}

static void context_free (gpointer data);

/* An app's handler may remove the window's last widget with an interaction; the context then
 * outlives the callback it is in. */
static void
enter_callback (PiSurfaceContext *context)
{
  context->in_callback++;
}

static void
leave_callback (PiSurfaceContext *context)
{
  if (--context->in_callback == 0 && context->orphaned)
    context_free (context);
}

static enum preview_interaction_client_answer
on_should_begin (void *user_data, struct preview_interaction_client_interaction *handle,
                 const struct preview_interaction_client_press *press)
{
  enter_callback (user_data);
  enum preview_interaction_client_answer answer = route_should_begin (user_data, handle, press);
  leave_callback (user_data);
  return answer;
}

static void
on_preview (void *user_data, struct preview_interaction_client_interaction *handle,
            const struct preview_interaction_client_press *press, double progress, bool ended)
{
  enter_callback (user_data);
  route_preview (user_data, handle, press, progress, ended);
  leave_callback (user_data);
}

static void
on_commit (void *user_data, struct preview_interaction_client_interaction *handle,
           const struct preview_interaction_client_press *press, double progress, bool ended)
{
  enter_callback (user_data);
  route_commit (user_data, handle, press, progress, ended);
  leave_callback (user_data);
}

static void
on_cancelled (void *user_data, struct preview_interaction_client_interaction *handle,
              const struct preview_interaction_client_press *press, enum preview_interaction_client_cancel_reason reason)
{
  enter_callback (user_data);
  route_cancelled (user_data, handle, press, reason);
  leave_callback (user_data);
}

static void
attach (PiSurfaceContext *context)
{
  struct preview_interaction_client *client = pi_display_client_get_handle (context->client);
  GdkSurface *surface = gtk_native_get_surface (context->native);
  if (client == NULL || surface == NULL || !GDK_IS_WAYLAND_SURFACE (surface) || context->handle != NULL)
    return;
  static const struct preview_interaction_client_interaction_callbacks callbacks = {
    .size = sizeof callbacks,
    .should_begin = on_should_begin,
    .preview = on_preview,
    .commit = on_commit,
    .cancelled = on_cancelled,
  };
  int status = preview_interaction_client_interaction_attach (
      client, gdk_wayland_surface_get_wl_surface (surface), &callbacks, context, &context->handle);
  if (status != PREVIEW_INTERACTION_CLIENT_OK)
    {
      g_debug ("no preview interaction on this window: %s", preview_interaction_client_status_string (status));
      context->handle = NULL;
      return;
    }
  context->sources = PI_SOURCES_ALL; /* the protocol's initial state */
  context->pen_releases_to_swallow = 0;
  context->clock = g_object_ref (gdk_surface_get_frame_clock (surface));
  context->layout_id = g_signal_connect_after (context->clock, "layout", G_CALLBACK (after_layout), context);
  context->before_paint_id = g_signal_connect (context->clock, "before-paint", G_CALLBACK (before_paint), context);
  preview_interaction_client_interaction_set_hold_acks (context->handle, true);
  update_region (context);
}

static void
detach (PiSurfaceContext *context)
{
  if (context->clock != NULL)
    {
      g_clear_signal_handler (&context->layout_id, context->clock);
      g_clear_signal_handler (&context->before_paint_id, context->clock);
      g_clear_object (&context->clock);
    }
  /* Running presses end without callbacks: tell their widgets, as the surface goes. */
  GHashTableIter iter;
  gpointer key, value;
  g_hash_table_iter_init (&iter, context->presses);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      struct preview_interaction_client_press press = { .id = GPOINTER_TO_UINT (key),
                                                        .phase = PREVIEW_INTERACTION_CLIENT_PHASE_CANCELLED,
                                                        .cancel_reason = PREVIEW_INTERACTION_CLIENT_CANCEL_SURFACE_GONE };
      g_hash_table_iter_remove (&iter);
      pi_preview_interaction_emit_cancelled (value, &press, PI_CANCEL_REASON_SURFACE_GONE);
      g_hash_table_iter_init (&iter, context->presses);
    }
  if (context->handle != NULL)
    preview_interaction_client_interaction_detach (context->handle);
  context->handle = NULL;
  g_clear_pointer (&context->region, cairo_region_destroy);
}

static void
native_realized (GtkWidget *native, PiSurfaceContext *context)
{
  (void) native;
  attach (context);
}

/* Runs before GTK destroys the surface: the protocol object goes first. */
static void
native_unrealizing (GtkWidget *native, PiSurfaceContext *context)
{
  (void) native;
  detach (context);
}

static void
context_free (gpointer data)
{
  PiSurfaceContext *context = data;
  detach (context);
  g_clear_signal_handler (&context->realize_id, context->native);
  g_clear_signal_handler (&context->unrealize_id, context->native);
  gtk_widget_remove_controller (GTK_WIDGET (context->native), context->guard);
  pi_display_client_remove_context (context->client, context);
  g_hash_table_unref (context->presses);
  g_ptr_array_unref (context->interactions);
  g_free (context);
}

PiSurfaceContext *
pi_surface_context_join (GtkWidget *widget, PiPreviewInteraction *interaction)
{
  GtkNative *native = gtk_widget_get_native (widget);
  if (native == NULL)
    return NULL;
  PiSurfaceContext *context = g_object_get_data (G_OBJECT (native), context_key);
  if (context == NULL)
    {
      context = g_new0 (PiSurfaceContext, 1);
      context->native = native;
      context->client = pi_display_client_for_display (gtk_widget_get_display (GTK_WIDGET (native)));
      context->interactions = g_ptr_array_new ();
      context->presses = g_hash_table_new (NULL, NULL);
      context->realize_id = g_signal_connect (native, "realize", G_CALLBACK (native_realized), context);
      context->unrealize_id = g_signal_connect (native, "unrealize", G_CALLBACK (native_unrealizing), context);
      context->guard = gtk_event_controller_legacy_new ();
      gtk_event_controller_set_propagation_phase (context->guard, GTK_PHASE_CAPTURE);
      gtk_event_controller_set_name (context->guard, "pi-preview-interaction-guard");
      g_signal_connect (context->guard, "event", G_CALLBACK (guard_event), context);
      gtk_widget_add_controller (GTK_WIDGET (native), context->guard);
      pi_display_client_add_context (context->client, context);
      g_object_set_data_full (G_OBJECT (native), context_key, context, context_free);
    }
  g_ptr_array_add (context->interactions, interaction);
  if (gtk_widget_get_realized (GTK_WIDGET (native)))
    attach (context);
  update_region (context);
  return context;
}

void
pi_surface_context_leave (PiSurfaceContext *context, PiPreviewInteraction *interaction)
{
  pi_surface_context_cancel_presses_of (context, interaction);
  /* Called from one of this window's callbacks, the library delivers those cancels after
   * it returns, when the interaction may be gone: deliver them now, and forget the route. */
  GHashTableIter iter;
  gpointer key, value;
  g_hash_table_iter_init (&iter, context->presses);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      if (value != interaction)
        continue;
      struct preview_interaction_client_press press = { .id = GPOINTER_TO_UINT (key),
                                                        .phase = PREVIEW_INTERACTION_CLIENT_PHASE_CANCELLED,
                                                        .cancel_reason = PREVIEW_INTERACTION_CLIENT_CANCEL_CLIENT_CANCELLED };
      g_hash_table_iter_remove (&iter);
      pi_preview_interaction_emit_cancelled (interaction, &press, PI_CANCEL_REASON_CLIENT_CANCELLED);
      g_hash_table_iter_init (&iter, context->presses);
    }
  g_ptr_array_remove (context->interactions, interaction);
  if (context->interactions->len == 0)
    {
      /* The last widget left: the window has no protocol object any more. */
      if (context->in_callback > 0)
        {
          detach (context);
          context->orphaned = TRUE;
          g_object_steal_data (G_OBJECT (context->native), context_key);
        }
      else
        g_object_set_data (G_OBJECT (context->native), context_key, NULL);
      return;
    }
  update_region (context);
}

void
pi_surface_context_invalidate (PiSurfaceContext *context)
{
  update_region (context);
}

gboolean
pi_surface_context_is_available (PiSurfaceContext *context)
{
  return context->handle != NULL && pi_display_client_is_available (context->client);
}

int
pi_surface_context_answer (PiSurfaceContext *context, guint press, gboolean accept)
{
  if (context->handle == NULL)
    return PREVIEW_INTERACTION_CLIENT_ERROR_DISCONNECTED;
  int status = preview_interaction_client_interaction_answer (context->handle, press, accept);
  if (status == PREVIEW_INTERACTION_CLIENT_OK && !accept)
    g_hash_table_remove (context->presses, GUINT_TO_POINTER (press));
  return status;
}

/* Each press is cancelled on the wire (the compositor gives the contact back to core input)
 * and its cancelled signal is emitted now (or right after the current callback). */
void
pi_surface_context_cancel_presses_of (PiSurfaceContext *context, PiPreviewInteraction *interaction)
{
  GArray *ids = g_array_new (FALSE, FALSE, sizeof (guint));
  GHashTableIter iter;
  gpointer key, value;
  g_hash_table_iter_init (&iter, context->presses);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (value == interaction)
      {
        guint id = GPOINTER_TO_UINT (key);
        g_array_append_val (ids, id);
      }
  for (guint i = 0; i < ids->len; i++)
    {
      guint id = g_array_index (ids, guint, i);
      if (context->handle == NULL
          || preview_interaction_client_interaction_cancel (context->handle, id) != PREVIEW_INTERACTION_CLIENT_OK)
        g_hash_table_remove (context->presses, GUINT_TO_POINTER (id));
    }
  g_array_unref (ids);
}

gboolean
pi_surface_context_to_widget (PiSurfaceContext *context, GtkWidget *widget, double sx, double sy, double *x,
                              double *y)
{
  double tx, ty;
  surface_transform (context, &tx, &ty);
  graphene_point_t in = GRAPHENE_POINT_INIT ((float) (sx - tx), (float) (sy - ty)), out;
  if (!gtk_widget_compute_point (GTK_WIDGET (context->native), widget, &in, &out))
    return FALSE;
  *x = out.x;
  *y = out.y;
  return TRUE;
}

void
pi_surface_context_availability_changed (PiSurfaceContext *context)
{
  if (pi_display_client_is_available (context->client))
    {
      g_clear_pointer (&context->region, cairo_region_destroy);
      update_region (context);
    }
  for (guint i = 0; i < context->interactions->len; i++)
    pi_preview_interaction_notify_available (g_ptr_array_index (context->interactions, i));
}
