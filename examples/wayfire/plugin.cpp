/*
 * The preview interaction ("peek and pop") in wayfire 0.7, as a plugin: libpreview-interaction
 * attached to wayfire's wl_display, fed the input events wayfire's core signals carry
 * (host.hpp names the parts). What wayfire's plugin API cannot do is in docs/wayfire.md.
 */
#include <wayfire/plugin.hpp>
#include <wayfire/singleton-plugin.hpp>

#include "host.hpp"

namespace preview_wayfire
{
/* Plugins are made per output: one host for the compositor, made with the first. */
class preview_interaction_plugin : public wf::singleton_plugin_t<preview_interaction_host>
{
  public:
    void init() override
    {
        singleton_plugin_t::init();
        get_instance();
    }
};
}

/* The entry points wayfire looks up: the only symbols the plugin exports (exports.map). */
#pragma GCC visibility push(default)
DECLARE_WAYFIRE_PLUGIN(preview_wayfire::preview_interaction_plugin);
#pragma GCC visibility pop
