/* The plugin's times (clock.hpp). */
#include "clock.hpp"

#include <ctime>

namespace preview_wayfire
{
uint64_t now_usec()
{
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    return uint64_t(now.tv_sec) * 1000000 + uint64_t(now.tv_nsec) / 1000;
}

uint64_t event_usec(uint32_t time_msec)
{
    uint64_t now = now_usec(), now_ms = now / 1000;
    uint32_t behind = uint32_t(now_ms) - time_msec;
    if (behind > UINT32_MAX / 2 || behind > now_ms)
    {
        return now;
    }
    uint64_t time = (now_ms - behind) * 1000 + 999;
    return time < now ? time : now;
}
}
