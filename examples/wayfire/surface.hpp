/* Where a layout point is over a client: wayfire's surface and view at the point, as a
 * wl_surface and surface-local coordinates. */
#pragma once

#include <wayfire/geometry.hpp>

struct wlr_surface;

namespace preview_wayfire
{
/* The wl_surface under a layout point, and the point in its coordinates (0, 0 over none). */
wlr_surface *surface_at(wf::pointf_t point, double& sx, double& sy);
}
