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
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def run_once(runtime, compositor, app):
    env = dict(os.environ, XDG_RUNTIME_DIR=runtime, GSK_RENDERER="cairo", NO_AT_BRIDGE="1", GDK_BACKEND="wayland")
    env.pop("DISPLAY", None)
    recording = os.path.join(ROOT, "Tests", "Fixtures", "recordings", "wacom-dth2242-pen.yml")
    result = subprocess.run(
        [compositor, "--backend", "headless", "--socket", "latency", "--replay", recording, "--exit-when-done",
         "--should-begin-timeout", "10000", "--run", app],
        env=env, capture_output=True, text=True, timeout=600)
    signals, stylus = {}, {}
    for line in result.stdout.splitlines():
        words = line.split()
        if len(words) != 3:
            continue
        if words[0] == "signal":
            hardware, now = int(words[1]), int(words[2])
            signals.setdefault(hardware, now)  # several signals for one frame: the first
        elif words[0] == "stylus":
            stylus.setdefault(int(words[1]), int(words[2]))
    ours, theirs = [], []
    for hardware, now in signals.items():
        millisecond = (hardware // 1000) & 0xFFFFFFFF
        if millisecond in stylus:
            ours.append(now - hardware)
            theirs.append(stylus[millisecond] - hardware)
    return ours, theirs


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    bin_dir = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.strip()
    compositor = os.path.join(bin_dir, "preview-compositor")
    app = os.path.join(ROOT, ".build", "gtk", "meson", "tests", "latency-app")
    runtime = tempfile.mkdtemp(prefix="pi-latency-")
    os.chmod(runtime, 0o700)
    try:
        for run in range(1, runs + 1):
            ours, theirs = run_once(runtime, compositor, app)
            if not ours:
                sys.exit("no frame had both a preview signal and a stylus event")
            p50 = (percentile(ours, 50), percentile(theirs, 50))
            p99 = (percentile(ours, 99), percentile(theirs, 99))
            print(f"run {run}: {len(ours)} frames; preview signal p50 {p50[0]} µs p99 {p99[0]} µs; "
                  f"GtkGestureStylus p50 {p50[1]} µs p99 {p99[1]} µs; "
                  f"ratio p50 {p50[0] / p50[1]:.2f} p99 {p99[0] / p99[1]:.2f}", flush=True)
    finally:
        shutil.rmtree(runtime, ignore_errors=True)


if __name__ == "__main__":
    main()
