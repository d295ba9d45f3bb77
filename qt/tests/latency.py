#!/usr/bin/python3
"""The Qt adapter's preview signal vs Qt's own QTabletEvent, for the same tablet frame, at the app.

usage: latency.py [RUNS] (after scripts/build-qt; default 3 runs)

preview-compositor (headless) replays the Wacom DTH2242 pen (7 strokes, 1,200 frames) into
latency-app, a QWidget that has a PreviewInteraction and takes QTabletEvents. Each preview
signal carries the hardware event's time in µs (PreviewInteraction::timestamp), each tablet
event its time in ms (QTabletEvent::timestamp); a signal and a tablet event of the same frame
share the millisecond. Latency = when the app got it (CLOCK_MONOTONIC) − the hardware time in µs
of the frame, for both. CPU = the GUI thread's CPU time in one dispatch of the adapter's
descriptor that emitted signals, per signal, vs in Qt's delivery of one tablet event to the
window. Prints p50 and p99 of each and their ratios (ours / Qt's) per run.
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
    env = dict(os.environ, XDG_RUNTIME_DIR=runtime, QT_QPA_PLATFORM="wayland", QT_WAYLAND_DISABLE_WINDOWDECORATION="1")
    env.pop("DISPLAY", None)
    recording = os.path.join(ROOT, "Tests", "Fixtures", "recordings", "wacom-dth2242-pen.yml")
    result = subprocess.run(
        [compositor, "--backend", "headless", "--socket", "latency-qt", "--replay", recording, "--exit-when-done",
         "--should-begin-timeout", "10000", "--run", app],
        env=env, capture_output=True, text=True, timeout=600)
    signals, tablet, ours_cpu, qt_cpu = {}, {}, [], []
    for line in result.stdout.splitlines():
        words = line.split()
        if words[:1] == ["signal"] and len(words) == 3:
            signals.setdefault(int(words[1]), int(words[2]))  # several signals for one frame: the first
        elif words[:1] == ["tablet"] and len(words) == 3:
            tablet.setdefault(int(words[1]), int(words[2]))
        elif words[:1] == ["cpu-dispatch"] and len(words) == 3:
            ours_cpu.append(int(words[1]) / int(words[2]))
        elif words[:1] == ["cpu-qt"] and len(words) == 3:
            qt_cpu.append(int(words[1]))
    ours, theirs = [], []
    for hardware, now in signals.items():
        millisecond = (hardware // 1000) & 0xFFFFFFFF
        if millisecond in tablet:
            ours.append(now - hardware)
            theirs.append(tablet[millisecond] - hardware)
    return ours, theirs, ours_cpu, qt_cpu


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    bin_dir = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.strip()
    compositor = os.path.join(bin_dir, "preview-compositor")
    app = os.path.join(ROOT, ".build", "qt", "cmake", "tests", "latency-app")
    runtime = tempfile.mkdtemp(prefix="pi-latency-qt-")
    os.chmod(runtime, 0o700)
    try:
        for run in range(1, runs + 1):
            ours, theirs, ours_cpu, qt_cpu = run_once(runtime, compositor, app)
            if not ours or not ours_cpu or not qt_cpu:
                sys.exit("no frame had both a preview signal and a tablet event")
            p50 = (percentile(ours, 50), percentile(theirs, 50))
            p99 = (percentile(ours, 99), percentile(theirs, 99))
            c50 = (percentile(ours_cpu, 50), percentile(qt_cpu, 50))
            c99 = (percentile(ours_cpu, 99), percentile(qt_cpu, 99))
            print(f"run {run}: {len(ours)} frames; preview signal p50 {p50[0]} µs p99 {p99[0]} µs; "
                  f"QTabletEvent p50 {p50[1]} µs p99 {p99[1]} µs; ratio p50 {p50[0] / p50[1]:.2f} "
                  f"p99 {p99[0] / p99[1]:.2f}; CPU per event ({len(ours_cpu)} dispatches, {len(qt_cpu)} tablet "
                  f"events) p50 {c50[0]:.0f} vs {c50[1]} µs, p99 {c99[0]:.0f} vs {c99[1]} µs, ratio p50 "
                  f"{c50[0] / max(1, c50[1]):.2f} p99 {c99[0] / max(1, c99[1]):.2f}", flush=True)
    finally:
        shutil.rmtree(runtime, ignore_errors=True)


if __name__ == "__main__":
    main()
