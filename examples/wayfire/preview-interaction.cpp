/*
 * The host's parts not yet in files of their own (host.hpp).
 */
#include "host.hpp"

#include <wayfire/core.hpp>
#include <wayfire/input-device.hpp>
#include <wayfire/signal-definitions.hpp>
#include <wayfire/util/log.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>

#include <wayfire/nonstd/wlroots-full.hpp>
#include <xkbcommon/xkbcommon.h>

extern "C" {
#include <wlr/types/wlr_region.h>
}

#include "clock.hpp"
#include "surface.hpp"
#include "trace.hpp"

namespace preview_wayfire
{
/* MARK: What the plugin reads from wayfire's environment (settings.hpp). */
/* The trace (preview-compositor's --trace JSON lines), for tests. */
FILE *open_trace()
{
    const char *path = getenv("WAYFIRE_PREVIEW_TRACE");
    if (path && *path)
    {
        return std::fopen(path, "w");
    }

    return nullptr;
}

/* How long a client may take to answer should_begin, from WAYFIRE_PREVIEW_SHOULD_BEGIN_TIMEOUT
 * (ms): tests give a client slowed by a loaded machine longer, as sway's runs do. The library
 * refuses a value out of its range and keeps its default. */
void set_should_begin_timeout(preview_interaction *context)
{
    const char *text = getenv("WAYFIRE_PREVIEW_SHOULD_BEGIN_TIMEOUT");
    if (!text || !*text)
    {
        return;
    }

    char *end = nullptr;
    unsigned long milliseconds = std::strtoul(text, &end, 10);
    if ((*end != '\0') || (milliseconds > UINT32_MAX) ||
        (preview_interaction_set_should_begin_timeout(context, uint32_t(milliseconds)) !=
         PREVIEW_INTERACTION_OK))
    {
        LOGE("preview-interaction: WAYFIRE_PREVIEW_SHOULD_BEGIN_TIMEOUT=", text, " is not 1...60000 ms");
    }
}

/* MARK: The host's life (host.hpp): the library's context on wayfire's display, the devices wayfire
 * has, and the connections to core's signals, made once for the compositor. */
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

/* MARK: The keyboard (the preview key, Escape). Before wayfire delivers the key: a key the library
 * consumes is kept from the client with NO_CLIENT, which wayfire's core honours for keys (no
 * built-in plugin resets a key's mode; bindings still see it). */
void preview_interaction_host::on_wlr_key(wl_listener *listener, void *data)
{
    key_listener_t *key = wl_container_of(listener, key, listener);
    key->host->key_event  = data;
    key->host->key_device = key->device;
}

void preview_interaction_host::connect_keys()
{
    on_keyboard_key.set_callback([this] (wf::signal_data_t *data)
    {
        auto signal = static_cast<wf::input_event_signal<wlr_event_keyboard_key>*>(data);
        auto event  = signal->event;
        wlr_seat *seat = wf::get_core().get_current_seat();
        wlr_input_device *device = key_event == event ? key_device : nullptr;
        key_event = nullptr;
        if (!context || !seat || !device || !device->keyboard)
        {
            return;
        }

        wlr_keyboard *keyboard = device->keyboard;
        input_t *input = input_of(device);
        wlr_surface *focus = seat->keyboard_state.focused_surface;
        uint32_t held = wlr_keyboard_get_modifiers(keyboard);
        preview_interaction_key key{};
        key.size     = sizeof(key);
        key.seat     = 0;
        key.keycode  = event->keycode;
        key.keysym   = keyboard->xkb_state ? xkb_state_key_get_one_sym(keyboard->xkb_state, event->keycode + 8) : 0;
        key.modifiers = (held & WLR_MODIFIER_SHIFT ? PREVIEW_INTERACTION_MODIFIER_SHIFT : 0) |
            (held & WLR_MODIFIER_CTRL ? PREVIEW_INTERACTION_MODIFIER_CONTROL : 0) |
            (held & WLR_MODIFIER_ALT ? PREVIEW_INTERACTION_MODIFIER_ALT : 0) |
            (held & WLR_MODIFIER_LOGO ? PREVIEW_INTERACTION_MODIFIER_LOGO : 0);
        key.pressed   = event->state == WL_KEYBOARD_KEY_STATE_PRESSED;
        key.time_usec = event_usec(event->time_msec);
        key.focus     = focus ? focus->resource : nullptr;
        key.focus_width  = focus ? focus->current.width : 0;
        key.focus_height = focus ? focus->current.height : 0;
        key.device = input ? input->preview : nullptr;

        auto verdict = PREVIEW_INTERACTION_KEY_DELIVER;
        uint64_t pressed_at = 0;
        if (preview_interaction_keyboard_key(context, &key, &verdict, &pressed_at) != PREVIEW_INTERACTION_OK)
        {
            return;
        }

        if (verdict == PREVIEW_INTERACTION_KEY_CONSUMED)
        {
            signal->mode = wf::input_event_processing_mode_t::NO_CLIENT;
        } else if (verdict == PREVIEW_INTERACTION_KEY_DELIVER_TAP)
        {
            /* The withheld press began nothing: it goes to the client now, and wayfire
             * delivers this release after it. */
            wlr_seat_set_keyboard(seat, device);
            wlr_seat_keyboard_notify_key(seat, uint32_t(pressed_at / 1000), event->keycode,
                WL_KEYBOARD_KEY_STATE_PRESSED);
        }
    });

    /* A preview key held on a surface ends when the keyboard focus leaves it. */
    on_keyboard_focus.set_callback([this] (wf::signal_data_t *data)
    {
        (void)data;
        wlr_seat *seat = wf::get_core().get_current_seat();
        wlr_surface *focus = seat ? seat->keyboard_state.focused_surface : nullptr;
        if (context && (focus != keyboard_focus))
        {
            preview_interaction_keyboard_focus_lost(context, 0, now_usec());
        }

        keyboard_focus = focus;
    });

    auto& core = wf::get_core();
    core.connect_signal("keyboard_key", &on_keyboard_key);
    core.connect_signal("keyboard-focus-changed", &on_keyboard_focus);
}

/* MARK: The library's callbacks. wayfire delivers input itself, after the signals: a touch point can
 * be cancelled, a pointer's focus cleared; a tablet tool cannot be taken away (docs/wayfire.md). */
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
