/* The library's callbacks. wayfire delivers input itself, after the signals: a touch point can
 * be cancelled, a pointer's focus cleared; a tablet tool cannot be taken away (docs/wayfire.md). */
#include "host.hpp"

#include <wayfire/core.hpp>
#include <wayfire/util/log.hpp>

#include <string>

#include <wayfire/nonstd/wlroots-full.hpp>

extern "C" {
#include <wlr/types/wlr_region.h>
}

#include "trace.hpp"

namespace preview_wayfire
{
preview_interaction_callbacks preview_interaction_host::callbacks()
{
    preview_interaction_callbacks callbacks{};
    callbacks.size = sizeof(callbacks);
    callbacks.take_away = &preview_interaction_host::take_away;
    callbacks.give_back = &preview_interaction_host::give_back;
    callbacks.phase = &preview_interaction_host::on_phase;
    callbacks.region_boxes = &preview_interaction_host::region_boxes;
    callbacks.log = &preview_interaction_host::on_log;
    return callbacks;
}

void preview_interaction_host::take_away(void *data, preview_interaction_device *device, int32_t contact,
    wl_resource *surface)
{
    (void)data;
    (void)contact;
    input_t *input = input_of_preview_device(device);
    wlr_seat *seat = wf::get_core().get_current_seat();
    if (!input || !seat)
    {
        return;
    }

    switch (input->device->type)
    {
      case WLR_INPUT_DEVICE_TOUCH:
        if (surface)
        {
            wlr_seat_touch_notify_cancel(seat, wlr_surface_from_resource(surface));
        }

        break;

      case WLR_INPUT_DEVICE_POINTER:
        wlr_seat_pointer_notify_clear_focus(seat);
        break;

      default:
        break;
    }
}

void preview_interaction_host::give_back(void *data, preview_interaction_device *device, int32_t contact,
    wl_resource *surface)
{
    /* wayfire gives the pointer its focus back at its next motion. */
    (void)data;
    (void)device;
    (void)contact;
    (void)surface;
}

/* A client's wl_region (set_behaviour) as rectangles: every wl_region in wayfire is one of
 * wlroots' compositor, whose resource holds its pixman region. */
int32_t preview_interaction_host::region_boxes(void *data, wl_resource *region, preview_interaction_box *boxes,
    int32_t capacity)
{
    (void)data;
    const char *kind = region ? wl_resource_get_class(region) : nullptr;
    if (!kind || (std::string(kind) != wl_region_interface.name))
    {
        return -1;
    }

    int count = 0;
    pixman_box32_t *rects = pixman_region32_rectangles(wlr_region_from_resource(region), &count);
    for (int i = 0; i < count && i < capacity; i++)
    {
        boxes[i] = {rects[i].x1, rects[i].y1, rects[i].x2 - rects[i].x1, rects[i].y2 - rects[i].y1};
    }

    return count;
}

void preview_interaction_host::on_log(void *data, preview_interaction_log_level level, const char *message)
{
    (void)data;
    if (level >= PREVIEW_INTERACTION_LOG_WARNING)
    {
        LOGE("preview-interaction: ", message);
    } else
    {
        LOGI("preview-interaction: ", message);
    }
}

/* One JSON line per phase, in preview-compositor's trace format (docs/recordings.md), as the
 * wlroots compositor writes it. */
void preview_interaction_host::on_phase(void *data, const preview_interaction_phase_event *event)
{
    auto host = static_cast<preview_interaction_host*>(data);
    if (host->trace)
    {
        input_t *input = input_of_preview_device(event->device);
        write_trace_line(host->trace, event, input && input->device->name ? input->device->name : "?");
    }
}
}
