/*
 * For tests only, loaded into wayfire by scripts/wayfire-headless --replay: creates the file
 * $WAYFIRE_HEADLESS_MAPPED when a toplevel window maps, the moment the recording's stream may
 * start (libinput-testbed-runner play --ready-file), as sway's `for_window ... exec touch` does
 * for scripts/sway-headless. wayfire 0.7 has no such rule of its own. Never part of the product.
 */
#include <wayfire/output.hpp>
#include <wayfire/plugin.hpp>
#include <wayfire/signal-definitions.hpp>
#include <wayfire/view.hpp>

#include <cstdio>
#include <cstdlib>

class mapped_file_t : public wf::plugin_interface_t
{
    wf::signal_connection_t on_mapped = [] (wf::signal_data_t *data)
    {
        wayfire_view view = wf::get_signaled_view(data);
        const char *path  = std::getenv("WAYFIRE_HEADLESS_MAPPED");
        if (!view || (view->role != wf::VIEW_ROLE_TOPLEVEL) || !path)
        {
            return;
        }

        if (FILE *file = std::fopen(path, "w"))
        {
            std::fclose(file);
        }
    };

  public:
    void init() override
    {
        output->connect_signal("view-mapped", &on_mapped);
    }

    void fini() override
    {
        on_mapped.disconnect();
    }
};

DECLARE_WAYFIRE_PLUGIN(mapped_file_t);
