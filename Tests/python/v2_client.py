#!/usr/bin/python3
"""A version 2 preview-interaction client (pywayland), for the compositor's end-to-end tests.

Maps a toplevel at the size the compositor configures (so a pen or touchpad contact lands on it,
and it gets keyboard focus), binds the manager at version 2, lets every source begin
interactions on its surface with its focused item at (20, 30), accepts every should_begin,
acknowledges every frame at once, and prints each event as a line:

  manager version N
  settings sensitivity P | settings thresholds B C K | settings long_press_duration MS
  settings haptics H | settings completion M | settings_done
  should_begin ID SOURCE FORCE | location ID X Y | preview ID P | preview_ended ID | commit ID P
  completed ID | cancelled ID REASON | behaviour ID B STAGES | stage ID S | haptics ID STATE
  key CODE STATE                      (--keyboard)
  play_haptic ID EFFECT at US         (--haptic, --haptic-after-end: a request, CLOCK_MONOTONIC just before it was sent)
  v2_client: OUTCOME                  (last line: the last interaction's end, or disconnected)

Options:
  --behaviour KIND[:STAGES]  set_behaviour on the whole surface (generic, accelerator:3, ...)
  --keyboard                 bind wl_keyboard and print its keys
  --haptic EFFECT            once per interaction, play_haptic (tick, snap, confirm) 80 ms (the
                             client's clock) after preview_ended arrived, if it still runs: past
                             the compositor's own click at the commit (effects are 50 ms apart)
  --haptic-after-end EFFECT  play_haptic 150 ms after the interaction completed or was cancelled
                             (past the compositor's own click at the end)
  --interactions N           leave after N interactions ended (default 1)
  --settings-groups N        leave after N settings groups (settings_done) instead
  --until-disconnected       run until the compositor ends the connection instead
  --keys N                   leave after N wl_keyboard key events instead (with --keyboard)
  --leave-on EVENT           exit at once (no answer, no goodbye) when EVENT first arrives: a
                             client leaving mid-press (should_begin: while the press waits for it)
  --second-window-on EVENT   map a second toplevel when EVENT first arrives (it takes the
                             keyboard focus in a compositor that focuses new windows)
  --empty-region-after-end S  a slow app: S seconds after the first interaction ended, empty the
                             interaction's region and commit (prints "region emptied")

The compositor's WAYLAND_DISPLAY is the one in the environment.
"""
import argparse
import mmap
import os
import select
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
XML = os.path.join(ROOT, "protocol", "preview-interaction-v1.xml")
CORE_XML = "/usr/share/wayland/wayland.xml"
XDG_XML = "/usr/share/wayland-protocols/stable/xdg-shell/xdg-shell.xml"
BEHAVIOURS = {"deep_click": 1, "generic": 2, "accelerator": 3}
EFFECTS = {"tick": 1, "snap": 2, "confirm": 3}


def generate_bindings(directory):
    package = os.path.join(directory, "spi_protocols")
    subprocess.run(
        [sys.executable, "-m", "pywayland.scanner", "-i", CORE_XML, XDG_XML, XML, "-o", package],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    open(os.path.join(package, "__init__.py"), "w").close()
    sys.path.insert(0, directory)


def say(*words):
    print(" ".join(str(word) for word in words), flush=True)


def main():
    parser = argparse.ArgumentParser(description="a version 2 preview-interaction client")
    parser.add_argument("--behaviour")
    parser.add_argument("--keyboard", action="store_true")
    parser.add_argument("--haptic", choices=EFFECTS)
    parser.add_argument("--haptic-after-end", choices=EFFECTS)
    parser.add_argument("--interactions", type=int, default=1)
    parser.add_argument("--settings-groups", type=int)
    parser.add_argument("--until-disconnected", action="store_true")
    parser.add_argument("--keys", type=int)
    parser.add_argument("--leave-on")
    parser.add_argument("--second-window-on")
    parser.add_argument("--empty-region-after-end", type=float)
    options = parser.parse_args()

    with tempfile.TemporaryDirectory() as scratch:
        generate_bindings(scratch)
        from pywayland.client import Display
        from spi_protocols.preview_interaction_v1 import SpiPreviewInteractionManagerV1 as Manager
        from spi_protocols.wayland import WlCompositor, WlSeat, WlShm
        from spi_protocols.xdg_shell import XdgWmBase

        display = Display()
        display.connect()
        found = {}
        registry = display.get_registry()

        def on_global(registry, name, interface, version):
            found.setdefault(interface, (name, version))

        registry.dispatcher["global"] = on_global
        display.roundtrip()
        say("manager version", found[Manager.name][1])
        compositor = registry.bind(found["wl_compositor"][0], WlCompositor, 4)
        shm = registry.bind(found["wl_shm"][0], WlShm, 1)
        wm_base = registry.bind(found["xdg_wm_base"][0], XdgWmBase, 1)
        wm_base.dispatcher["ping"] = lambda base, serial: base.pong(serial)
        # Proxies whose events we handle stay referenced: pywayland drops the events of a
        # proxy Python's garbage collector took.
        kept = []
        keys = []
        if options.keyboard:
            seat = registry.bind(found["wl_seat"][0], WlSeat, 5)
            keyboard = seat.get_keyboard()
            keyboard.dispatcher["keymap"] = lambda proxy, fmt, fd, size: os.close(fd)
            def on_key(proxy, serial, time, key, state):
                say("key", key, state)
                keys.append(key)

            keyboard.dispatcher["key"] = on_key
            kept += [seat, keyboard]

        manager = registry.bind(found[Manager.name][0], Manager, 2)
        groups = []
        ended = []

        def setting(name):
            def handler(proxy, *args):
                say("settings", name, *args)
            return handler

        for name in ("sensitivity", "thresholds", "long_press_duration", "haptics", "completion"):
            manager.dispatcher[name] = setting(name)

        def settings_done(proxy):
            say("settings_done")
            groups.append(1)

        manager.dispatcher["settings_done"] = settings_done

        surface = compositor.create_surface()
        interaction = manager.get_interaction(surface)
        # When each haptic request is due: (interaction, effect) -> the client's monotonic time.
        due = {}

        second_window = []
        region_due = []  # when the region is to be emptied; None once it was

        def record(name):
            def handler(proxy, *args):
                say(name, *args)
                if name == options.leave_on:
                    say("v2_client: left at", name)
                    os._exit(0)
                if name == options.second_window_on and not second_window:
                    second_window.append("due")
                if name == "should_begin":
                    proxy.accept(args[0])
                if name == "preview_ended" and options.haptic:
                    due[(args[0], options.haptic)] = time.monotonic() + 0.08
                if name in ("completed", "cancelled"):
                    if options.empty_region_after_end is not None and not region_due:
                        region_due.append(time.monotonic() + options.empty_region_after_end)
                    due.pop((args[0], options.haptic), None)
                    ended.append((name, args[0]))
                    if options.haptic_after_end:
                        due[(args[0], options.haptic_after_end)] = time.monotonic() + 0.15
            return handler

        for name in ("should_begin", "location", "preview", "preview_ended", "commit", "completed",
                     "cancelled", "behaviour", "stage", "haptics"):
            interaction.dispatcher[name] = record(name)

        def on_frame(proxy, wire, serial, hi, lo):
            proxy.ack_frame(serial)

        interaction.dispatcher["frame"] = on_frame
        interaction.set_sources(0x1F)
        interaction.set_focus_point(20, 30)
        if options.behaviour:
            kind, _, stages = options.behaviour.partition(":")
            interaction.set_behaviour(BEHAVIOURS[kind], int(stages or 0), None)

        def map_window(surface, title):
            """A toplevel at the size the compositor configures, drawn again at each new size (a
            tiling compositor such as sway configures 0x0 first, its tile's size once mapped)."""
            xdg_surface = wm_base.get_xdg_surface(surface)
            toplevel = xdg_surface.get_toplevel()
            toplevel.set_title(title)
            size = [0, 0]
            toplevel.dispatcher["configure"] = lambda proxy, w, h, states: size.__setitem__(slice(0, 2), [w, h])
            configured = []
            drawn = []

            def draw(width, height):
                fd = os.memfd_create("buffer")
                os.ftruncate(fd, width * height * 4)
                mapping = mmap.mmap(fd, width * height * 4)
                mapping.write(b"\xff\x80\x40\xff" * (width * height))
                pool = shm.create_pool(fd, width * height * 4)
                buffer = pool.create_buffer(0, width, height, width * 4, WlShm.format.xrgb8888.value)
                surface.attach(buffer, 0, 0)
                surface.damage(0, 0, width, height)
                surface.commit()
                drawn[:] = [(width, height), mapping, pool, buffer]

            def on_configure(xdg_surface, serial):
                xdg_surface.ack_configure(serial)
                configured.append(serial)
                if drawn and size[0] and size[1] and (size[0], size[1]) != drawn[0]:
                    draw(size[0], size[1])
                    say("resized", size[0], size[1])

            xdg_surface.dispatcher["configure"] = on_configure
            surface.commit()
            while not configured:
                display.dispatch(block=True)

            width, height = size[0] or 100, size[1] or 100
            draw(width, height)
            say("mapped", width, height)
            return [xdg_surface, toplevel, drawn]

        kept += map_window(surface, "v2 client")

        def finished():
            if options.until_disconnected:
                return False
            if options.keys is not None:
                return len(keys) >= options.keys
            if options.settings_groups is not None:
                return len(groups) >= options.settings_groups
            return len(ended) >= options.interactions

        def pump():
            """Dispatches what arrives, and sends the haptic requests that are due."""
            display.dispatch(block=False)
            display.flush()
            now = time.monotonic()
            for (id, effect), at in sorted(due.items(), key=lambda item: item[1]):
                if at <= now:
                    del due[(id, effect)]
                    # The time before the request leaves: the compositor may play it before
                    # this process runs again.
                    sent = int(time.monotonic() * 1_000_000)
                    interaction.play_haptic(id, EFFECTS[effect])
                    display.flush()
                    say("play_haptic", id, effect, "at", sent)
            if region_due and region_due[0] is not None and region_due[0] <= now:
                region_due[0] = None
                interaction.set_region(compositor.create_region())
                surface.commit()
                display.flush()
                say("region emptied")
            deadlines = list(due.values()) + [at for at in region_due if at is not None]
            timeout = max(0.0, min(deadlines) - now) if deadlines else None
            readable, _, _ = select.select([display.get_fd()], [], [], timeout)
            if readable:
                display.read()
                display.dispatch(block=False)

        try:
            while not finished():
                pump()
                if second_window == ["due"]:
                    second_window[0] = "mapped"
                    kept += map_window(compositor.create_surface(), "v2 client's second window")
        except RuntimeError:
            pass  # the compositor went away
        try:
            while due and options.until_disconnected is False and finished():
                pump()  # the requests still due go out before we leave
        except RuntimeError:
            pass
        if options.until_disconnected or not finished():
            say("v2_client: disconnected")
        else:
            say("v2_client: " + (ended[-1][0] if ended else "keys" if keys else "settings"))
        # pywayland's proxies crash the interpreter's teardown once the display is gone: leave
        # without it (the checks are the caller's, on the lines printed).
        os._exit(0)


if __name__ == "__main__":
    main()
