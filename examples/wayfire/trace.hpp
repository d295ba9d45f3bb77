/* The plugin's trace for tests: one JSON line per phase, in preview-compositor's --trace format. */
#pragma once

#include <cstdio>

extern "C" {
#include <preview-interaction.h>
}

/* Writes `event` of the device named `device` as one line, flushed; unknown phases write nothing. */
void write_trace_line(FILE *file, const preview_interaction_phase_event *event, const char *device);
