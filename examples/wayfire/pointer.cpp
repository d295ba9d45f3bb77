/* The pointer's buttons and motion. A button is taken before core handles it, so that a release
 * the library swallows can be kept from the client; motion after core moved the cursor. */
#include "host.hpp"

#include <wayfire/core.hpp>
#include <wayfire/signal-definitions.hpp>

#include <wayfire/nonstd/wlroots-full.hpp>

#include "clock.hpp"
#include "surface.hpp"

namespace preview_wayfire
{
void preview_interaction_host::connect_pointer()
{
    on_pointer_button.set_callback([this] (wf::signal_data_t *data)
    {
        auto signal = static_cast<wf::input_event_signal<wlr_event_pointer_button>*>(data);
        auto event  = signal->event;
        input_t *input = input_of(event->device);
        if (!input)
        {
            return;
        }

        bool pressed = event->state == WLR_BUTTON_PRESSED;
        double sx = 0, sy = 0;
        wlr_surface *surface = nullptr;
        if (pressed)
        {
            input->buttons++;
            auto cursor = wf::get_core().get_cursor_position();
            surface = surface_at(cursor, sx, sy);
            input->origin = {cursor.x - sx, cursor.y - sy};
        } else if (input->buttons > 0)
        {
            input->buttons--;
        }

        bool swallow = false;
        preview_interaction_pointer_button(input->preview, event->button, pressed,
            surface ? surface->resource : nullptr, sx, sy, input->pressure, event_usec(event->time_msec),
            &swallow);
        if (swallow)
        {
            signal->mode = wf::input_event_processing_mode_t::NO_CLIENT;
        }
    });

    on_pointer_motion.set_callback([this] (wf::signal_data_t *data)
    {
        auto event = static_cast<wf::input_event_signal<wlr_event_pointer_motion>*>(data)->event;
        pointer_moved(event->device, event->time_msec);
    });

    on_pointer_motion_absolute.set_callback([this] (wf::signal_data_t *data)
    {
        auto event = static_cast<wf::input_event_signal<wlr_event_pointer_motion_absolute>*>(data)->event;
        pointer_moved(event->device, event->time_msec);
    });

    auto& core = wf::get_core();
    core.connect_signal("pointer_button", &on_pointer_button);
    core.connect_signal("pointer_motion_post", &on_pointer_motion);
    core.connect_signal("pointer_motion_absolute_post", &on_pointer_motion_absolute);
}

void preview_interaction_host::pointer_moved(wlr_input_device *device, uint32_t time_msec)
{
    input_t *input = input_of(device);
    if (input && input->buttons)
    {
        auto cursor = wf::get_core().get_cursor_position();
        preview_interaction_contact_motion(input->preview, 0, cursor.x - input->origin.x,
            cursor.y - input->origin.y, event_usec(time_msec));
    }
}
}
