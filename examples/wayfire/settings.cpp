/* What the plugin reads from wayfire's environment (settings.hpp). */
#include "settings.hpp"

#include <wayfire/util/log.hpp>

#include <cstdint>
#include <cstdlib>

namespace preview_wayfire
{
/* The trace (preview-compositor's --trace JSON lines), for tests. */
FILE *open_trace()
{
    const char *path = getenv("WAYFIRE_PREVIEW_TRACE");
    if (path && *path)
    {
        return std::fopen(path, "w");
    }

    return nullptr;
}

/* How long a client may take to answer should_begin, from WAYFIRE_PREVIEW_SHOULD_BEGIN_TIMEOUT
 * (ms): tests give a client slowed by a loaded machine longer, as sway's runs do. The library
 * refuses a value out of its range and keeps its default. */
void set_should_begin_timeout(preview_interaction *context)
{
    const char *text = getenv("WAYFIRE_PREVIEW_SHOULD_BEGIN_TIMEOUT");
    if (!text || !*text)
    {
        return;
    }

    char *end = nullptr;
    unsigned long milliseconds = std::strtoul(text, &end, 10);
    if ((*end != '\0') || (milliseconds > UINT32_MAX) ||
        (preview_interaction_set_should_begin_timeout(context, uint32_t(milliseconds)) !=
         PREVIEW_INTERACTION_OK))
    {
        LOGE("preview-interaction: WAYFIRE_PREVIEW_SHOULD_BEGIN_TIMEOUT=", text, " is not 1...60000 ms");
    }
}
}
