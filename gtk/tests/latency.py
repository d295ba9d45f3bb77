#!/usr/bin/python3
"""The adapter's preview signal vs GTK's own GtkGestureStylus, for the same tablet frame, at the app.

usage: latency.py [RUNS] (after scripts/build-gtk; default 3 runs)

preview-compositor (headless) replays the Wacom DTH2242 pen (7 strokes, 1,200 frames) into
latency-app, a C GTK window whose drawing area has both. Each preview signal carries the
hardware event's time in µs (pi_preview_interaction_get_time), each stylus event its time in
ms (gdk_event_get_time); a signal and a stylus event of the same frame share the millisecond.
Latency = when the app got it (g_get_monotonic_time) − the hardware time in µs of the frame,
for both. Prints p50 and p99 of each and their ratios (signal / stylus) per run.
"""
import os
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "Tests", "python"))
from adapter_harness import latency_runs, pair_by_millisecond, percentile, replay_pen_into  # noqa: E402


def run_once(runtime, compositor, app):
    env = dict(os.environ, XDG_RUNTIME_DIR=runtime, GSK_RENDERER="cairo", NO_AT_BRIDGE="1", GDK_BACKEND="wayland")
    env.pop("DISPLAY", None)
    signals, stylus = {}, {}
    for line in replay_pen_into(ROOT, runtime, compositor, "latency", app, env).splitlines():
        words = line.split()
        if len(words) != 3:
            continue
        if words[0] == "signal":
            signals.setdefault(int(words[1]), int(words[2]))  # several signals for one frame: the first
        elif words[0] == "stylus":
            stylus.setdefault(int(words[1]), int(words[2]))
    return pair_by_millisecond(signals, stylus)


def main():
    app = os.path.join(ROOT, ".build", "gtk", "meson", "tests", "latency-app")

    def one(run, runtime, compositor):
        ours, theirs = run_once(runtime, compositor, app)
        if not ours:
            sys.exit("no frame had both a preview signal and a stylus event")
        p50 = (percentile(ours, 50), percentile(theirs, 50))
        p99 = (percentile(ours, 99), percentile(theirs, 99))
        print(f"run {run}: {len(ours)} frames; preview signal p50 {p50[0]} µs p99 {p99[0]} µs; "
              f"GtkGestureStylus p50 {p50[1]} µs p99 {p99[1]} µs; "
              f"ratio p50 {p50[0] / p50[1]:.2f} p99 {p99[0] / p99[1]:.2f}", flush=True)

    latency_runs(ROOT, "pi-latency-", one)


if __name__ == "__main__":
    main()
