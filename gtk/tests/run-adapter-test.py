#!/usr/bin/python3
"""Runs one adapter scenario against a real compositor and checks what the app saw.

usage: run-adapter-test.py SCENARIO COMPOSITOR RECORDINGS_DIR

preview-compositor (headless) replays a recorded pen into adapter-app.py, a real GTK 4 window
on the typelib. The Dell Canvas pen makes two strokes: a 47 ms light tap, then a firm press
that completes. Every wait is on an event (a line of the app, a process exit); the compositor's
--exit-when-done ends the replay once the app has handled the last input. Exit status 0 when
every check holds; the failed checks and the app's output otherwise.
"""
import os
import shlex
import shutil
import signal
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
APP = os.path.join(HERE, "adapter-app.py")
sys.path.insert(0, os.path.join(HERE, "..", "..", "Tests", "python"))
from adapter_harness import (changed_points, check, difference, finish, hostile, interactions_in,  # noqa: E402
                             lines_of, replay, runtime_directory, shot as shot_in, wait_until, weston)


def gtk_environment(runtime):
    env = dict(os.environ, XDG_RUNTIME_DIR=runtime, GSK_RENDERER="cairo", NO_AT_BRIDGE="1",
               GDK_BACKEND="wayland", GTK_A11Y="none")
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    return env


def run(scenario, compositor, recording, runtime, kill_at=None, extra=(), app_argv=None, fast=True, more=(),
        on_line=None, app_env=None):
    env = gtk_environment(runtime)
    return replay(compositor, "adapter-" + scenario, recording, runtime, app_argv or [sys.executable, APP, scenario],
                  dict(env, **(app_env or {})), server_env=env, kill_at=kill_at, fast=fast, extra=extra, more=more,
                  on_line=on_line)


def python_blocks(path, after):
    """The ```python blocks of a document that follow the line containing `after`."""
    text = open(path).read()
    text = text[text.index(after):]
    blocks, rest = [], text
    while "```python\n" in rest:
        rest = rest[rest.index("```python\n") + len("```python\n"):]
        blocks.append(rest[:rest.index("```")])
    return blocks


SNIPPET_STAGE = """
import gi
gi.require_version("Gtk", "4.0")
gi.require_version("Pi", "1")
from gi.repository import Gtk, Pi
Gtk.init()
photo = button = Gtk.Button()
dim_the_others = dim_the_rest = grow = open_photo = restore = lambda *args: None
is_item = lambda *args: True
"""

GJS_SNIPPET = """
imports.gi.versions.Gtk = '4.0';
const { Gtk, Pi } = imports.gi;
Gtk.init();
const button = new Gtk.Button();
const i = Pi.PreviewInteraction.new(button);
i.connect('preview', (i, p, ended) => {});
print(Pi.PreviewInteraction.get_for_widget(button) === i ? 'gjs ok' : 'gjs wrong');
"""


def run_snippets(env):
    """The documents' Python snippets and the GJS one, as written, on a display."""
    root = os.path.join(HERE, "..", "..")
    snippets = python_blocks(os.path.join(root, "README.md"), "GTK 4 apps attach it")[:1] + \
        python_blocks(os.path.join(root, "docs", "gtk.md"), "# GTK 4")[:1]
    check(len(snippets) == 2, "the README and docs/gtk.md have their Python snippet")
    for snippet in snippets:
        program = SNIPPET_STAGE + snippet.replace("from gi.repository import", "# from gi.repository import") + \
            "\nassert Pi.PreviewInteraction.get_for_widget(photo) is interaction\nprint('python ok')\n"
        result = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True, text=True, timeout=60)
        check(result.returncode == 0 and "python ok" in result.stdout,
              f"a Python snippet runs as written: {result.stderr.strip()[-400:]}")
    if shutil.which("gjs"):
        result = subprocess.run(["gjs", "-c", GJS_SNIPPET], env=env, capture_output=True, text=True, timeout=60)
        check("gjs ok" in result.stdout, f"GJS imports Pi and attaches an interaction: {result.stderr.strip()[-400:]}")


API_CHECK = """
import gi
gi.require_version("Gtk", "4.0")
gi.require_version("Pi", "1")
from gi.repository import Gtk, Pi
Gtk.init()
failed = []
def expect(condition, what):
    if not condition:
        failed.append(what)
expect(Pi.Source.KEYBOARD == 5 and Pi.Sources.KEYBOARD == 16 and Pi.Sources.ALL == 31, "keyboard source and bit")
expect(Pi.CancelReason.DISMISSED == 10 and Pi.Phase.ACCELERATING == 6 and Pi.Phase.DECLINED == 7,
       "dismissed, accelerating, declined")
expect([Pi.Behaviour.DEEP_CLICK, Pi.Behaviour.GENERIC, Pi.Behaviour.ACCELERATOR] == [1, 2, 3], "behaviours")
expect([Pi.HapticEffect.TICK, Pi.HapticEffect.SNAP, Pi.HapticEffect.CONFIRM] == [1, 2, 3], "haptic effects")
expect(Pi.Sensitivity.FIRM == 3 and Pi.Haptics.STRONG == 3 and Pi.Completion.RELEASE == 2, "settings' enums")
button = Gtk.Button()
i = Pi.PreviewInteraction.new(button)
expect(i.props.behaviour == Pi.Behaviour.DEEP_CLICK and i.props.stages == 3 and i.props.stage == 0,
       "defaults: deep click, 3 stages, no stage")
expect(i.props.allowed_sources == Pi.Sources.ALL, "the keyboard is allowed by default")
expect(not i.props.haptics_available and not i.play_haptic(Pi.HapticEffect.TICK), "no press: no haptic effect")
notes = []
i.connect("notify", lambda obj, pspec: notes.append(pspec.name))
i.props.behaviour = Pi.Behaviour.ACCELERATOR
i.props.behaviour = Pi.Behaviour.ACCELERATOR
i.set_stages(5)
expect(notes == ["behaviour", "stages"], f"one notify per change: {notes}")
expect(i.get_focus_point() == (False, 0.0, 0.0), "no focus point")
i.set_focus_point(12.5, 7)
expect(i.get_focus_point() == (True, 12.5, 7.0), "the app's focus point")
i.unset_focus_point()
expect(not i.get_focus_point()[0], "focus point unset")
settings = Pi.Settings.get_default()
expect(settings is Pi.Settings.get_for_display(button.get_display()), "one settings object per display")
expect(not settings.props.available and settings.props.sensitivity == Pi.Sensitivity.UNKNOWN
       and settings.props.completion == Pi.Completion.FORCE and settings.props.long_press_duration == 0,
       "no settings from a compositor without the global: defaults")
print("api ok" if not failed else "api failed: " + "; ".join(failed))
"""


def run_without_global(runtime, snippets=False, api=False):
    """weston (headless) has no preview interaction global: the app must work as before."""
    with weston(runtime, gtk_environment(runtime)) as env:
        if snippets:
            return run_snippets(env)
        if api:
            result = subprocess.run([sys.executable, "-c", API_CHECK], env=env, capture_output=True, text=True,
                                    timeout=60)
            print(result.stdout, result.stderr)
            check("api ok" in result.stdout, f"version 2's enums, properties and settings through GI: "
                  f"{result.stdout.strip()} {result.stderr.strip()[-400:]}")
            check(not adapter_messages(result.stderr), f"nothing on stderr: {adapter_messages(result.stderr)}")
            return
        app = subprocess.run([sys.executable, APP, "unavailable"], env=env, capture_output=True, text=True, timeout=60)
        return app.stdout, app.stderr, app.returncode


def peek_gtk(compositor, recording, runtime, escape=False):
    """The photo app end to end: a recorded pen press peeks, pops and opens a photo (with
    screenshots); with `escape`, a recorded keyboard's Escape then returns to the grid."""
    shots = os.environ.get("PEEK_GTK_SHOTS") or os.path.join(runtime, "shots")
    shutil.rmtree(shots, ignore_errors=True)
    os.makedirs(shots)
    app = os.path.join(HERE, "..", "..", "examples", "peek-gtk", "peek-gtk")
    keyboard = [os.path.join(os.path.dirname(recording), "handwritten-usb-keyboard-escape.yml")] if escape else []
    output, errors, status, server_status, log = run(
        "peek-gtk", compositor, recording, runtime, extra=[] if escape else ["-v", "--screenshot-dir", shots],
        app_argv=[app, "--log"], more=keyboard)
    print(output)
    if "available False" in output.splitlines():
        print("SKIP: the client library offers no preview interactions here (a stub?)")
        sys.exit(77)
    if "should-begin" not in output:
        print(log[-3000:], errors)
    check(server_status == 0, f"the compositor ended the replay (status {server_status})")
    text = output.splitlines()
    starts = [line for line in text if line.startswith("should-begin")]
    check(len(starts) == 2 and all(line.endswith(" pen " + line.split(" pen ")[1].split()[0] + " accept")
                                   for line in starts), f"both pen presses land on a photo and are accepted: {starts}")
    check("cancelled lifted" in text, "the light tap is cancelled")
    check("preview 1.00 ended" in text and "commit 1.00 ended" in text, "the firm press peeks, then pops")
    check(any(line.startswith("open ") for line in text), "the pop opens the photo's page")
    check(not adapter_messages(errors), f"nothing on stderr: {adapter_messages(errors)}")
    if escape:
        opened = next((i for i, line in enumerate(text) if line.startswith("open ")), len(text))
        check("back" in text[opened:], "Escape returns from the photo's page to the grid")
        return finish()
    files = sorted(os.listdir(shots))
    print("screenshots:", files)

    def shot(moment, interaction=2):
        return shot_in(shots, files, moment, interaction)

    # The grid before the firm press, then its moments. GTK commits on its own; the adapter
    # holds the library's acknowledgements and gives them right before each picture GTK
    # commits, so a moment's picture is the first one that shows it. The pictures stay in
    # PEEK_GTK_SHOTS to be looked at.
    rest = shot("preview", 1)
    moments = [shot(m) for m in ("preview", "commit", "commit-half", "completed", "settled")]
    check(rest is not None and all(moments), "screenshots of the preview, the commit, the completion and after")
    if rest is not None and all(moments):
        preview, commit, half, completed, settled = moments
        # Under the grid's two rows (1280×800 headless output) only the peek card and its
        # quick actions ever draw: nothing there before the commit, the card fading in at
        # the commit (30 %), more of it half way through. The compositor sends phase changes
        # without waiting for acks, so an app that is late to paint (a loaded machine) draws
        # the preview and the commit in one frame: its preview picture then is the commit's,
        # never one with more of the card. Progress does not wait for acks either (the
        # protocol's acknowledgement window), so the commit's picture may already show part of
        # the way to half, or be the half way's frame: the half way's never shows less of it.
        band = (0.3, 0.59, 0.7, 0.93)
        card, card_half = difference(rest, commit, band), difference(rest, half, band)
        print(f"card band: preview {difference(rest, preview, band):.1f}, commit {card:.1f}, "
              f"commit-half {card_half:.1f}")
        early = difference(rest, preview, band)
        check(early < 1 or abs(early - card) < 0.5,
              f"the preview picture has no card yet, or is the commit's frame ({early:.1f} vs {card:.1f})")
        check(card > 3, f"the commit picture shows the peek card ({card:.1f})")
        check(card_half > card - 0.5,
              f"the half-way picture shows no less of the card than the commit's ({card_half:.1f} vs {card:.1f})")
        check(difference(rest, settled) > 8, "the photo's page replaced the grid")
    finish()


def peek_gtk_v2(scenario, compositor, dell, runtime):
    """The photo app's uses of protocol version 2, end to end with screenshots (kept in
    PEEK_GTK_SHOTS when set):
    keyboard: the Menu key held on the focused photo (the first) peeks, pops and opens it;
    loupe: on a photo's page the pen's firm press drives the loupe's four levels (an
      accelerator), pictured at the top level;
    markup: with Markup on, the same presses draw strokes with the pen's pressure and neither
      is an interaction (generic)."""
    sys.path.insert(0, os.path.join(HERE, "..", "..", "examples", "peek-gtk"))
    import artwork
    first = artwork.samples(1)[0]["title"]
    shots = os.environ.get("PEEK_GTK_SHOTS") or os.path.join(runtime, "shots")
    shutil.rmtree(shots, ignore_errors=True)
    os.makedirs(shots)
    app = [os.path.join(HERE, "..", "..", "examples", "peek-gtk", "peek-gtk"), "--log"]
    trace = os.path.join(runtime, "trace.jsonl")
    extra = ["-v", "--screenshot-dir", shots, "--trace", trace]
    # On-demand pictures (SIGUSR1) once the app has painted what a line of its log announced.
    wanted = {"loupe": ("open ", "stage 4 "), "markup": ("markup on", "stroke ")}.get(scenario.split("-")[-1], ())
    waiting = []

    def on_line(line, server):
        if any(line.startswith(w) for w in wanted):
            waiting.append(line)
        elif line.startswith("painted") and waiting:
            waiting.clear()
            server.send_signal(signal.SIGUSR1)

    if scenario == "peek-gtk-keyboard":
        recording = os.path.join(os.path.dirname(dell), "handwritten-usb-keyboard-menu-hold.yml")
        output, errors, status, server_status, log = run("peek-gtk", compositor, recording, runtime, extra=extra,
                                                         app_argv=app, fast=False)
    else:
        app += ["--open", "1"] + (["--markup"] if scenario == "peek-gtk-markup" else [])
        output, errors, status, server_status, log = run("peek-gtk", compositor, dell, runtime, extra=extra,
                                                         app_argv=app, on_line=on_line,
                                                         app_env=dict(BEHAVIOUR_DEBUG, PEEK_GTK_PAINTS="1"))
    text = [line for line in output.splitlines() if line != "painted" and "-DEBUG: " not in line]
    print("\n".join(text))
    if "available False" in text:
        print("SKIP: the client library offers no preview interactions here (a stub?)")
        sys.exit(77)
    check(server_status == 0, f"the compositor ended the replay (status {server_status})")
    check(not adapter_messages(errors), f"nothing on stderr: {adapter_messages(errors)}")
    files = sorted(os.listdir(shots))
    print("screenshots:", files)
    interactions = interactions_in(trace)

    if scenario == "peek-gtk-keyboard":
        check(f"focus {first}" in text, f"the first photo has keyboard focus ({first})")
        starts = [line for line in text if line.startswith("should-begin")]
        check(len(starts) == 1 and starts[0].startswith(f"should-begin {first} keyboard ")
              and starts[0].endswith(" accept"), f"the held Menu key peeks at the focused photo: {starts}")
        check("preview 1.00 ended" in text and "commit 1.00 ended" in text, "held on, it peeks, then pops")
        check(f"open {first}" in text, "the pop opens the focused photo's page")
        commit, rest = shot_in(shots, files, "commit-half", 1), shot_in(shots, files, "preview", 1)
        check(commit is not None and rest is not None, "pictures of the keyboard's preview and commit")
        if commit and rest:
            card = difference(rest, commit, (0.3, 0.59, 0.7, 0.93))
            check(card > 3, f"the commit's picture shows the peek card ({card:.1f})")

    if scenario == "peek-gtk-loupe":
        if behaviours_ignored(output):
            print("SKIP: this compositor runs the pen's presses as deep clicks, not as the loupe's accelerator")
            sys.exit(77)
        starts = [line for line in text if line.startswith("loupe should-begin pen")]
        check(len(starts) == 2, f"both pen presses on the photo are offered to the loupe: {starts}")
        levels = [int(line.split()[1]) for line in text if line.startswith("stage ")]
        check(levels and max(levels) == 4 and all(1 <= level <= 4 for level in levels),
              f"the firm press drives the loupe through its levels to the fourth: {levels}")
        check(text.count("loupe completed") == 2, "each press completes when the pen lifts")
        check(not any(line.startswith(("preview", "commit", "open ")) for line in text[text.index(starts[0]):]
                          if starts), "an accelerator never peeks or pops")
        pictures = [os.path.join(shots, f) for f in files if f.endswith("-on-demand.png")]
        check(len(pictures) == 2, f"pictures of the page, then of the loupe once it reached its top level: {pictures}")
        if len(pictures) == 2 and starts:
            # Around the press (the photo's coordinates, about 24 px right and 71 px down on the
            # 1280×800 output): the loupe magnifies the photo there.
            x, y = (float(v) for v in starts[-1].split()[-1].split(","))
            box = (max(0, (x - 126) / 1280), max(0, (y - 79) / 800), min(1, (x + 174) / 1280), min(1, (y + 221) / 800))
            change = difference(*pictures, box)
            check(change > 5, f"the loupe shows in the second picture ({change:.1f} around the press)")

    if scenario == "peek-gtk-markup":
        check("markup on" in text, "Markup is on")
        check(not any(line.startswith(("should-begin", "loupe should-begin", "stage ")) for line in text),
              "no press on the markup layer is offered to the app")
        if behaviours_ignored(output):
            print("NOTE: this compositor runs the pen's presses as deep clicks on the markup layer; the adapter "
                  "declined them")
        else:
            check(not interactions, f"nor is either one an interaction in the compositor ({interactions})")
        strokes = [line.split() for line in text if line.startswith("stroke ")]
        # The tip goes down and up as the pressure crosses libinput's thresholds: a stroke each.
        check(len(strokes) >= 2 and float(strokes[-1][2]) > 0.3 and float(strokes[0][2]) < 0.3,
              f"the presses draw, the firm one with the pen's pressure: {strokes}")
        pictures = [os.path.join(shots, f) for f in files if f.endswith("-on-demand.png")]
        check(len(pictures) >= 2, f"pictures before and after drawing: {pictures}")
        if len(pictures) >= 2:
            change = changed_points(pictures[0], pictures[-1])
            check(change >= 10, f"the strokes show in the last picture ({change} points of the grid changed)")
    finish()


def peek_gtk_wlroots(compositor, recording, runtime):
    """The photo app end to end in examples/wlroots-compositor (wlroots' input path into the
    compositor-side C library): the same presses peek, pop and open the photo. That compositor
    takes no screenshots: the app's log is the evidence."""
    tools = os.path.dirname(compositor)
    wlroots = os.path.join(tools, "wlroots-compositor", "preview-wlroots-compositor")
    if not os.path.exists(wlroots):
        print(f"SKIP: {wlroots} is not built (make -C examples/wlroots-compositor)")
        sys.exit(77)
    app = os.path.join(HERE, "..", "..", "examples", "peek-gtk", "peek-gtk")
    env = gtk_environment(runtime)
    output = os.path.join(runtime, "app.log")
    # --run: the compositor starts the app on its socket and exits once the replay settled.
    server = subprocess.run(
        [wlroots, "--socket", "adapter-wlroots", "--replay", recording, "--exit-when-done",
         "--decoder", os.path.join(tools, "preview-replay"), "--should-begin-timeout", "10000",
         "--run", f"{shlex.quote(app)} --log >{shlex.quote(output)} 2>&1"],
        env=env, capture_output=True, text=True, timeout=150)
    text = open(output).read().splitlines() if os.path.exists(output) else []
    print("\n".join(text))
    check(server.returncode == 0, f"the wlroots compositor ended the replay (status {server.returncode})\n"
          f"{server.stdout[-2000:]}{server.stderr[-2000:]}")
    starts = [line for line in text if line.startswith("should-begin")]
    check(len(starts) == 2 and all(line.endswith(" accept") and " pen " in line for line in starts),
          f"both pen presses land on a photo and are accepted: {starts}")
    check("cancelled lifted" in text, "the light tap is cancelled")
    check("preview 1.00 ended" in text and "commit 1.00 ended" in text, "the firm press peeks, then pops")
    check(any(line.startswith("open ") for line in text), "the pop opens the photo's page")
    check(not adapter_messages("\n".join(line for line in text if not line.startswith(
        ("should-begin", "preview", "commit", "open", "cancelled", "available", "back", "action", "painted",
         "focus", "haptic", "window-geometry")))),
          "nothing else in the app's output")
    finish()


def run_settings(compositor, runtime):
    """The user's settings reach the app (Pi.Settings) at start and after a change (SIGHUP)."""
    settings = os.path.join(runtime, "settings")
    with open(settings, "w") as file:
        file.write("sensitivity = firm\nlong-press = slow\ncompletion = on-release\n")
    env = dict(gtk_environment(runtime), WAYLAND_DISPLAY="adapter-settings")
    log = open(os.path.join(runtime, "compositor.log"), "w+")
    server = subprocess.Popen([compositor, "--backend", "headless", "--socket", "adapter-settings",
                               "--settings", settings], env=env, stdout=log, stderr=subprocess.STDOUT)
    app = None
    try:
        wait_until(lambda: "listening on" in open(log.name).read(), server,
                   lambda: f"the compositor did not start:\n{open(log.name).read()}")
        app = subprocess.Popen([sys.executable, APP, "settings"], env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
        lines = []
        for line in app.stdout:
            print(line, end="")
            if not line.startswith("settings "):
                continue
            lines.append(line.split())
            if len(lines) == 1:
                with open(settings, "w") as file:
                    file.write("sensitivity = light\n")  # the rest goes back to the options' defaults
                server.send_signal(signal.SIGHUP)
            else:
                break
    finally:
        server.kill()
        server.wait()
        if app is not None:
            app.kill()
            app.communicate()
    check(len(lines) == 2, f"the settings arrived, then their change: {lines}")
    if len(lines) == 2:
        first, second = lines
        check(first[1] == "firm" and first[7] == "release", f"the file's sensitivity and completion: {first}")
        check(0 < float(first[2]) < float(first[3]) < float(first[4]) <= 1, f"thresholds in order: {first}")
        check(second[1] == "light" and second[7] == "force", f"the change after SIGHUP: {second}")
        check(float(second[2]) < float(first[2]), f"a light preset begins earlier: {second[2]} < {first[2]}")
        check(int(second[5]) < int(first[5]), f"the default long press is shorter than slow: {second[5]} < {first[5]}")
    finish()


# The adapter's debug messages (G_MESSAGES_DEBUG, on stdout) say when it declined a press whose
# behaviour is not its widget's: the compositor ran it as a deep click, so it does not apply the
# behaviours the window declared to that device's presses.
BEHAVIOUR_DEBUG = {"G_MESSAGES_DEBUG": "PreviewInteraction"}


def behaviours_ignored(output):
    return "a deep-click press on a widget whose behaviour is" in output


def adapter_messages(errors):
    """What the adapter or GTK said on stderr, minus the session-bus line of a bare test box and
    GTK's notices that the compositor went away (it exits when its replay is done)."""
    return [line for line in errors.splitlines()
            if line.strip() and "session bus" not in line and "Error reading events from display" not in line
            and "Lost connection" not in line and "Error flushing display" not in line
            and "dispatching to Wayland display" not in line]


def run_hostile(scenario, compositor, runtime):
    """The scripted server as a hostile compositor (preview-protocol-test-server --hostile, beside
    preview-compositor): it prints what the app answered; the same scenarios the Swift and C
    libraries face (HostileCompositorLibraryTests, Tests/capi-client/items.c)."""
    server_binary = os.path.join(os.path.dirname(compositor), "preview-protocol-test-server")
    name = scenario.removeprefix("hostile-")
    said, output, errors, _ = hostile(server_binary, "adapter-" + scenario, name, (640, 400), runtime,
                                      [sys.executable, APP, scenario], gtk_environment(runtime))
    # The library says what the compositor broke (messages); nothing may be a warning or worse.
    loud = [line for line in errors.splitlines() if "-WARNING" in line or "-CRITICAL" in line or "Traceback" in line]
    check(not loud, f"no warning on stderr: {loud[:3]}")
    if name == "cancelled-commit":
        check("cancelled 1" in said, "the app's cancel reached the compositor")
        check(lines_of(output, "cancelled") == [["cancelled", "button", "client-cancelled"]],
              f"one cancelled signal, the app's: {lines_of(output, 'cancelled')}")
        check(len(lines_of(output, "commit")) == 1 and not any("ended" in line for line in lines_of(output, "commit")),
              f"nothing of the cancelled press's commit reached the app after its cancel: {lines_of(output, 'commit')}")
        check(len(lines_of(output, "should-begin")) == 2, "both presses were offered to the app")
    finish()


# A huge configure or output scale, with the sample app's press to answer after it.
ABSURD = {"configure": ["--configure", "2147483647", "2147483647"], "scale": ["--output-scale", "2147483647"]}


def peek_gtk_hostile(scenario, compositor, runtime):
    """peek-gtk, the photo app, under the hostile compositor: after 10,000 pen presses it never
    ends, the fresh press on a photo is accepted (a one-press-at-a-time app was held busy for good
    by the first press it took, before a new pen press ended the stale one); under a huge
    configure or output scale it answers a press."""
    server_binary = os.path.join(os.path.dirname(compositor), "preview-protocol-test-server")
    name = scenario.removeprefix("peek-gtk-hostile-")
    app = os.path.join(HERE, "..", "..", "examples", "peek-gtk", "peek-gtk")
    said, output, errors, status = hostile(server_binary, "peek-gtk-" + name, "flood" if name == "flood" else "press",
                                           (110, 140), runtime, [app, "--log"], gtk_environment(runtime),
                                           ABSURD.get(name, ()))
    if name == "scale" and status is not None and status < 0 and "Unable to create Cairo image surface" in errors:
        # GTK's own crash (4.8.3, Debian 12): GDK cannot make a cairo surface of that scale and
        # its cairo renderer then dereferences none (SIGSEGV in gsk_renderer_render), before the
        # adapter or the app draws anything (docs/gtk.md). Nothing of ours is in it.
        print(f"SKIP: GTK {gtk_version()}'s own crash under a wl_output scale of 2147483647 (docs/gtk.md)")
        sys.exit(77)
    check(status in (0, -signal.SIGTERM, None), f"peek-gtk ran until it was told to stop (status {status})")
    finish()


def gtk_version():
    import gi
    gi.require_version("Gtk", "4.0")
    from gi.repository import Gtk
    return f"{Gtk.get_major_version()}.{Gtk.get_minor_version()}.{Gtk.get_micro_version()}"


def main():
    scenario, compositor, recordings = sys.argv[1], sys.argv[2], sys.argv[3]
    with runtime_directory("pi-gtk-") as runtime:
        scenario_in(scenario, compositor, recordings, runtime)
    finish()


def scenario_in(scenario, compositor, recordings, runtime):
    if scenario.startswith("hostile-"):
        return run_hostile(scenario, compositor, runtime)
    if scenario.startswith("peek-gtk-hostile-"):
        return peek_gtk_hostile(scenario, compositor, runtime)
    dell = os.path.join(recordings, "dell-canvas-isdv4-pen.yml")
    if scenario == "peek-gtk-wlroots":
        return peek_gtk_wlroots(compositor, dell, runtime)
    if scenario in ("peek-gtk", "peek-gtk-escape"):
        return peek_gtk(compositor, dell, runtime, escape=scenario == "peek-gtk-escape")
    if scenario == "snippets":
        run_without_global(runtime, snippets=True)
        return finish()
    if scenario == "api":
        run_without_global(runtime, api=True)
        return finish()
    if scenario == "settings":
        return run_settings(compositor, runtime)
    if scenario in ("peek-gtk-keyboard", "peek-gtk-loupe", "peek-gtk-markup"):
        return peek_gtk_v2(scenario, compositor, dell, runtime)
    if scenario == "unavailable":
        output, errors, status = run_without_global(runtime)
        print(output, errors)
        check(status == 0, f"the app ran and quit (status {status})")
        check(lines_of(output, "available") == [["available", "False"]], "the adapter says unavailable")
        check(not adapter_messages(errors), f"no warning: {adapter_messages(errors)}")
        return finish()
    kill_at = "preview button" if scenario == "closing" else None
    app_scenario = "button" if scenario == "closing" else scenario
    trace = os.path.join(runtime, "trace.jsonl")
    # A change of region applies on the window's next commit: these keep the recording's
    # own pause between the strokes (--fast would skip it), as a user's next press would; where
    # the tap's end changes the item, the pause lasts until the app has committed that (a
    # loaded machine can keep GTK from drawing within the recorded pause).
    region_change = scenario in ("insensitive", "hidden", "disabled", "scrolled", "clipped")
    # The keyboard's recording holds the Menu key in real time, as a user would.
    keyboard = scenario in ("keyboard", "keyboard-point")
    recording = os.path.join(recordings, "handwritten-usb-keyboard-menu-hold.yml") if keyboard else dell
    output, errors, status, server_status, log = run(app_scenario, compositor, recording, runtime, kill_at,
                                                     extra=["--trace", trace] + (["--await-clients"] if region_change and scenario != "clipped" else []),
                                                     fast=not region_change and not keyboard,
                                                     app_env=BEHAVIOUR_DEBUG)
    print(output)
    starts = lines_of(output, "should-begin")
    if ["available", "False"] in lines_of(output, "available") and scenario != "peek-gtk":
        # The client library answers "unavailable" on a compositor that has the global
        # only while it is a stub: nothing here can be tested then.
        print("SKIP: the client library offers no preview interactions here (a stub?)")
        sys.exit(77)
    if scenario != "closing":
        check(server_status == 0, f"the compositor ended the replay (status {server_status})")
    check(["available", "True"] in lines_of(output, "available") or scenario == "closing",
          "the adapter is available on a compositor with the global")
    check(not adapter_messages(errors), f"nothing on stderr: {adapter_messages(errors)}")

    if scenario in ("button", "late"):
        check(len(starts) == 2 and all(s[1:4] == ["button", "pen", "measured"] for s in starts),
              "two pen presses with measured force reach the button")
        cancelled = lines_of(output, "cancelled")
        check(cancelled == [["cancelled", "button", "lifted"]], "the light tap is cancelled (lifted)")
        completed = [c for c in lines_of(output, "commit") if c[3] == "ended"]
        check(len(completed) == 1, "the firm press completes, once")
        clicks = lines_of(output, "clicked")
        check(len(clicks) == 1, f"exactly one click: the tap's ({len(clicks)})")
        text = output.splitlines()
        tap_end = text.index("cancelled button lifted")
        second = next(i for i, line in enumerate(text) if line.startswith("should-begin") and i > tap_end)
        check(any(line == "clicked button" for line in text[tap_end:second]), "the tap clicks after its cancel")
        after = text[second:]
        check(not any(line.startswith("clicked") or line == "drag button end" for line in after),
              "the firm press neither clicks nor ends a drag")
        preview_ended = next(i for i, line in enumerate(after) if line.startswith("preview button 1.000 ended"))
        check(any(line == "button-gesture button cancel" for line in after[preview_ended - 1:preview_ended + 2]),
              "GtkButton's click gesture sees the press cancelled when the commit phase begins")
        if scenario == "late":
            check(len(lines_of(output, "answered")) == 2, "both answers were given late, from a timeout")

    if scenario == "two":
        names = {s[1] for s in starts}
        check(len(starts) == 2 and len(names) == 1, f"both presses go to the widget under the pen: {names}")
        for s in starts:
            x, y, w, h = float(s[4]), float(s[5]), float(s[6]), float(s[7])
            check(0 <= x <= w and 0 <= y <= h, f"the location {x},{y} is inside the {s[1]} widget ({w}x{h})")
        other = "left" if "right" in names else "right"
        check(not any(line.split()[1:2] == [other] for line in output.splitlines()
                      if line.split()[0] in ("preview", "commit", "cancelled", "should-begin")),
              "the other widget sees nothing")

    if scenario == "resize":
        check(len(starts) >= 1, "the press reached the widget")
        previews = [p for p in lines_of(output, "preview") if p[1] == "button"]
        xs = [float(p[4]) for p in previews if p[4] != "-"]
        check(len(xs) >= 2 and xs[0] - min(xs[1:]) > 150,
              f"the location follows the widget's new place ({xs[:1]} then {xs[1:3]})")
        check(lines_of(output, "cancelled") == [["cancelled", "button", "lifted"]]
              or any(c[3] == "ended" for c in lines_of(output, "commit")),
              "the press goes on to its end on the same widget")

    if scenario == "destroy":
        check(lines_of(output, "destroyed") == [["destroyed", "button"]], "the widget was destroyed mid-press")
        check(lines_of(output, "cancelled")[:1] == [["cancelled", "button", "client-cancelled"]],
              "its press is cancelled at once")
        check(["after-destroy", "gone"] in lines_of(output, "after-destroy"), "the interaction left the window")
        check(len(starts) == 1, "no press begins where no widget has an interaction")
        # It ends when the compositor does: by GDK's lost connection (1) or our SIGTERM.
        check(status in (0, 1, -signal.SIGTERM), f"the app ran on, never crashed (status {status})")

    # The compositor's trace: an interaction is a press inside the window's region.
    interactions = interactions_in(trace)

    if scenario == "scrolled":
        check(output.splitlines().count("scrolled") == 1, "the tap scrolled the button under the pen")
        check(len(starts) == 1 and starts[0][1] == "button", "only the firm press reaches the button")
        check(len(interactions) == 1,
              f"the scrolled-away button was outside the region: the tap was no interaction ({interactions})")
        check(any(c[3] == "ended" for c in lines_of(output, "commit")), "the firm press completes on the button")

    if scenario == "clipped":
        presses = lines_of(output, "pressed-at")
        hidden = [p for p in presses if float(p[3]) <= float(p[1]) <= float(p[3]) + float(p[4])
                  and float(p[1]) < float(p[6])]
        check(len(presses) == 2 and hidden == presses,
              f"both presses fall on the button's scrolled-away part, above its viewport: {presses}")
        check(not starts, "no press reaches the button where its scrolled window hides it")
        check(not interactions, f"the hidden part is outside the window's region: no interaction ({interactions})")

    if scenario in ("insensitive", "hidden", "disabled"):
        check(lines_of(output, "changed") == [["changed", "button", scenario]], f"the button became {scenario}")
        check(len(starts) == 1, "only the tap was offered to the app")
        check(len(interactions) == 1,
              f"the window's region no longer has the button: the firm press is no interaction ({interactions})")

    if scenario == "keyboard":
        check(lines_of(output, "focused") == [["focused", "right"]], "the right button has keyboard focus")
        check(len(starts) == 1 and starts[0][1:4] == ["right", "keyboard", "simulated"],
              f"the held Menu key is a keyboard press with simulated force on the focused button: {starts}")
        if len(starts) == 1:
            x, y, w, h = (float(v) for v in starts[0][4:8])
            check(abs(x - w / 2) <= 1 and abs(y - h / 2) <= 1, f"it begins at the button's centre ({x},{y})")
        check(any(p[3] == "ended" for p in lines_of(output, "preview"))
              and any(c[3] == "ended" for c in lines_of(output, "commit")),
              "held on, it peeks and completes")
        check(not any(line.split()[1:2] == ["left"] for line in output.splitlines()
                      if line.split()[0] in ("preview", "commit", "cancelled", "should-begin")),
              "the unfocused button sees nothing")
        check(not lines_of(output, "clicked"), "the key press never reaches the button as an activation")
        check(lines_of(output, "haptic") == [["haptic", "asking", "False", "False"],
                                             ["haptic", "preview", "True", "False"],
                                             ["haptic", "completed", "False", "False"]],
              f"play_haptic is sent only while the press runs; the keyboard has no haptics: "
              f"{lines_of(output, 'haptic')}")

    if scenario == "keyboard-point":
        check(len(starts) == 1 and starts[0][1:6] == ["right", "keyboard", "simulated", "10.0", "20.0"],
              f"the Menu key begins on the focused button, at the app's point: {starts}")
        text = output.splitlines()
        began = next((i for i, line in enumerate(text) if line.startswith("should-begin")), len(text))
        points = [[float(v) for v in line.split("focus point ")[1].split(",")] for line in text[began:]
                  if "-DEBUG: " in line and "focus point " in line]
        # The left button's centre in the window's surface (two buttons side by side, 1280 wide).
        check("focused left" in text and len(points) == 1 and points[0][0] < 640 and points[0][1] > 200,
              f"when the focus moves to the left button, the window's focus point follows: {points}")

    if scenario == "generic":
        check(not starts, f"no press on a generic widget is offered to the app: {starts}")
        if behaviours_ignored(output):
            print("NOTE: this compositor runs the pen's presses as deep clicks wherever the window says "
                  "generic; the adapter declined them")
        else:
            check(not interactions, f"nor is it an interaction in the compositor ({interactions})")
        check(len(lines_of(output, "clicked")) == 2, "both presses reach GTK unchanged: two clicks")

    if scenario == "nested":
        check(len(starts) == 2 and all(s[1:4] == ["button", "pen", "measured"] for s in starts),
              f"inside the generic canvas, both presses on the button are offered to it: {starts}")
        check(any(c[3] == "ended" for c in lines_of(output, "commit")), "the firm press peeks and pops the button")

    if scenario == "accelerator":
        if behaviours_ignored(output):
            print("SKIP: this compositor runs the pen's presses as deep clicks, not as the window's accelerator")
            sys.exit(77)
        stages = [int(line[2]) for line in lines_of(output, "stage")]
        check(len(starts) == 2, f"both presses are offered: {starts}")
        check(not lines_of(output, "preview") and not lines_of(output, "commit"),
              "an accelerator has no preview or commit phase")
        check(all(0 <= stage <= 4 for stage in stages) and 4 in stages, f"levels 1…4, the firm press reaches 4: "
              f"{stages}")
        top = stages.index(4) if 4 in stages else 0
        check(any(0 < later < 4 for later in stages[top:]), f"the level falls again as the pen eases off: {stages}")
        check(lines_of(output, "stage")[-1][2:] == ["0", "completed"], "lifting completes the last press")
        check(not lines_of(output, "cancelled"), "nothing is cancelled")

    if scenario == "closing":
        check(len(lines_of(output, "preview")) >= 1, "the press was in its preview when the compositor went")
        check(status is not None and status >= 0, f"the app exited, not crashed (status {status})")


if __name__ == "__main__":
    main()
