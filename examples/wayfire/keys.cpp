/* The keyboard (the preview key, Escape). Before wayfire delivers the key: a key the library
 * consumes is kept from the client with NO_CLIENT, which wayfire's core honours for keys (no
 * built-in plugin resets a key's mode; bindings still see it). */
#include "host.hpp"

#include <wayfire/core.hpp>
#include <wayfire/signal-definitions.hpp>

#include <wayfire/nonstd/wlroots-full.hpp>
#include <xkbcommon/xkbcommon.h>

#include "clock.hpp"

namespace preview_wayfire
{
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
}
