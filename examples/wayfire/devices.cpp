/* Input devices as the library's devices (as the wlroots compositor's new_input), and the down
 * and up of a contact on one. */
#include "host.hpp"

#include <wayfire/core.hpp>
#include <wayfire/input-device.hpp>
#include <wayfire/signal-definitions.hpp>
#include <wayfire/util/log.hpp>

#include <wayfire/nonstd/wlroots-full.hpp>

#include "clock.hpp"
#include "surface.hpp"

namespace preview_wayfire
{
input_t *preview_interaction_host::input_of(wlr_input_device *device)
{
    auto found = inputs.find(device);
    return found == inputs.end() || !found->second.preview ? nullptr : &found->second;
}

input_t *preview_interaction_host::input_of_preview_device(preview_interaction_device *device)
{
    void *input = nullptr;
    preview_interaction_device_get_user_data(device, &input);
    return static_cast<input_t*>(input);
}

void preview_interaction_host::add_device(wlr_input_device *device)
{
    if (!context || !device || inputs.count(device))
    {
        return;
    }

    input_t& input = inputs[device];
    input.device = device;
    int status = PREVIEW_INTERACTION_ERROR_UNSUPPORTED;
    if (wlr_input_device_is_libinput(device))
    {
        status = preview_interaction_device_add_libinput(context,
            wlr_libinput_get_device_handle(device), 0, &input.preview);
    } else
    {
        switch (device->type)
        {
          case WLR_INPUT_DEVICE_TABLET_TOOL:
            status = preview_interaction_device_add(context, PREVIEW_INTERACTION_DEVICE_PEN,
                device->name, 0, 1, 0, &input.preview);
            break;

          case WLR_INPUT_DEVICE_TOUCH:
            status = preview_interaction_device_add(context, PREVIEW_INTERACTION_DEVICE_TOUCHSCREEN,
                device->name, 0, 0, 0, &input.preview);
            break;

          case WLR_INPUT_DEVICE_POINTER:
            status = preview_interaction_device_add(context, PREVIEW_INTERACTION_DEVICE_POINTER,
                device->name, 0, 0, 0, &input.preview);
            break;

          case WLR_INPUT_DEVICE_KEYBOARD:
            status = preview_interaction_device_add(context, PREVIEW_INTERACTION_DEVICE_KEYBOARD,
                device->name, 0, 0, 0, &input.preview);
            break;

          default:
            break;
        }
    }

    if ((device->type == WLR_INPUT_DEVICE_KEYBOARD) && device->keyboard)
    {
        input.key.host = this;
        input.key.device = device;
        input.key.listener.notify = &preview_interaction_host::on_wlr_key;
        /* At the head of the list: before wayfire's own listener. */
        wl_list_insert(&device->keyboard->events.key.listener_list, &input.key.listener.link);
    }

    if (status == PREVIEW_INTERACTION_OK)
    {
        preview_interaction_device_set_user_data(input.preview, &input);
    } else
    {
        input.preview = nullptr;
        if (status != PREVIEW_INTERACTION_ERROR_UNSUPPORTED)
        {
            LOGE("preview-interaction: ", device->name ? device->name : "a device",
                " not given to the preview interaction: ", preview_interaction_status_string(status));
        }
    }
}

void preview_interaction_host::remove_device(wlr_input_device *device)
{
    auto found = inputs.find(device);
    if (found == inputs.end())
    {
        return;
    }

    if (found->second.preview)
    {
        preview_interaction_device_remove(found->second.preview, now_usec());
    }

    if (found->second.key.host)
    {
        wl_list_remove(&found->second.key.listener.link);
    }

    if (key_device == device)
    {
        key_event = nullptr;
        key_device = nullptr;
    }

    inputs.erase(found);
}

void preview_interaction_host::connect_devices()
{
    on_device_added.set_callback([this] (wf::signal_data_t *data)
    {
        auto signal = static_cast<wf::input_device_signal*>(data);
        add_device(signal->device->get_wlr_handle());
    });

    on_device_removed.set_callback([this] (wf::signal_data_t *data)
    {
        auto signal = static_cast<wf::input_device_signal*>(data);
        remove_device(signal->device->get_wlr_handle());
    });

    auto& core = wf::get_core();
    core.connect_signal("input-device-added", &on_device_added);
    core.connect_signal("input-device-removed", &on_device_removed);
}

void preview_interaction_host::contact_down(input_t& input, int32_t id, wf::pointf_t point, double pressure)
{
    double sx = 0, sy = 0;
    wlr_surface *surface = surface_at(point, sx, sy);
    input.origin = {point.x - sx, point.y - sy};
    preview_interaction_contact_down(input.preview, id, surface ? surface->resource : nullptr, sx, sy,
        pressure, now_usec());
}

bool preview_interaction_host::contact_up(input_t& input, int32_t id)
{
    bool swallow = false;
    preview_interaction_contact_up(input.preview, id, now_usec(), &swallow);
    return swallow;
}
}
