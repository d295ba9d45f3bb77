/* The host's life (host.hpp): the library's context on wayfire's display, the devices wayfire
 * has, and the connections to core's signals, made once for the compositor. */
#include "host.hpp"

#include <wayfire/core.hpp>
#include <wayfire/input-device.hpp>
#include <wayfire/util/log.hpp>

#include <wayfire/nonstd/wlroots-full.hpp>

#include "settings.hpp"

namespace preview_wayfire
{
preview_interaction_host::preview_interaction_host()
{
    auto& core = wf::get_core();
    if ((preview_interaction_version() >> 16) != PREVIEW_INTERACTION_VERSION_MAJOR)
    {
        LOGE("preview-interaction: library ", preview_interaction_version_string(),
            " is not the plugin's ", PREVIEW_INTERACTION_VERSION);
        return;
    }

    preview_interaction_callbacks table = callbacks();
    int status = preview_interaction_create(core.display, &table, this, &context);
    if (status != PREVIEW_INTERACTION_OK)
    {
        LOGE("preview-interaction: ", preview_interaction_status_string(status));
        context = nullptr;
        return;
    }

    trace = open_trace();
    set_should_begin_timeout(context);
    for (auto& device : core.get_input_devices())
    {
        add_device(device->get_wlr_handle());
    }

    connect_devices();
    connect_pointer();
    connect_tablet();
    connect_touch();
    connect_keys();
    LOGI("preview-interaction ", preview_interaction_version_string(), " on wayfire's display");
}

preview_interaction_host::~preview_interaction_host()
{
    /* The connections disconnect as members; the devices and the global go with the context. */
    for (auto& [device, input] : inputs)
    {
        if (input.key.host)
        {
            wl_list_remove(&input.key.listener.link);
        }
    }

    if (context)
    {
        preview_interaction_destroy(context);
    }

    if (trace)
    {
        std::fclose(trace);
    }
}
}
