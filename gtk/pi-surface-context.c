/* One protocol object per toplevel surface (the protocol allows one per wl_surface), shared by
 * every widget of that window that has a PiPreviewInteraction: the client library's surface
 * with items, one item per widget. The library makes the region, sources, behaviours and focus
 * point from the items and routes each press; this tells it the widgets' visible bounds, depth
 * and settings after every layout, hit-tests with GTK's picking, and keeps GTK's side of a
 * press (gestures reset, the pen's release swallowed). */
#include "config.h"

#include <gdk/wayland/gdkwayland.h>

#include "pi-display-client.h"
#include "pi-surface-context.h"

/* One widget's item on the window's surface. */
typedef struct
{
  PiSurfaceContext *context;
  const PiItemOwner *calls;
  gpointer owner; /* the widget's interaction, not owned: it leaves before it dies */
  struct preview_interaction_client_item *handle; /* while the surface is attached */
} PiItem;

struct _PiSurfaceContext
{
  GtkNative *native; /* the context is data on it */
  PiDisplayClient *client;
  struct preview_interaction_client_surface *handle; /* while the native is realized */
  GPtrArray *items;                                  /* PiItem *, owned */
  GdkFrameClock *clock;
  gulong realize_id, unrealize_id, layout_id, before_paint_id;
  GtkRoot *root; /* weak: its focus is watched while attached */
  gulong focus_id;
  GtkEventController *guard; /* on the native, capture phase */
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

static cairo_rectangle_int_t
surface_rect (const graphene_rect_t *bounds, double tx, double ty)
{
  cairo_rectangle_int_t rect;
  rect.x = (int) floor (bounds->origin.x + tx);
  rect.y = (int) floor (bounds->origin.y + ty);
  rect.width = (int) ceil (bounds->origin.x + tx + bounds->size.width) - rect.x;
  rect.height = (int) ceil (bounds->origin.y + ty + bounds->size.height) - rect.y;
  return rect;
}

/* Whether the widget's presses can begin now: it shows, takes input, and is enabled. */
static gboolean
shows (PiItem *item, GtkWidget *native, graphene_rect_t *bounds)
{
  GtkWidget *widget = item->calls->widget (item->owner);
  return widget != NULL && item->calls->sources (item->owner) != PI_SOURCES_NONE
         && gtk_widget_get_mapped (widget) && gtk_widget_is_sensitive (widget)
         && visible_bounds (widget, native, bounds);
}

static gboolean
takes_keyboard (PiItem *item, GtkWidget *native)
{
  guint stages;
  graphene_rect_t bounds;
  return (item->calls->sources (item->owner) & PI_SOURCES_KEYBOARD) != 0
         && item->calls->behaviour (item->owner, &stages) != PI_BEHAVIOUR_GENERIC && shows (item, native, &bounds);
}

static PiItem *
item_of (PiSurfaceContext *context, GtkWidget *widget)
{
  for (guint i = 0; i < context->items->len; i++)
    {
      PiItem *item = g_ptr_array_index (context->items, i);
      if (item->calls->widget (item->owner) == widget)
        return item;
    }
  return NULL;
}

/* The interaction a keyboard press goes to, and where it begins, in the native's
 * coordinates: the focused widget's, or its nearest ancestor's with an interaction (at the
 * focused widget's centre), or, when the focus is on a container such as a list row or a
 * grid child, the first widget inside it with an interaction (at that widget's centre). An
 * app's focus point replaces the centre. */
static PiItem *
focus_target (PiSurfaceContext *context, graphene_point_t *point)
{
  GtkWidget *native = GTK_WIDGET (context->native);
  GtkRoot *root = gtk_widget_get_root (native);
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;
  if (focus == NULL || gtk_widget_get_native (focus) != context->native)
    return NULL;
  PiItem *target = NULL;
  GtkWidget *centre_of = focus;
  for (GtkWidget *widget = focus; widget != NULL && target == NULL; widget = gtk_widget_get_parent (widget))
    {
      target = item_of (context, widget);
      if (widget == native)
        break;
    }
  if (target == NULL)
    for (guint i = 0; i < context->items->len && target == NULL; i++)
      {
        PiItem *item = g_ptr_array_index (context->items, i);
        GtkWidget *widget = item->calls->widget (item->owner);
        if (widget != NULL && gtk_widget_is_ancestor (widget, focus) && takes_keyboard (item, native))
          {
            target = item;
            centre_of = widget;
          }
      }
  if (target == NULL || !takes_keyboard (target, native))
    return NULL;
  double x, y;
  graphene_rect_t bounds;
  if (target->calls->focus_point (target->owner, &x, &y))
    {
      graphene_point_t in = GRAPHENE_POINT_INIT ((float) x, (float) y);
      if (!gtk_widget_compute_point (target->calls->widget (target->owner), native, &in, point))
        return NULL;
    }
  else if (visible_bounds (centre_of, native, &bounds))
    graphene_rect_get_center (&bounds, point);
  else
    return NULL;
  return target;
}

static int
depth_of (GtkWidget *widget)
{
  int depth = 0;
  for (; widget != NULL; widget = gtk_widget_get_parent (widget))
    depth++;
  return depth;
}

static PiItem *
find_item (PiSurfaceContext *context, gpointer owner)
{
  for (guint i = 0; i < context->items->len; i++)
    {
      PiItem *item = g_ptr_array_index (context->items, i);
      if (item->owner == owner)
        return item;
    }
  return NULL;
}

/* Tells the library every widget's state now; it sends what changed. */
static void
update_region (PiSurfaceContext *context)
{
  if (context->handle == NULL)
    return;
  GtkWidget *native = GTK_WIDGET (context->native);
  double tx, ty;
  surface_transform (context, &tx, &ty);
  for (guint i = 0; i < context->items->len; i++)
    {
      PiItem *item = g_ptr_array_index (context->items, i);
      GtkWidget *widget = item->calls->widget (item->owner);
      graphene_rect_t bounds;
      guint stages;
      PiBehaviour behaviour = item->calls->behaviour (item->owner, &stages);
      if (shows (item, native, &bounds))
        {
          cairo_rectangle_int_t rect = surface_rect (&bounds, tx, ty);
          struct preview_interaction_client_rect shown = { rect.x, rect.y, rect.width, rect.height };
          preview_interaction_client_item_set_rect (item->handle, &shown);
        }
      else
        preview_interaction_client_item_set_rect (item->handle, NULL);
      preview_interaction_client_item_set_depth (item->handle, (uint32_t) depth_of (widget));
      preview_interaction_client_item_set_sources (item->handle, item->calls->sources (item->owner));
      preview_interaction_client_item_set_behaviour (item->handle, (enum preview_interaction_client_behaviour) behaviour,
                                                     stages);
    }
  graphene_point_t focus = GRAPHENE_POINT_INIT (0, 0);
  PiItem *focused = focus_target (context, &focus);
  preview_interaction_client_surface_set_focus (context->handle, focused != NULL ? focused->handle : NULL,
                                                focus.x + tx, focus.y + ty);
  bool changed = false;
  preview_interaction_client_surface_layout_changed (context->handle, &changed);
  /* What changed applies on the surface's next commit: make sure there is one. */
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
    preview_interaction_client_surface_will_commit (context->handle, NULL);
}

/* The library made callbacks: run a frame clock cycle, whose "before-paint" acknowledges them. */
static void
dispatched (gpointer data)
{
  PiSurfaceContext *context = data;
  if (context->clock != NULL)
    gdk_frame_clock_request_phase (context->clock, GDK_FRAME_CLOCK_PHASE_BEFORE_PAINT);
}

/* The library sends everything again on a new object; the widgets say whether they are
 * available now. */
static void
availability_changed (gpointer data)
{
  PiSurfaceContext *context = data;
  for (guint i = 0; i < context->items->len; i++)
    {
      PiItem *item = g_ptr_array_index (context->items, i);
      item->calls->availability_changed (item->owner);
    }
}

static const PiDisplayClientListener client_listener = {
  .availability_changed = availability_changed,
  .dispatched = dispatched,
};

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
guard_event (GtkEventControllerLegacy *guard, GdkEvent *event, PiSurfaceContext *context)
{
  (void) guard;
  if (gdk_event_get_event_type (event) != GDK_BUTTON_RELEASE)
    return GDK_EVENT_PROPAGATE;
  /* A tablet tool's events carry the tool (their device is the tablet's logical pointer). */
  GdkDevice *device = gdk_event_get_device (event);
  if (gdk_event_get_device_tool (event) == NULL && (device == NULL || gdk_device_get_source (device) != GDK_SOURCE_PEN))
    return GDK_EVENT_PROPAGATE;
  /* Whether the commit phase took this release away is the library's to say. */
  bool swallow = false;
  if (context->handle == NULL || preview_interaction_client_surface_pen_released (context->handle, &swallow) != 0)
    return GDK_EVENT_PROPAGATE;
  return swallow ? GDK_EVENT_STOP : GDK_EVENT_PROPAGATE;
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

/* GTK's own picking: the deepest widget that takes input there (insensitive and untargetable
 * ones are skipped, an overlay above the widgets hides them), then up to the nearest one with
 * an interaction of this window. */
static struct preview_interaction_client_item *
pick (void *user_data, struct preview_interaction_client_surface *surface,
      const struct preview_interaction_client_press *press)
{
  PiSurfaceContext *context = user_data;
  (void) surface;
  double tx, ty;
  surface_transform (context, &tx, &ty);
  GtkWidget *native = GTK_WIDGET (context->native);
  GtkWidget *picked = gtk_widget_pick (native, press->x - tx, press->y - ty, GTK_PICK_DEFAULT);
  for (GtkWidget *widget = picked; widget != NULL; widget = gtk_widget_get_parent (widget))
    {
      PiItem *item = item_of (context, widget);
      if (item != NULL)
        return item->handle;
      if (widget == native)
        break;
    }
  return NULL;
}

static enum preview_interaction_client_answer
on_should_begin (void *user_data, struct preview_interaction_client_item *handle,
                 const struct preview_interaction_client_press *press)
{
  PiItem *item = user_data;
  PiSurfaceContext *context = item->context;
  (void) handle;
  enter_callback (context);
  enum preview_interaction_client_answer answer = item->calls->should_begin (item->owner, press);
  leave_callback (context);
  return answer;
}

static void
on_preview (void *user_data, struct preview_interaction_client_item *handle,
            const struct preview_interaction_client_press *press, double progress, bool ended)
{
  PiItem *item = user_data;
  PiSurfaceContext *context = item->context;
  (void) handle;
  enter_callback (context);
  if (ended)
    cancel_gestures (item->calls->widget (item->owner));
  item->calls->preview (item->owner, press, progress, ended);
  leave_callback (context);
}

static void
on_commit (void *user_data, struct preview_interaction_client_item *handle,
           const struct preview_interaction_client_press *press, double progress, bool ended)
{
  PiItem *item = user_data;
  PiSurfaceContext *context = item->context;
  (void) handle;
  enter_callback (context);
  item->calls->commit (item->owner, press, progress, ended);
  leave_callback (context);
}

/* An accelerator has no commit phase: the library tells its end as such. */
static void
on_accelerator_ended (void *user_data, struct preview_interaction_client_item *handle,
                      const struct preview_interaction_client_press *press)
{
  PiItem *item = user_data;
  (void) handle;
  enter_callback (item->context);
  item->calls->accelerator_ended (item->owner, press);
  leave_callback (item->context);
}

static void
on_phase_changed (void *user_data, struct preview_interaction_client_item *handle,
                  const struct preview_interaction_client_press *press)
{
  PiItem *item = user_data;
  (void) handle;
  enter_callback (item->context);
  item->calls->phase_changed (item->owner, press);
  leave_callback (item->context);
}

static void
on_cancelled (void *user_data, struct preview_interaction_client_item *handle,
              const struct preview_interaction_client_press *press, enum preview_interaction_client_cancel_reason reason)
{
  PiItem *item = user_data;
  PiSurfaceContext *context = item->context;
  (void) handle;
  enter_callback (context);
  /* The same numbers (rules/vocabulary.txt); a newer compositor's reasons are the system's. */
  PiCancelReason pi_reason = reason <= PREVIEW_INTERACTION_CLIENT_CANCEL_DISMISSED ? (PiCancelReason) reason
                                                                                   : PI_CANCEL_REASON_SYSTEM;
  item->calls->cancelled (item->owner, press, pi_reason);
  leave_callback (context);
}

static void
on_stage (void *user_data, struct preview_interaction_client_item *handle,
          const struct preview_interaction_client_press *press, uint32_t stage)
{
  PiItem *item = user_data;
  (void) handle;
  enter_callback (item->context);
  item->calls->stage (item->owner, press, stage);
  leave_callback (item->context);
}

static void
on_haptics (void *user_data, struct preview_interaction_client_item *handle,
            const struct preview_interaction_client_press *press, bool available)
{
  PiItem *item = user_data;
  (void) handle;
  (void) available; /* also press->haptics_available */
  item->calls->haptics_changed (item->owner, press);
}

static void
add_item (PiSurfaceContext *context, PiItem *item)
{
  static const struct preview_interaction_client_item_callbacks callbacks = {
    .size = sizeof callbacks,
    .should_begin = on_should_begin,
    .preview = on_preview,
    .commit = on_commit,
    .cancelled = on_cancelled,
    .stage = on_stage,
    .haptics_changed = on_haptics,
    .phase_changed = on_phase_changed,
    .accelerator_ended = on_accelerator_ended,
  };
  if (context->handle == NULL || item->handle != NULL)
    return;
  int status = preview_interaction_client_item_add (context->handle, &callbacks, item, &item->handle);
  if (status != PREVIEW_INTERACTION_CLIENT_OK)
    {
      g_debug ("widget not added to its window's preview interactions: %s",
               preview_interaction_client_status_string (status));
      item->handle = NULL;
    }
}

static void
focus_changed (GObject *root, GParamSpec *pspec, PiSurfaceContext *context)
{
  (void) root;
  (void) pspec;
  update_region (context);
}

static void
attach (PiSurfaceContext *context)
{
  struct preview_interaction_client *client = pi_display_client_get_handle (context->client);
  GdkSurface *surface = gtk_native_get_surface (context->native);
  if (client == NULL || surface == NULL || !GDK_IS_WAYLAND_SURFACE (surface) || context->handle != NULL)
    return;
  static const struct preview_interaction_client_surface_callbacks callbacks = {
    .size = sizeof callbacks,
    .pick = pick,
  };
  int status = preview_interaction_client_surface_attach (client, gdk_wayland_surface_get_wl_surface (surface),
                                                          &callbacks, context, &context->handle);
  if (status != PREVIEW_INTERACTION_CLIENT_OK)
    {
      g_debug ("no preview interaction on this window: %s", preview_interaction_client_status_string (status));
      context->handle = NULL;
      return;
    }
  for (guint i = 0; i < context->items->len; i++)
    add_item (context, g_ptr_array_index (context->items, i));
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (context->native));
  if (root != NULL)
    {
      g_set_weak_pointer (&context->root, root);
      context->focus_id = g_signal_connect (root, "notify::focus-widget", G_CALLBACK (focus_changed), context);
    }
  context->clock = g_object_ref (gdk_surface_get_frame_clock (surface));
  context->layout_id = g_signal_connect_after (context->clock, "layout", G_CALLBACK (after_layout), context);
  context->before_paint_id = g_signal_connect (context->clock, "before-paint", G_CALLBACK (before_paint), context);
  preview_interaction_client_surface_set_hold_acks (context->handle, true);
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
  /* The library tells the running presses' widgets that the surface goes. */
  if (context->handle != NULL)
    preview_interaction_client_surface_detach (context->handle);
  context->handle = NULL;
  for (guint i = 0; i < context->items->len; i++)
    ((PiItem *) g_ptr_array_index (context->items, i))->handle = NULL;
  if (context->root != NULL)
    g_clear_signal_handler (&context->focus_id, context->root);
  context->focus_id = 0;
  g_clear_weak_pointer (&context->root);
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
  pi_display_client_remove_listener (context->client, context);
  g_ptr_array_unref (context->items);
  g_free (context);
}

PiSurfaceContext *
pi_surface_context_join (GtkWidget *widget, const PiItemOwner *calls, gpointer owner)
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
      context->items = g_ptr_array_new_with_free_func (g_free);
      context->realize_id = g_signal_connect (native, "realize", G_CALLBACK (native_realized), context);
      context->unrealize_id = g_signal_connect (native, "unrealize", G_CALLBACK (native_unrealizing), context);
      context->guard = gtk_event_controller_legacy_new ();
      gtk_event_controller_set_propagation_phase (context->guard, GTK_PHASE_CAPTURE);
      gtk_event_controller_set_name (context->guard, "pi-preview-interaction-guard");
      g_signal_connect (context->guard, "event", G_CALLBACK (guard_event), context);
      gtk_widget_add_controller (GTK_WIDGET (native), context->guard);
      pi_display_client_add_listener (context->client, &client_listener, context);
      g_object_set_data_full (G_OBJECT (native), context_key, context, context_free);
    }
  PiItem *item = g_new0 (PiItem, 1);
  item->context = context;
  item->calls = calls;
  item->owner = owner;
  g_ptr_array_add (context->items, item);
  if (gtk_widget_get_realized (GTK_WIDGET (native)))
    attach (context);
  add_item (context, item);
  update_region (context);
  return context;
}

void
pi_surface_context_leave (PiSurfaceContext *context, gpointer owner)
{
  PiItem *item = find_item (context, owner);
  if (item == NULL)
    return;
  /* Its running presses are cancelled and their cancelled signals emitted now, while the
   * interaction is still there. */
  if (item->handle != NULL)
    preview_interaction_client_item_remove (item->handle);
  g_ptr_array_remove (context->items, item);
  if (context->items->len == 0)
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

static struct preview_interaction_client_item *
item_handle (PiSurfaceContext *context, gpointer owner)
{
  PiItem *item = find_item (context, owner);
  return item != NULL ? item->handle : NULL;
}

int
pi_surface_context_answer (PiSurfaceContext *context, gpointer owner, guint press,
                           gboolean accept)
{
  struct preview_interaction_client_item *handle = item_handle (context, owner);
  if (handle == NULL)
    return PREVIEW_INTERACTION_CLIENT_ERROR_DISCONNECTED;
  return preview_interaction_client_item_answer (handle, press, accept);
}

/* Each press is cancelled on the wire (the compositor gives the contact back to core input)
 * and its cancelled signal is emitted now (or right after the current callback). */
void
pi_surface_context_cancel_presses_of (PiSurfaceContext *context, gpointer owner)
{
  struct preview_interaction_client_item *handle = item_handle (context, owner);
  if (handle != NULL)
    preview_interaction_client_item_cancel_all (handle);
}

gboolean
pi_surface_context_play_haptic (PiSurfaceContext *context, gpointer owner, guint press,
                                PiHapticEffect effect)
{
  struct preview_interaction_client_item *handle = item_handle (context, owner);
  return handle != NULL
         && preview_interaction_client_item_play_haptic (handle, press,
                                                         (enum preview_interaction_client_haptic_effect) effect)
                == PREVIEW_INTERACTION_CLIENT_OK;
}

gboolean
pi_surface_context_get_press (PiSurfaceContext *context, gpointer owner,
                              struct preview_interaction_client_press *press)
{
  struct preview_interaction_client_item *handle = item_handle (context, owner);
  return handle != NULL && preview_interaction_client_item_get_press (handle, press) == PREVIEW_INTERACTION_CLIENT_OK;
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


