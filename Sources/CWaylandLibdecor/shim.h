#pragma once
/*
 * libdecor, for the nested window's decorations where the parent compositor offers no
 * xdg-decoration (GNOME, weston): it makes the xdg_toplevel and draws the title bar with its
 * plugin. Only Sources/WaylandWindow imports it (internally), with CWaylandClient.
 */
#include "cwaylandprotocols.h"
#include <wayland-client.h>
#include <libdecor.h>
