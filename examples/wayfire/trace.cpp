/* One JSON line per phase, in preview-compositor's trace format (docs/recordings.md), as the
 * wlroots compositor writes it. */
#include "trace.hpp"

namespace
{
void write_json_string(FILE *file, const char *text)
{
    std::fputc('"', file);
    for (auto c = reinterpret_cast<const unsigned char*>(text); *c; c++)
    {
        if ((*c == '"') || (*c == '\\'))
        {
            std::fprintf(file, "\\%c", *c);
        } else if (*c < 0x20)
        {
            std::fprintf(file, "\\u%04x", *c);
        } else
        {
            std::fputc(*c, file);
        }
    }

    std::fputc('"', file);
}
}

void write_trace_line(FILE *f, const preview_interaction_phase_event *event, const char *device)
{
    static const char *phase_names[] = {"", "preview-began", "preview-progress", "preview-ended",
        "commit-progress", "completed", "cancelled"};
    static const char *reason_names[] = {"", "lifted", "client-cancelled", "declined", "timeout",
        "device-removed", "surface-gone", "desynchronised", "moved", "system", "dismissed"};
    static const char *source_names[] = {"", "pen", "touchpad", "touchscreen", "pointer", "keyboard"};
    if ((event->phase < 1) || (event->phase > 6))
    {
        return;
    }

    bool preview   = event->phase <= PREVIEW_INTERACTION_PHASE_PREVIEW_ENDED;
    bool cancelled = event->phase == PREVIEW_INTERACTION_PHASE_CANCELLED;
    bool ended     = event->phase == PREVIEW_INTERACTION_PHASE_PREVIEW_ENDED ||
        event->phase == PREVIEW_INTERACTION_PHASE_COMPLETED;
    int source = event->source >= PREVIEW_INTERACTION_DEVICE_PEN &&
        event->source <= PREVIEW_INTERACTION_DEVICE_KEYBOARD ? int(event->source) :
        int(PREVIEW_INTERACTION_DEVICE_POINTER);
    std::fprintf(f, "{\"time_us\":%llu,\"device\":", (unsigned long long)event->time_usec);
    write_json_string(f, device);
    std::fprintf(f, ",\"source\":\"%s\",\"simulated\":%s,\"interaction\":%u,\"event\":\"%s\",\"progress\":%.9g",
        source_names[source], event->simulated ? "true" : "false", event->interaction,
        cancelled ? "cancel" : preview ? "preview" : "commit", event->progress);
    std::fprintf(f, ",\"ended\":%s,\"phase\":\"%s\",\"x\":%.9g,\"y\":%.9g", ended ? "true" : "false",
        phase_names[event->phase], event->x, event->y);
    if (cancelled && (event->reason >= 1) && (event->reason <= 10))
    {
        std::fprintf(f, ",\"reason\":\"%s\"", reason_names[event->reason]);
    }

    std::fputs("}\n", f);
    std::fflush(f);
}
