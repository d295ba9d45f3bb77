/* The plugin's times: the monotonic clock, and wlroots' 32-bit millisecond event times, in
 * microseconds as the library takes them. */
#pragma once

#include <cstdint>

namespace preview_wayfire
{
/* CLOCK_MONOTONIC now. */
uint64_t now_usec();

/* An event's 32-bit milliseconds in microseconds: the last of its millisecond, never after now
 * (as the wlroots compositor's event_usec). */
uint64_t event_usec(uint32_t time_msec);
}
