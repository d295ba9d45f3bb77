/* What the plugin reads from wayfire's environment, for tests: the trace's file and how long a
 * client may take to answer should_begin. */
#pragma once

#include <cstdio>

extern "C" {
#include <preview-interaction.h>
}

namespace preview_wayfire
{
/* WAYFIRE_PREVIEW_TRACE: the file the trace is written to, opened for writing; null without. */
FILE *open_trace();

/* WAYFIRE_PREVIEW_SHOULD_BEGIN_TIMEOUT (ms) given to `context`; a value out of the library's
 * range is logged and the library keeps its default. */
void set_should_begin_timeout(preview_interaction *context);
}
