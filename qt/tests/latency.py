#!/usr/bin/python3
"""The Qt adapter's preview signal vs Qt's own QTabletEvent, for the same tablet frame, at the app.

usage: latency.py [RUNS] (after scripts/build-qt; default 3 runs)

preview-compositor (headless) replays the Wacom DTH2242 pen (7 strokes, 1,200 frames) into
latency-app, a QWidget that has a PreviewInteraction and takes QTabletEvents. Each preview
signal carries the hardware event's time in µs (PreviewInteraction::timestamp), each tablet
event its time in ms (QTabletEvent::timestamp); a signal and a tablet event of the same frame
share the millisecond. Latency = when the app got it (CLOCK_MONOTONIC) − the hardware time in µs
of the frame, for both. CPU = the GUI thread's CPU time in one dispatch of the adapter's
descriptor that emitted signals, per signal, vs in Qt's delivery to the window of one tablet
event that reached the widget, for the frames both handled (the first of each per frame); and,
for comparison, the p50 of Qt's over every tablet event (a hovering pen's too, which Qt drops
before any widget). Prints p50 and p99 of each and their ratios (ours / Qt's) per run.
"""
import os
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "Tests", "python"))
from adapter_harness import latency_runs, pair_by_millisecond, percentile, replay_pen_into  # noqa: E402


def run_once(runtime, compositor, app):
    env = dict(os.environ, XDG_RUNTIME_DIR=runtime, QT_QPA_PLATFORM="wayland", QT_WAYLAND_DISABLE_WINDOWDECORATION="1")
    env.pop("DISPLAY", None)
    signals, tablet, ours_cpu, qt_cpu, qt_every = {}, {}, {}, {}, []
    for line in replay_pen_into(ROOT, runtime, compositor, "latency-qt", app, env).splitlines():
        words = line.split()
        if words[:1] == ["signal"] and len(words) == 3:
            signals.setdefault(int(words[1]), int(words[2]))  # several signals for one frame: the first
        elif words[:1] == ["tablet"] and len(words) == 3:
            tablet.setdefault(int(words[1]), int(words[2]))
        elif words[:1] == ["cpu-dispatch"] and len(words) == 4:
            # The frame's millisecond, as a tablet event's timestamp has it.
            frame = (int(words[3]) // 1000) & 0xFFFFFFFF
            ours_cpu.setdefault(frame, int(words[1]) / int(words[2]))
        elif words[:1] == ["cpu-qt"] and len(words) == 4:
            qt_every.append(int(words[1]))
            if int(words[2]) > 0:
                qt_cpu.setdefault(int(words[3]), int(words[1]) / int(words[2]))
    ours, theirs = pair_by_millisecond(signals, tablet)
    both = sorted(set(ours_cpu) & set(qt_cpu))
    return ours, theirs, [ours_cpu[f] for f in both], [qt_cpu[f] for f in both], qt_every


def main():
    app = os.path.join(ROOT, ".build", "qt", "cmake", "tests", "latency-app")

    def one(run, runtime, compositor):
        ours, theirs, ours_cpu, qt_cpu, qt_every = run_once(runtime, compositor, app)
        if not ours or not ours_cpu or not qt_cpu:
            sys.exit("no frame had both a preview signal and a tablet event")
        p50 = (percentile(ours, 50), percentile(theirs, 50))
        p99 = (percentile(ours, 99), percentile(theirs, 99))
        c50 = (percentile(ours_cpu, 50), percentile(qt_cpu, 50))
        c99 = (percentile(ours_cpu, 99), percentile(qt_cpu, 99))
        print(f"run {run}: {len(ours)} frames; preview signal p50 {p50[0]} µs p99 {p99[0]} µs; "
              f"QTabletEvent p50 {p50[1]} µs p99 {p99[1]} µs; ratio p50 {p50[0] / p50[1]:.2f} "
              f"p99 {p99[0] / p99[1]:.2f}; CPU per event ({len(ours_cpu)} frames) p50 {c50[0]:.0f} vs "
              f"{c50[1]:.0f} µs, p99 {c99[0]:.0f} vs {c99[1]:.0f} µs, ratio p50 {c50[0] / max(1, c50[1]):.2f} "
              f"p99 {c99[0] / max(1, c99[1]):.2f}; Qt over every tablet event ({len(qt_every)}) p50 "
              f"{percentile(qt_every, 50)} µs", flush=True)

    latency_runs(ROOT, "pi-latency-qt-", one)


if __name__ == "__main__":
    main()
