#pragma once
/* libwayland-cursor: cursor themes as wl_buffers, for the sample client's pointer image. */
#include <wayland-client.h>
#include <wayland-cursor.h>
