/* Where a layout point is over a client (surface.hpp). */
#include "surface.hpp"

#include <wayfire/core.hpp>
#include <wayfire/output-layout.hpp>
#include <wayfire/output.hpp>
#include <wayfire/view.hpp>

#include <wayfire/nonstd/wlroots-full.hpp>

namespace preview_wayfire
{
wlr_surface *surface_at(wf::pointf_t point, double& sx, double& sy)
{
    auto& core = wf::get_core();
    sx = sy = 0;
    wf::surface_interface_t *surface = core.get_surface_at(point);
    wayfire_view view = core.get_view_at(point);
    wf::output_t *output = core.output_layout->get_output_at(point.x, point.y);
    if (!surface || !view || !output)
    {
        return nullptr;
    }

    /* Views take output-local coordinates. */
    auto origin = output->get_layout_geometry();
    wf::pointf_t local{};
    auto mapped = view->map_input_coordinates({point.x - origin.x, point.y - origin.y}, local);
    if (mapped != surface || !surface->get_wlr_surface())
    {
        return nullptr;
    }

    sx = local.x;
    sy = local.y;
    return surface->get_wlr_surface();
}
}
