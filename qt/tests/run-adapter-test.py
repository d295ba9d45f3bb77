#!/usr/bin/python3
"""Runs one scenario of the Qt adapter against a real compositor and checks what the app saw.

usage: run-adapter-test.py SCENARIO ADAPTER_APP COMPOSITOR RECORDINGS_DIR

preview-compositor (headless) replays a recorded pen (the Dell Canvas pen: a 47 ms light tap,
then a firm press that completes) or a held Menu key into adapter-app (a Qt Quick or widget
window) or examples/peek-qt. weston (headless) is a compositor without the global. Every wait
is on an event (a line of the app, a process exit); the compositor's --exit-when-done ends the
replay once the app has handled the last input. Exit status 0 when every check holds, 77 to
skip, 1 otherwise (the failed checks and the app's output are printed).
"""
import os
import re
import shutil
import signal
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "Tests", "python"))
from adapter_harness import (check, difference, finish, hostile as run_hostile, interactions_in, lines_of,  # noqa: E402
                             replay, runtime_directory, shot as shot_in, weston)


def qt_messages(errors):
    """What Qt or the adapter said on stderr, minus Qt's notice that the compositor went away (it
    exits when its replay is done) and a bare test box's notices."""
    return [line for line in errors.splitlines()
            if line.strip() and "Wayland connection broke" not in line and "XDG_RUNTIME_DIR" not in line
            and "connection to the compositor is gone" not in line
            and "propagateSizeHints" not in line]


def app_environment(runtime):
    env = dict(os.environ, XDG_RUNTIME_DIR=runtime, QT_QPA_PLATFORM="wayland",
               QT_WAYLAND_DISABLE_WINDOWDECORATION="1")
    env.pop("DISPLAY", None)
    return env


def run(name, compositor, recording, runtime, app_argv, kill_at=None, fast=True, extra=(), version_one=False):
    def through(socket):
        # The app meets the compositor through a proxy that says the global is of version 1.
        import version_one_proxy
        version_one_proxy.start(runtime, socket, socket + "-v1")
        return socket + "-v1"

    return replay(compositor, "qt-" + name, recording, runtime, app_argv, app_environment(runtime), kill_at=kill_at,
                  fast=fast, extra=extra, through=through if version_one else None)


def adapter(scenario, app, compositor, recordings, runtime):
    dell = os.path.join(recordings, "dell-canvas-isdv4-pen.yml")
    keyboard = scenario == "keyboard"
    recording = os.path.join(recordings, "handwritten-usb-keyboard-menu-hold.yml") if keyboard else dell
    trace = os.path.join(runtime, "trace.jsonl")
    # A change of region applies on the window's next commit: these keep the recording's own
    # pause between the strokes (--fast would skip it), as a user's next press would; where the
    # tap's end scrolls, the pause lasts until the app has committed that (a loaded machine can
    # keep Qt from drawing within the recorded pause).
    region_change = scenario in ("scrolled", "clipped")
    kill_at = "preview button 0." if scenario == "closing" else None
    output, errors, status, server_status, log = run(
        scenario, compositor, recording, runtime, [app, "button" if scenario == "closing" else scenario],
        kill_at=kill_at, fast=not region_change and not keyboard,
        extra=["--trace", trace] + (["-v"] if scenario == "reshow" else []) + (["--await-clients"] if scenario == "scrolled" else []),
        version_one=scenario == "version1")
    print(output)
    print(errors[-2000:])
    starts = lines_of(output, "should-begin")
    if scenario != "closing":
        check(server_status == 0, f"the compositor ended the replay (status {server_status})")
        check(["available", "True"] in lines_of(output, "available"),
              "the adapter is available on a compositor with the global")
        check(not qt_messages(errors), f"nothing on stderr: {qt_messages(errors)}")
    interactions = interactions_in(trace)
    completed = [c for c in lines_of(output, "commit") if c[3] == "ended"]

    if scenario == "two":
        check(lines_of(output, "settings") == [["settings", "True"]], "version 2: the user's settings came")

    if scenario in ("two", "late"):
        name = "right" if scenario == "two" else "button"
        names = {s[1] for s in starts}
        check(len(starts) == 2 and names == {name} and all(s[2:4] == ["pen", "measured"] for s in starts),
              f"both pen presses go to the item under the pen, with measured force: {starts}")
        for s in starts:
            x, y, w, h = (float(v) for v in s[4:8])
            check(0 <= x <= w and 0 <= y <= h, f"the location {x},{y} is in the item's coordinates ({w}x{h})")
        check(lines_of(output, "cancelled") == [["cancelled", name, "lifted"]], "the light tap is cancelled (lifted)")
        check(len(completed) == 1, "the firm press completes, once")
        check(not any(line.split()[1:2] == ["left"] for line in output.splitlines()
                      if line.split()[:1] in (["preview"], ["commit"], ["cancelled"], ["should-begin"])),
              "the other item sees nothing")
        if scenario == "late":
            check(lines_of(output, "answered") == [["answered", "true"]] * 2,
                  f"both answers were given later, from a timer: {lines_of(output, 'answered')}")

    if scenario == "version1":
        check(lines_of(output, "settings") == [["settings", "False"]],
              f"the library bound version 1: no user settings ({lines_of(output, 'settings')})")
        check(len(starts) == 2 and all(s[1:4] == ["right", "pen", "measured"] for s in starts),
              f"both pen presses reach the item under the pen, as on version 2: {starts}")
        check(len(completed) == 1 and lines_of(output, "cancelled") == [["cancelled", "right", "lifted"]],
              "the tap is cancelled and the firm press completes")
        check(lines_of(output, "haptic") == [["haptic", "False"]], "no haptic effect is sent on version 1")

    if scenario == "resize":
        check("moved button" in output.splitlines(), "the item moved under the pen mid-press")
        previews = lines_of(output, "preview")
        moved = output.splitlines().index("moved button")
        before = [float(p[4]) for p in lines_of("\n".join(output.splitlines()[:moved]), "preview")]
        after = [float(p[4]) for p in lines_of("\n".join(output.splitlines()[moved:]), "preview")]
        check(before and after and before[-1] - min(after) > 250,
              f"the location follows the item's new place ({before[-1:]} then {after[:2]})")
        check(len(completed) == 1, f"the press goes on to complete on the same item ({len(previews)} previews)")

    if scenario == "destroy":
        check(lines_of(output, "destroyed") == [["destroyed", "button"]], "the item was destroyed mid-press")
        check(["after-destroy", "gone"] in lines_of(output, "after-destroy"), "its interaction left the window")
        check(not completed, "the destroyed item's press never completes")
        check(len(starts) == 2, f"the tap and the firm press reached it before: {starts}")
        check(status in (0, 1, -signal.SIGTERM), f"the app ran on, never crashed (status {status})")
        cancels = [line for line in log.splitlines() if "client_cancelled" in line or "clientCancelled" in line]
        check(len(interactions) == 2, f"two interactions in the compositor ({interactions})")

    if scenario == "reshow":
        text = output.splitlines()
        check("hidden" in text and "shown again" in text, "the window was hidden and shown again")
        shown = text.index("shown again") if "shown again" in text else len(text)
        later = lines_of("\n".join(text[shown:]), "should-begin")
        # The compositor's replay begins when the window first maps: every contact that began
        # once the window's second surface mapped (its log says when) must reach the item.
        lines = log.splitlines()
        maps = [i for i, line in enumerate(lines) if re.search(r"toplevel surface\d+ of \S+ mapped", line)]
        asked = [line for line in lines[maps[-1]:] if "contact" in line and " began at " in line] \
            if len(maps) > 1 else []
        if not asked:
            print("SKIP: every press ended before the window came back (a slow machine)")
            sys.exit(77)
        check(len(later) == len(asked) and all(s[1:4] == ["button", "pen", "measured"] for s in later),
              f"the {len(asked)} press(es) on the window's new surface reach the item: {later}")

    if scenario == "scrolled":
        check(output.splitlines().count("scrolled") == 1, "the tap's end scrolled the item away from the pen")
        check(len(starts) == 1, f"only the tap reached the item: {starts}")
        check(len(interactions) == 1,
              f"the scrolled-away item was outside the region: the firm press was no interaction ({interactions})")

    if scenario == "clipped":
        check(not starts, f"no press reaches the item where its view clips it: {starts}")
        check(not interactions, f"the clipped part is outside the window's region: no interaction ({interactions})")

    if scenario == "keyboard":
        check(len(starts) == 1 and starts[0][1:4] == ["right", "keyboard", "simulated"],
              f"the held Menu key is a keyboard press with simulated force on the focused item: {starts}")
        if len(starts) == 1:
            x, y, w, h = (float(v) for v in starts[0][4:8])
            check(abs(x - w / 2) <= 1 and abs(y - h / 2) <= 1, f"it begins at the item's centre ({x},{y})")
        check(len(completed) == 1, "held on, it peeks and completes")
        check(not any(line.split()[1:2] == ["left"] for line in output.splitlines()
                      if line.split()[:1] in (["preview"], ["commit"], ["cancelled"], ["should-begin"])),
              "the unfocused item sees nothing")

    if scenario == "widgets":
        check(len(starts) == 2 and all(s[1:4] == ["button", "pen", "measured"] for s in starts),
              f"both pen presses reach the QPushButton: {starts}")
        check(lines_of(output, "cancelled") == [["cancelled", "button", "lifted"]], "the light tap is cancelled")
        check(len(completed) == 1, "the firm press completes, once")
        text = output.splitlines()
        clicks = [i for i, line in enumerate(text) if line == "clicked button"]
        second = next((i for i, line in enumerate(text) if line.startswith("should-begin")
                       and i > text.index("cancelled button lifted")), len(text)) if "cancelled button lifted" in text else 0
        check(len(clicks) <= 1 and all(i < second for i in clicks),
              f"the firm press never clicks the button (clicks at lines {clicks}, firm press at {second})")

    if scenario == "closing":
        check(len(lines_of(output, "preview")) >= 1, "the press was in its preview when the compositor went")
        check(status is not None and status >= 0, f"the app exited, not crashed (status {status})")
    finish()


def unavailable(app, runtime):
    with weston(runtime, app_environment(runtime)) as env:
        result = subprocess.run([app, "unavailable"], env=env, capture_output=True, text=True, timeout=60)
    print(result.stdout, result.stderr)
    check(result.returncode == 0, f"the app ran and quit (status {result.returncode})")
    check(lines_of(result.stdout, "available") == [["available", "False"]], "the adapter says unavailable")
    check(not qt_messages(result.stderr), f"no warning: {qt_messages(result.stderr)}")
    finish()


def offscreen(app, runtime):
    """Another QPA platform (offscreen; xcb without an X server fails in Qt itself): unavailable."""
    env = dict(os.environ, XDG_RUNTIME_DIR=runtime, QT_QPA_PLATFORM="offscreen")
    result = subprocess.run([app, "unavailable"], env=env, capture_output=True, text=True, timeout=60)
    print(result.stdout, result.stderr)
    check(result.returncode == 0, f"the app ran and quit (status {result.returncode})")
    check(lines_of(result.stdout, "available") == [["available", "False"]], "the adapter says unavailable")
    finish()


def snippets(app, runtime):
    """docs/qt.md's QML snippet, as written, in a window (offscreen: it loads and binds)."""
    text = open(os.path.join(ROOT, "docs", "qt.md")).read()
    blocks = re.findall(r"```qml\n(.*?)```", text, re.S)
    check(len(blocks) >= 1, "docs/qt.md has its QML snippet")
    for number, block in enumerate(blocks):
        path = os.path.join(runtime, f"snippet{number}.qml")
        with open(path, "w") as file:
            file.write(block)
        env = dict(os.environ, XDG_RUNTIME_DIR=runtime, QT_QPA_PLATFORM="offscreen")
        result = subprocess.run([app, "--qml", path], env=env, capture_output=True, text=True, timeout=60)
        check(result.returncode == 0 and "loaded" in result.stdout and not qt_messages(result.stderr),
              f"the QML snippet {number + 1} loads as written: {result.stdout.strip()} {result.stderr.strip()[-600:]}")
    snippet = os.path.join(os.environ.get("PREVIEW_QT_BUILD", ""), "tests", "snippet")
    check(os.access(snippet, os.X_OK), "docs/qt.md's C++ snippet was built (qt/tests/CMakeLists.txt)")
    if os.access(snippet, os.X_OK):
        env = dict(os.environ, XDG_RUNTIME_DIR=runtime, QT_QPA_PLATFORM="offscreen")
        result = subprocess.run([snippet], env=env, capture_output=True, text=True, timeout=60)
        check(result.returncode == 0 and "widgets ok" in result.stdout,
              f"the C++ snippet runs: {result.stdout.strip()} {result.stderr.strip()[-400:]}")
    finish()


def peek_qt(scenario, compositor, recordings, runtime):
    """The photo app end to end with screenshots (kept in PEEK_QT_SHOTS when set): a recorded pen
    press peeks, pops and opens a photo; a held Menu key peeks at the focused photo and opens it."""
    shots = os.environ.get("PEEK_QT_SHOTS") or os.path.join(runtime, "shots")
    shutil.rmtree(shots, ignore_errors=True)
    os.makedirs(shots)
    app = [os.path.join(ROOT, "examples", "peek-qt", "peek-qt"), "--log"]
    keyboard = scenario == "peek-qt-keyboard"
    recording = os.path.join(recordings, "handwritten-usb-keyboard-menu-hold.yml" if keyboard
                             else "dell-canvas-isdv4-pen.yml")
    output, errors, status, server_status, log = run(scenario, compositor, recording, runtime, app,
                                                     fast=not keyboard, extra=["--screenshot-dir", shots])
    print(output)
    print(errors[-2000:])
    text = output.splitlines()
    files = sorted(os.listdir(shots))
    print("screenshots:", files)
    check(server_status == 0, f"the compositor ended the replay (status {server_status})")
    check("available True" in text, "the adapter is available")
    check(not qt_messages(errors), f"nothing on stderr: {qt_messages(errors)}")
    starts = [line for line in text if line.startswith("should-begin")]
    check("preview 1.00 ended" in text and "commit 1.00 ended" in text, "the press peeks, then pops")

    def shot(moment, interaction):
        return shot_in(shots, files, moment, interaction)

    if keyboard:
        first = "Aurora Ridge"
        check(f"focus {first}" in text, f"the first photo has keyboard focus ({first})")
        check(len(starts) == 1 and starts[0].startswith(f"should-begin {first} keyboard ") and
              starts[0].endswith(" accept"), f"the held Menu key peeks at the focused photo: {starts}")
        check(f"open {first}" in text, "the pop opens the focused photo's page")
        rest, half, settled = shot("preview", 1), shot("commit-half", 1), shot("settled", 1)
        check(rest and half and settled, "pictures of the preview, half the commit and after")
        if rest and half and settled:
            # Under the grid's two rows only the peek card and its quick actions ever draw.
            card = difference(rest, half, (0.3, 0.59, 0.7, 0.93))
            print(f"card band: commit-half {card:.1f}")
            # How each picture was taken (on the app's commit, or the compositor's fallback).
            print("\n".join(line for line in log.splitlines() if "screenshot" in line and "interaction1" in line))
            check(card > 3, f"the commit's picture shows the peek card ({card:.1f})")
            check(difference(rest, settled) > 8, "the photo's page replaced the grid")
        return finish()
    check(len(starts) == 2 and all(" pen " in line and line.endswith(" accept") for line in starts),
          f"both pen presses land on a photo and are accepted: {starts}")
    check("cancelled lifted" in text, "the light tap is cancelled")
    opened = [line for line in text if line.startswith("open ")]
    check(len(opened) == 1 and opened[0] == "open " + starts[-1].split(" pen ")[0][len("should-begin "):],
          f"the pop opens the pressed photo's page: {opened}")
    rest, completed, settled = shot("preview", 1), shot("completed", 2), shot("settled", 2)
    check(rest and completed and settled, "pictures of the grid, the completion and after")
    if rest and settled:
        check(difference(rest, settled) > 8, "the photo's page replaced the grid")
    finish()


def hostile(scenario, app, compositor, runtime):
    """The scripted server as a hostile compositor (preview-protocol-test-server --hostile, beside
    preview-compositor): it prints what the app answered; the same scenarios the Swift and C
    libraries and the GTK adapter face (10,000 presses never ended, then a fresh one; a press the
    app cancelled in its commit phase, whose commit and completion the compositor still sends)."""
    server_binary = os.path.join(os.path.dirname(compositor), "preview-protocol-test-server")
    name = scenario.removeprefix("hostile-")
    # Its window globals take wl_shm buffers as a minimal compositor does: Qt Quick's software
    # renderer draws into them (Mesa's EGL on wl_shm expects more of a compositor than that).
    env = dict(app_environment(runtime), QT_QUICK_BACKEND="software")
    said, output, errors, status = run_hostile(server_binary, "qt-" + scenario, name, (960, 400), runtime,
                                               [app, scenario], env)
    check(status in (0, -signal.SIGTERM), f"the app ran until it was told to stop (status {status})")
    # The library says what the compositor broke at debug level; nothing may be a crash.
    check("Signal" not in errors and "Aborted" not in errors, f"no crash: {errors[-400:]}")
    if name == "cancelled-commit":
        check("cancelled 1" in said, "the app's cancel reached the compositor")
        check(lines_of(output, "cancelled") == [["cancelled", "button", "clientcancelled"]],
              f"one cancelled signal, the app's: {lines_of(output, 'cancelled')}")
        check(not any(c[3] == "ended" for c in lines_of(output, "commit")),
              f"nothing of the cancelled press's completion reached the app: {lines_of(output, 'commit')}")
        check(len(lines_of(output, "should-begin")) == 2, "both presses were offered to the app")
    finish()


# A huge configure or output scale, with the sample app's press to answer after it.
ABSURD = {"configure": ["--configure", "2147483647", "2147483647"], "scale": ["--output-scale", "2147483647"]}


def peek_qt_hostile(scenario, compositor, runtime):
    """peek-qt, the photo app, under the hostile compositor, with Qt Quick's OpenGL renderer
    (Mesa's software EGL), as a user runs it: after 10,000 pen presses it never ends, the fresh
    press on a photo is accepted; under a configure of 2147483647 × 2147483647 it neither crashes
    nor stops answering (Qt takes any size and its renderer then crashes in Mesa's EGL: the app
    bounds its window, docs/qt.md); under an output scale of 2147483647 it still answers a press
    (Qt draws nothing at that scale, so the adapter commits its state itself). At that scale Qt
    6.4's threaded render loop deadlocks its GUI thread (docs/qt.md): the basic loop shows what
    the adapter does once Qt's thread is free."""
    server_binary = os.path.join(os.path.dirname(compositor), "preview-protocol-test-server")
    name = scenario.removeprefix("peek-qt-hostile-")
    app = [os.path.join(ROOT, "examples", "peek-qt", "peek-qt"), "--log"]
    env = app_environment(runtime)
    if name == "scale":
        env["QSG_RENDER_LOOP"] = "basic"
    said, output, errors, status = run_hostile(server_binary, "peek-qt-" + name, "flood" if name == "flood" else "press",
                                               (110, 140), runtime, app, env, ABSURD.get(name, ()))
    check(status in (0, -signal.SIGTERM), f"peek-qt ran until it was told to stop (status {status}): {errors[-600:]}")
    finish()


def main():
    scenario, app, compositor, recordings = sys.argv[1:5]
    with runtime_directory("pi-qt-") as runtime:
        if scenario == "unavailable":
            return unavailable(app, runtime)
        if scenario == "offscreen":
            return offscreen(app, runtime)
        if scenario == "snippets":
            return snippets(app, runtime)
        if scenario.startswith("hostile-"):
            return hostile(scenario, app, compositor, runtime)
        if scenario.startswith("peek-qt-hostile-"):
            return peek_qt_hostile(scenario, compositor, runtime)
        if scenario.startswith("peek-qt"):
            return peek_qt(scenario, compositor, recordings, runtime)
        return adapter(scenario, app, compositor, recordings, runtime)


if __name__ == "__main__":
    main()
