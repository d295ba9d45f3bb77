/* The plugin's one host of libpreview-interaction: the context on wayfire's wl_display, what it
 * knows of each input device, and its connections to wayfire's core signals. Its parts are
 * defined by concern:
 *   host.cpp       the context, the callbacks' table, the connections, in order
 *   devices.cpp    input devices as the library's devices; a contact's down and up
 *   pointer.cpp    pointer buttons and motion
 *   tablet.cpp     tablet tools' tip and axes
 *   touch.cpp      touch points
 *   keys.cpp       keys (the preview key, Escape) and the keyboard focus
 *   callbacks.cpp  the library's callbacks: take away, give back, regions, log, phases
 * The host calls are those of examples/wlroots-compositor (same calls, same order), so both
 * compositors give the same answers; what wayfire's plugin API cannot do is in docs/wayfire.md. */
#pragma once

#include <wayfire/geometry.hpp>
#include <wayfire/object.hpp>

#include <cstdint>
#include <cstdio>
#include <map>

#include <wayland-server-core.h>

extern "C" {
#include <preview-interaction.h>
}

struct wlr_input_device;
struct wlr_surface;

namespace preview_wayfire
{
class preview_interaction_host;

/* wayfire's keyboard_key signal does not say which keyboard a key is from: a listener on each
 * keyboard's own key signal, first in its list, notes the event before wayfire hears of it. */
struct key_listener_t
{
    wl_listener listener{};
    preview_interaction_host *host = nullptr;
    wlr_input_device *device = nullptr;
};

/* What the plugin knows of one input device. */
struct input_t
{
    key_listener_t key;
    wlr_input_device *device = nullptr;
    preview_interaction_device *preview = nullptr;
    double pressure = 0;
    bool tip_down = false;
    int buttons = 0;
    /* Where the surface of the contact down is, in layout coordinates (surface-local = point -
     * origin, as the wlroots compositor computes it). */
    wf::pointf_t origin{};
    std::map<int32_t, wf::pointf_t> touches;
};

class preview_interaction_host
{
  public:
    preview_interaction_host();
    ~preview_interaction_host();

    preview_interaction_host(const preview_interaction_host&) = delete;
    preview_interaction_host& operator =(const preview_interaction_host&) = delete;

  private:
    preview_interaction *context = nullptr;
    std::map<wlr_input_device*, input_t> inputs;
    FILE *trace = nullptr;
    /* The surface with the seat's keyboard focus when wayfire last said it changed. */
    wlr_surface *keyboard_focus = nullptr;
    /* The key event a keyboard is emitting, and that keyboard. */
    void *key_event = nullptr;
    wlr_input_device *key_device = nullptr;

    /* devices.cpp */
    input_t *input_of(wlr_input_device *device);
    static input_t *input_of_preview_device(preview_interaction_device *device);
    void add_device(wlr_input_device *device);
    void remove_device(wlr_input_device *device);
    void connect_devices();
    void contact_down(input_t& input, int32_t id, wf::pointf_t point, double pressure);
    bool contact_up(input_t& input, int32_t id);
    wf::signal_connection_t on_device_added;
    wf::signal_connection_t on_device_removed;

    /* pointer.cpp */
    void connect_pointer();
    void pointer_moved(wlr_input_device *device, uint32_t time_msec);
    wf::signal_connection_t on_pointer_button;
    wf::signal_connection_t on_pointer_motion;
    wf::signal_connection_t on_pointer_motion_absolute;

    /* tablet.cpp */
    void connect_tablet();
    wf::signal_connection_t on_tablet_proximity;
    wf::signal_connection_t on_tablet_axis;
    wf::signal_connection_t on_tablet_tip;
    wf::signal_connection_t on_tablet_button;

    /* touch.cpp */
    void connect_touch();
    wf::signal_connection_t on_touch_down;
    wf::signal_connection_t on_touch_motion;
    wf::signal_connection_t on_touch_up;

    /* keys.cpp */
    void connect_keys();
    static void on_wlr_key(wl_listener *listener, void *data);
    wf::signal_connection_t on_keyboard_key;
    wf::signal_connection_t on_keyboard_focus;

    /* callbacks.cpp */
    static preview_interaction_callbacks callbacks();
    static void take_away(void *data, preview_interaction_device *device, int32_t contact,
        wl_resource *surface);
    static void give_back(void *data, preview_interaction_device *device, int32_t contact,
        wl_resource *surface);
    static int32_t region_boxes(void *data, wl_resource *region, preview_interaction_box *boxes,
        int32_t capacity);
    static void on_log(void *data, preview_interaction_log_level level, const char *message);
    static void on_phase(void *data, const preview_interaction_phase_event *event);
};
}
