/* Tablet tools: a tip is a contact, an axis event one sample of it. Taken after core handled
 * the event: the cursor is where the tool is. */
#include "host.hpp"

#include <wayfire/core.hpp>
#include <wayfire/signal-definitions.hpp>

#include <wayfire/nonstd/wlroots-full.hpp>

#include "clock.hpp"

namespace preview_wayfire
{
void preview_interaction_host::connect_tablet()
{
    on_tablet_proximity.set_callback([] (wf::signal_data_t *data)
    {
        /* The library needs no proximity: contacts begin at the tip. */
        (void)data;
    });

    on_tablet_axis.set_callback([this] (wf::signal_data_t *data)
    {
        auto event = static_cast<wf::input_event_signal<wlr_event_tablet_tool_axis>*>(data)->event;
        input_t *input = input_of(event->device);
        if (!input)
        {
            return;
        }

        if (event->updated_axes & WLR_TABLET_TOOL_AXIS_PRESSURE)
        {
            input->pressure = event->pressure;
        }

        /* One axis event is one sample: position and pressure together. */
        if (input->tip_down)
        {
            auto cursor = wf::get_core().get_cursor_position();
            preview_interaction_contact_update(input->preview, 0, cursor.x - input->origin.x,
                cursor.y - input->origin.y, input->pressure, now_usec());
        }
    });

    on_tablet_tip.set_callback([this] (wf::signal_data_t *data)
    {
        auto event = static_cast<wf::input_event_signal<wlr_event_tablet_tool_tip>*>(data)->event;
        input_t *input = input_of(event->device);
        if (!input)
        {
            return;
        }

        if (event->state == WLR_TABLET_TOOL_TIP_DOWN)
        {
            if (input->tip_down)
            {
                return;
            }

            input->tip_down = true;
            contact_down(*input, 0, wf::get_core().get_cursor_position(), input->pressure);
            return;
        }

        if (!input->tip_down)
        {
            return;
        }

        input->tip_down = false;
        contact_up(*input, 0);
    });

    on_tablet_button.set_callback([] (wf::signal_data_t *data)
    {
        /* Barrel buttons are not contacts. */
        (void)data;
    });

    auto& core = wf::get_core();
    core.connect_signal("tablet_proximity_post", &on_tablet_proximity);
    core.connect_signal("tablet_axis_post", &on_tablet_axis);
    core.connect_signal("tablet_tip_post", &on_tablet_tip);
    core.connect_signal("tablet_button_post", &on_tablet_button);
}
}
