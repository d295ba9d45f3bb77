/* Touch points, each a contact of its own. Taken after core handled the event: the point is
 * where wayfire has the touch. */
#include "host.hpp"

#include <wayfire/core.hpp>
#include <wayfire/signal-definitions.hpp>

#include <wayfire/nonstd/wlroots-full.hpp>

#include "clock.hpp"
#include "surface.hpp"

namespace preview_wayfire
{
void preview_interaction_host::connect_touch()
{
    on_touch_down.set_callback([this] (wf::signal_data_t *data)
    {
        auto event = static_cast<wf::input_event_signal<wlr_event_touch_down>*>(data)->event;
        input_t *input = input_of(event->device);
        if (!input || input->touches.count(event->touch_id))
        {
            return;
        }

        auto point = wf::get_core().get_touch_position(event->touch_id);
        double sx = 0, sy = 0;
        wlr_surface *surface = surface_at(point, sx, sy);
        input->touches[event->touch_id] = {point.x - sx, point.y - sy};
        preview_interaction_contact_down(input->preview, event->touch_id, surface ? surface->resource : nullptr,
            sx, sy, 0, now_usec());
    });

    on_touch_motion.set_callback([this] (wf::signal_data_t *data)
    {
        auto event = static_cast<wf::input_event_signal<wlr_event_touch_motion>*>(data)->event;
        input_t *input = input_of(event->device);
        if (!input || !input->touches.count(event->touch_id))
        {
            return;
        }

        auto origin = input->touches[event->touch_id];
        auto point  = wf::get_core().get_touch_position(event->touch_id);
        preview_interaction_contact_motion(input->preview, event->touch_id, point.x - origin.x,
            point.y - origin.y, now_usec());
    });

    on_touch_up.set_callback([this] (wf::signal_data_t *data)
    {
        auto event = static_cast<wf::input_event_signal<wlr_event_touch_up>*>(data)->event;
        input_t *input = input_of(event->device);
        if (!input || !input->touches.erase(event->touch_id))
        {
            return;
        }

        contact_up(*input, event->touch_id);
    });

    auto& core = wf::get_core();
    core.connect_signal("touch_down_post", &on_touch_down);
    core.connect_signal("touch_motion_post", &on_touch_motion);
    core.connect_signal("touch_up_post", &on_touch_up);
}
}
