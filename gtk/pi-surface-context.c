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
  GArray *areas; /* PiArea: the behaviours last sent; NULL: none sent since attaching */
  gboolean has_focus_point;
  double focus_x, focus_y; /* the last focus point sent, in surface coordinates */
  GtkRoot *root;            /* weak: its focus is watched while attached */
  gulong focus_id;
  GtkEventController *guard; /* on the native, capture phase */
  guint pen_releases_to_swallow;
  guint in_callback; /* inside one of the library's callbacks for this window */
  gboolean orphaned; /* the last widget left during a callback: free it after */
};

static const char *context_key = "pi-surface-context";

/* An area of the surface with a pressure behaviour other than the surface's default. */
typedef struct
{
  PiBehaviour behaviour;
  guint stages;
  int depth; /* of its widget in the window: inner areas lie on top */
  cairo_rectangle_int_t rect;
} PiArea;

/* The protocol's limit on one list of behaviours. */
#define MAX_AREAS 32

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
shows (PiPreviewInteraction *interaction, GtkWidget *native, graphene_rect_t *bounds)
{
  GtkWidget *widget = pi_preview_interaction_get_widget (interaction);
  return widget != NULL && pi_preview_interaction_region_sources (interaction) != PI_SOURCES_NONE
         && gtk_widget_get_mapped (widget) && gtk_widget_is_sensitive (widget)
         && visible_bounds (widget, native, bounds);
}

static gboolean
takes_keyboard (PiPreviewInteraction *interaction, GtkWidget *native)
{
  guint stages;
  graphene_rect_t bounds;
  return (pi_preview_interaction_region_sources (interaction) & PI_SOURCES_KEYBOARD) != 0
         && pi_preview_interaction_region_behaviour (interaction, &stages) != PI_BEHAVIOUR_GENERIC
         && shows (interaction, native, &bounds);
}

static PiPreviewInteraction *
interaction_of (PiSurfaceContext *context, GtkWidget *widget)
{
  for (guint i = 0; i < context->interactions->len; i++)
    {
      PiPreviewInteraction *interaction = g_ptr_array_index (context->interactions, i);
      if (pi_preview_interaction_get_widget (interaction) == widget)
        return interaction;
    }
  return NULL;
}

/* The interaction a keyboard press goes to, and where it begins, in the native's
 * coordinates: the focused widget's, or its nearest ancestor's with an interaction (at the
 * focused widget's centre), or, when the focus is on a container such as a list row or a
 * grid child, the first widget inside it with an interaction (at that widget's centre). An
 * app's focus point replaces the centre. */
static PiPreviewInteraction *
focus_target (PiSurfaceContext *context, graphene_point_t *point)
{
  GtkWidget *native = GTK_WIDGET (context->native);
  GtkRoot *root = gtk_widget_get_root (native);
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;
  if (focus == NULL || gtk_widget_get_native (focus) != context->native)
    return NULL;
  PiPreviewInteraction *target = NULL;
  GtkWidget *centre_of = focus;
  for (GtkWidget *widget = focus; widget != NULL && target == NULL; widget = gtk_widget_get_parent (widget))
    {
      target = interaction_of (context, widget);
      if (widget == native)
        break;
    }
  if (target == NULL)
    for (guint i = 0; i < context->interactions->len && target == NULL; i++)
      {
        PiPreviewInteraction *interaction = g_ptr_array_index (context->interactions, i);
        GtkWidget *widget = pi_preview_interaction_get_widget (interaction);
        if (widget != NULL && gtk_widget_is_ancestor (widget, focus) && takes_keyboard (interaction, native))
          {
            target = interaction;
            centre_of = widget;
          }
      }
  if (target == NULL || !takes_keyboard (target, native))
    return NULL;
  double x, y;
  graphene_rect_t bounds;
  if (pi_preview_interaction_get_focus_point (target, &x, &y))
    {
      graphene_point_t in = GRAPHENE_POINT_INIT ((float) x, (float) y);
      if (!gtk_widget_compute_point (pi_preview_interaction_get_widget (target), native, &in, point))
        return NULL;
    }
  else if (visible_bounds (centre_of, native, &bounds))
    graphene_rect_get_center (&bounds, point);
  else
    return NULL;
  return target;
}

static gint
compare_areas (gconstpointer a, gconstpointer b)
{
  const PiArea *one = a, *two = b;
  return one->depth - two->depth;
}

static int
depth_of (GtkWidget *widget)
{
  int depth = 0;
  for (; widget != NULL; widget = gtk_widget_get_parent (widget))
    depth++;
  return depth;
}

/* Whether a widget lies inside one of `others` (the few with a behaviour of their own): its
 * area must then say its own behaviour, even the default. */
static gboolean
inside_any (GtkWidget *widget, GPtrArray *others)
{
  for (guint i = 0; i < others->len; i++)
    if (gtk_widget_is_ancestor (widget, g_ptr_array_index (others, i)))
      return TRUE;
  return FALSE;
}

static gboolean
same_areas (GArray *one, GArray *two)
{
  if (one == NULL || two == NULL || one->len != two->len)
    return FALSE;
  for (guint i = 0; i < one->len; i++)
    {
      PiArea *a = &g_array_index (one, PiArea, i), *b = &g_array_index (two, PiArea, i);
      if (a->behaviour != b->behaviour || a->stages != b->stages || a->rect.x != b->rect.x || a->rect.y != b->rect.y
          || a->rect.width != b->rect.width || a->rect.height != b->rect.height)
        return FALSE;
    }
  return TRUE;
}

/* Replaces the surface's list of behaviours (the protocol's set_behaviour list). */
static void
send_behaviours (PiSurfaceContext *context, GArray *areas)
{
  struct preview_interaction_client_behaviour_area *list = g_new0 (struct preview_interaction_client_behaviour_area,
                                                                    MAX (areas->len, 1));
  struct preview_interaction_client_rect *rects = g_new0 (struct preview_interaction_client_rect, MAX (areas->len, 1));
  for (guint i = 0; i < areas->len; i++)
    {
      PiArea *area = &g_array_index (areas, PiArea, i);
      rects[i] = (struct preview_interaction_client_rect) { area->rect.x, area->rect.y, area->rect.width,
                                                            area->rect.height };
      list[i] = (struct preview_interaction_client_behaviour_area) {
        .behaviour = (enum preview_interaction_client_behaviour) area->behaviour,
        .stages = area->stages,
        .rects = &rects[i],
        .rect_count = 1,
      };
    }
  int status = preview_interaction_client_interaction_set_behaviours (context->handle, list, areas->len);
  if (status != PREVIEW_INTERACTION_CLIENT_OK)
    g_debug ("behaviours not set: %s", preview_interaction_client_status_string (status));
  g_free (rects);
  g_free (list);
}

static void
send_focus_point (PiSurfaceContext *context, gboolean has_focus, double x, double y)
{
  if (has_focus)
    g_debug ("focus point %.1f,%.1f", x, y);
  else
    g_debug ("no focus point");
  int status = has_focus ? preview_interaction_client_interaction_set_focus_point (context->handle, x, y)
                         : preview_interaction_client_interaction_unset_focus_point (context->handle);
  if (status != PREVIEW_INTERACTION_CLIENT_OK)
    g_debug ("focus point not set: %s", preview_interaction_client_status_string (status));
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
  GArray *areas = g_array_new (FALSE, FALSE, sizeof (PiArea));
  /* The widgets with a behaviour other than the default, usually none or a few. */
  GPtrArray *others = g_ptr_array_new ();
  for (guint i = 0; i < context->interactions->len; i++)
    {
      PiPreviewInteraction *interaction = g_ptr_array_index (context->interactions, i);
      guint stages;
      GtkWidget *widget = pi_preview_interaction_get_widget (interaction);
      if (widget != NULL && pi_preview_interaction_region_behaviour (interaction, &stages) != PI_BEHAVIOUR_DEEP_CLICK)
        g_ptr_array_add (others, widget);
    }
  for (guint i = 0; i < context->interactions->len; i++)
    {
      PiPreviewInteraction *interaction = g_ptr_array_index (context->interactions, i);
      GtkWidget *widget = pi_preview_interaction_get_widget (interaction);
      graphene_rect_t bounds;
      if (!shows (interaction, native, &bounds))
        continue;
      /* The keyboard begins presses only while there is a focus point (below). */
      sources |= pi_preview_interaction_region_sources (interaction);
      cairo_rectangle_int_t rect = surface_rect (&bounds, tx, ty);
      cairo_region_union_rectangle (region, &rect);
      PiArea area = { .rect = rect };
      area.behaviour = pi_preview_interaction_region_behaviour (interaction, &area.stages);
      if (area.behaviour != PI_BEHAVIOUR_DEEP_CLICK || (others->len > 0 && inside_any (widget, others)))
        {
          area.depth = depth_of (widget);
          g_array_append_val (areas, area);
        }
    }
  g_ptr_array_unref (others);
  g_array_sort (areas, compare_areas);
  if (areas->len > MAX_AREAS)
    {
      g_debug ("%u widgets with a pressure behaviour in one window: the innermost %d are kept", areas->len,
               MAX_AREAS);
      g_array_remove_range (areas, 0, areas->len - MAX_AREAS);
    }
  graphene_point_t focus = GRAPHENE_POINT_INIT (0, 0);
  gboolean has_focus = focus_target (context, &focus) != NULL;

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
  if (!same_areas (areas, context->areas))
    {
      send_behaviours (context, areas);
      g_clear_pointer (&context->areas, g_array_unref);
      context->areas = g_array_ref (areas);
      changed = TRUE;
    }
  double fx = focus.x + tx, fy = focus.y + ty;
  if (has_focus != context->has_focus_point || (has_focus && (fx != context->focus_x || fy != context->focus_y)))
    {
      send_focus_point (context, has_focus, fx, fy);
      context->has_focus_point = has_focus;
      context->focus_x = fx;
      context->focus_y = fy;
      changed = TRUE;
    }
  g_array_unref (areas);
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
ask (PiSurfaceContext *context, PiPreviewInteraction *interaction, const struct preview_interaction_client_press *press)
{
  if (!pi_preview_interaction_accepts_source (interaction, (PiSource) press->source))
    return PREVIEW_INTERACTION_CLIENT_ANSWER_DECLINE;
  /* A widget gets only presses of its own behaviour: a generic one none at all, an
   * accelerator no peek. A compositor of version 1 (or one that ignores the behaviours)
   * makes every press a deep click. */
  guint stages;
  PiBehaviour behaviour = pi_preview_interaction_region_behaviour (interaction, &stages);
  if ((int) press->behaviour != (int) behaviour)
    {
      g_debug ("press %u declined: a %s press on a widget whose behaviour is %s", press->id,
               press->behaviour == PREVIEW_INTERACTION_CLIENT_BEHAVIOUR_ACCELERATOR ? "accelerator" : "deep-click",
               behaviour == PI_BEHAVIOUR_GENERIC       ? "generic"
               : behaviour == PI_BEHAVIOUR_ACCELERATOR ? "accelerator"
                                                       : "deep-click");
      return PREVIEW_INTERACTION_CLIENT_ANSWER_DECLINE;
    }
  g_hash_table_insert (context->presses, GUINT_TO_POINTER (press->id), interaction);
  enum preview_interaction_client_answer answer = pi_preview_interaction_emit_should_begin (interaction, press);
  if (answer == PREVIEW_INTERACTION_CLIENT_ANSWER_DECLINE)
    g_hash_table_remove (context->presses, GUINT_TO_POINTER (press->id));
  return answer;
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
  /* A keyboard press begins at the focus point the window gave: it belongs to the widget
   * with the focus now. */
  if (press->source == PREVIEW_INTERACTION_CLIENT_SOURCE_KEYBOARD)
    {
      graphene_point_t point;
      PiPreviewInteraction *interaction = focus_target (context, &point);
      return interaction != NULL ? ask (context, interaction, press) : PREVIEW_INTERACTION_CLIENT_ANSWER_DECLINE;
    }
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
          return ask (context, interaction, press);
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
  /* An accelerator has no commit phase: its press ends with this when the contact lifts. */
  if (press->behaviour == PREVIEW_INTERACTION_CLIENT_BEHAVIOUR_ACCELERATOR)
    {
      if (ended)
        pi_preview_interaction_emit_accelerator_ended (interaction, press);
      return;
    }
  pi_preview_interaction_emit_commit (interaction, press, progress, ended);
}

static void
route_stage (void *user_data, struct preview_interaction_client_interaction *handle,
             const struct preview_interaction_client_press *press, uint32_t stage)
{
  PiSurfaceContext *context = user_data;
  (void) handle;
  PiPreviewInteraction *interaction = routed (context, press->id);
  if (interaction != NULL)
    pi_preview_interaction_emit_stage (interaction, press, stage);
}

static void
route_haptics (void *user_data, struct preview_interaction_client_interaction *handle,
               const struct preview_interaction_client_press *press, bool available)
{
  PiSurfaceContext *context = user_data;
  (void) handle;
  PiPreviewInteraction *interaction = routed (context, press->id);
  if (interaction != NULL)
    pi_preview_interaction_set_press_haptics (interaction, press->id, available);
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
  PiCancelReason pi_reason = reason <= PREVIEW_INTERACTION_CLIENT_CANCEL_DISMISSED ? (PiCancelReason) reason
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
on_stage (void *user_data, struct preview_interaction_client_interaction *handle,
          const struct preview_interaction_client_press *press, uint32_t stage)
{
  enter_callback (user_data);
  route_stage (user_data, handle, press, stage);
  leave_callback (user_data);
}

static void
on_haptics (void *user_data, struct preview_interaction_client_interaction *handle,
            const struct preview_interaction_client_press *press, bool available)
{
  enter_callback (user_data);
  route_haptics (user_data, handle, press, available);
  leave_callback (user_data);
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
  static const struct preview_interaction_client_interaction_callbacks callbacks = {
    .size = sizeof callbacks,
    .should_begin = on_should_begin,
    .preview = on_preview,
    .commit = on_commit,
    .cancelled = on_cancelled,
    .stage = on_stage,
    .haptics_changed = on_haptics,
  };
  int status = preview_interaction_client_interaction_attach (
      client, gdk_wayland_surface_get_wl_surface (surface), &callbacks, context, &context->handle);
  if (status != PREVIEW_INTERACTION_CLIENT_OK)
    {
      g_debug ("no preview interaction on this window: %s", preview_interaction_client_status_string (status));
      context->handle = NULL;
      return;
    }
  /* The library's initial state: every source, no behaviour, no focus point. */
  context->sources = PI_SOURCES_ALL;
  context->areas = g_array_new (FALSE, FALSE, sizeof (PiArea));
  context->has_focus_point = FALSE;
  context->pen_releases_to_swallow = 0;
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (context->native));
  if (root != NULL)
    {
      g_set_weak_pointer (&context->root, root);
      context->focus_id = g_signal_connect (root, "notify::focus-widget", G_CALLBACK (focus_changed), context);
    }
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
  g_clear_pointer (&context->areas, g_array_unref);
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
pi_surface_context_play_haptic (PiSurfaceContext *context, guint press, PiHapticEffect effect)
{
  if (context->handle == NULL || routed (context, press) == NULL)
    return FALSE;
  return preview_interaction_client_interaction_play_haptic (context->handle, press,
                                                             (enum preview_interaction_client_haptic_effect) effect)
         == PREVIEW_INTERACTION_CLIENT_OK;
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
      /* Everything is sent again. */
      g_clear_pointer (&context->region, cairo_region_destroy);
      g_clear_pointer (&context->areas, g_array_unref);
      context->has_focus_point = FALSE;
      update_region (context);
    }
  for (guint i = 0; i < context->interactions->len; i++)
    pi_preview_interaction_notify_available (g_ptr_array_index (context->interactions, i));
}
