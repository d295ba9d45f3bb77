#!/usr/bin/python3
"""A tablet-aware Wayland client written with someone else's tooling (pywayland).

Generates bindings for the core protocol, xdg-shell and tablet-unstable-v2 (and our
preview-interaction-v1 with --preview) with pywayland's scanner, maps one window filled
with a colour, and writes every input event it receives to LOG, one line each, flushed
as it arrives (the compositor may end the connection at any time):

  tool proximity_in | tool proximity_out | tool down | tool up | tool frame
  tool motion X Y | tool pressure P | tool distance D | tool tilt X Y | tool button B S
  pointer enter X Y | pointer motion X Y | pointer button B S | pointer leave
  touch down ID X Y | touch motion ID X Y | touch up ID | touch cancel
  preview <event> ARGS...   (--preview: every should_begin is accepted, frames acked)

--ack-delay MS (with --preview): a client busy elsewhere: answers go out at once, but each
frame is acknowledged MS later, and nothing is read meanwhile.
--answer-delay MS (with --preview): a client slow to decide: each should_begin is accepted
MS after it arrives, and nothing is read meanwhile.
--event-delay MS: a client slow to handle input: each event is logged MS after it is read.

For measurements (scripts/perf-compare, the compositor benchmarks):
--timestamps: every line starts with the CLOCK_MONOTONIC microsecond it was received at, and
  the events' own times are logged: `tool frame MS`, `pointer motion X Y MS`, `preview frame US`.
--subsurfaces N: N mapped 8x8 subsurfaces on the window, in a grid 12 px apart.
--objects N: N more role-less surfaces, each with a preview interaction object (needs --preview).

Modes: --tablet binds zwp_tablet_manager_v2 and a tablet seat before mapping the window
(and a wl_pointer too); --pointer binds only a wl_pointer, like a client that knows
nothing of tablets. Runs until the compositor disconnects it.

usage: tablet_client.py (--tablet | --pointer) [--preview [--ack-delay MS] [--answer-delay MS]]
                        [--event-delay MS] [--timestamps] [--subsurfaces N] [--objects N] LOG
"""
import mmap
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
XMLS = [
    "/usr/share/wayland/wayland.xml",
    "/usr/share/wayland-protocols/stable/xdg-shell/xdg-shell.xml",
    "/usr/share/wayland-protocols/unstable/tablet/tablet-unstable-v2.xml",
    os.path.join(ROOT, "protocol", "preview-interaction-v1.xml"),
]


def generate_bindings(directory):
    package = os.path.join(directory, "tablet_protocols")
    subprocess.run(
        [sys.executable, "-m", "pywayland.scanner", "-i"] + XMLS + ["-o", package],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    open(os.path.join(package, "__init__.py"), "w").close()
    sys.path.insert(0, directory)


class Log:
    def __init__(self, path, timestamps=False, delay=0.0):
        self.file = open(path, "w", buffering=1)
        self.timestamps = timestamps
        self.delay = delay

    def __call__(self, *words):
        if self.delay > 0:
            time.sleep(self.delay)  # the behaviour under test: a client slow to handle input
        if self.timestamps:
            words = (time.monotonic_ns() // 1000,) + words
        self.file.write(" ".join(str(word) for word in words) + "\n")
        self.file.flush()


def watch_tool(tool, log):
    d = tool.dispatcher
    d["proximity_in"] = lambda proxy, serial, tablet, surface: log("tool proximity_in")
    d["proximity_out"] = lambda proxy: log("tool proximity_out")
    d["down"] = lambda proxy, serial: log("tool down")
    d["up"] = lambda proxy: log("tool up")
    d["motion"] = lambda proxy, x, y: log("tool motion", round(x, 2), round(y, 2))
    d["pressure"] = lambda proxy, pressure: log("tool pressure", pressure)
    d["distance"] = lambda proxy, distance: log("tool distance", distance)
    d["tilt"] = lambda proxy, x, y: log("tool tilt", round(x, 2), round(y, 2))
    d["button"] = lambda proxy, serial, button, state: log("tool button", button, state)
    d["frame"] = lambda proxy, time: log("tool frame", time) if log.timestamps else log("tool frame")
    d["type"] = lambda proxy, kind: log("tool type", kind)
    d["capability"] = lambda proxy, capability: log("tool capability", capability)


def watch_pointer(pointer, log):
    d = pointer.dispatcher
    d["enter"] = lambda proxy, serial, surface, x, y: log("pointer enter", round(x, 2), round(y, 2))
    d["leave"] = lambda proxy, serial, surface: log("pointer leave")
    d["motion"] = lambda proxy, time, x, y: (
        log("pointer motion", round(x, 2), round(y, 2), time) if log.timestamps
        else log("pointer motion", round(x, 2), round(y, 2)))
    d["button"] = lambda proxy, serial, time, button, state: log("pointer button", button, state)


def watch_touch(touch, log):
    d = touch.dispatcher
    d["down"] = lambda proxy, serial, time, surface, id, x, y: log("touch down", id, round(x, 2), round(y, 2))
    d["motion"] = lambda proxy, time, id, x, y: log("touch motion", id, round(x, 2), round(y, 2))
    d["up"] = lambda proxy, serial, time, id: log("touch up", id)
    d["cancel"] = lambda proxy: log("touch cancel")
    d["frame"] = lambda proxy: None


def watch_preview(interaction, log, display=None, ack_delay=0.0, answer_delay=0.0):
    def named(name):
        def handler(proxy, *args):
            log("preview", name, *args)
            if name == "should_begin":
                if answer_delay > 0:
                    time.sleep(answer_delay)  # the behaviour under test: an app slow to answer
                proxy.accept(args[0])
        return handler

    for name in ("should_begin", "preview", "preview_ended", "commit", "completed", "cancelled"):
        interaction.dispatcher[name] = named(name)
    interaction.dispatcher["location"] = lambda *args: None
    def frame(proxy, interaction, serial, hi, lo):
        if log.timestamps:
            log("preview frame", (hi << 32) | lo)
        if ack_delay > 0:
            display.flush()  # the answers leave now; only the ack is late
            time.sleep(ack_delay)
        proxy.ack_frame(serial)

    interaction.dispatcher["frame"] = frame


def fill(shm, WlShm, width, height):
    """One ARGB8888 buffer of a solid colour, in a memfd."""
    stride = width * 4
    size = stride * height
    fd = os.memfd_create("tablet-client", 0)
    os.ftruncate(fd, size)
    with mmap.mmap(fd, size) as data:
        data.write(b"\x40\x90\x30\xff" * (width * height))
    pool = shm.create_pool(fd, size)
    buffer = pool.create_buffer(0, width, height, stride, WlShm.format.argb8888.value)
    pool.destroy()
    os.close(fd)
    return buffer


def main():
    args = sys.argv[1:]
    preview = "--preview" in args
    args = [a for a in args if a != "--preview"]
    ack_delay = 0.0
    if "--ack-delay" in args:
        at = args.index("--ack-delay")
        ack_delay = float(args[at + 1]) / 1000
        del args[at:at + 2]
    answer_delay = 0.0
    if "--answer-delay" in args:
        at = args.index("--answer-delay")
        answer_delay = float(args[at + 1]) / 1000
        del args[at:at + 2]
    event_delay = 0.0
    if "--event-delay" in args:
        at = args.index("--event-delay")
        event_delay = float(args[at + 1]) / 1000
        del args[at:at + 2]
    counts = {}
    for option in ("--subsurfaces", "--objects"):
        if option in args:
            at = args.index(option)
            counts[option] = int(args[at + 1])
            del args[at:at + 2]
    timestamps = "--timestamps" in args
    args = [a for a in args if a != "--timestamps"]
    if len(args) != 2 or args[0] not in ("--tablet", "--pointer"):
        sys.exit(__doc__)
    tablet_mode = args[0] == "--tablet"
    log = Log(args[1], timestamps, event_delay)
    with tempfile.TemporaryDirectory() as scratch:
        generate_bindings(scratch)
        from pywayland.client import Display
        from tablet_protocols.wayland import WlCompositor, WlSeat, WlShm, WlSubcompositor
        from tablet_protocols.xdg_shell import XdgWmBase
        from tablet_protocols.tablet_unstable_v2 import ZwpTabletManagerV2
        from tablet_protocols.preview_interaction_v1 import SpiPreviewInteractionManagerV1

        display = Display()
        display.connect()
        globals_ = {}
        registry = display.get_registry()
        registry.dispatcher["global"] = lambda r, name, interface, version: globals_.__setitem__(interface, name)
        display.roundtrip()

        def bind(interface, version):
            return registry.bind(globals_[interface.name], interface, version)

        compositor = bind(WlCompositor, 4)
        shm = bind(WlShm, 1)
        wm_base = bind(XdgWmBase, 1)
        wm_base.dispatcher["ping"] = lambda proxy, serial: proxy.pong(serial)
        # Every proxy whose events we handle stays referenced here: pywayland destroys a proxy
        # that Python's garbage collector takes, and its events are then discarded (a client
        # with many surfaces allocates enough for a collection to run mid-session).
        kept = []
        seat = bind(WlSeat, 5)
        # Only what the seat has: wlroots (sway) refuses a get_touch without touch capability.
        capabilities = []
        seat.dispatcher["capabilities"] = lambda proxy, value: capabilities.append(value)
        display.roundtrip()
        has = capabilities[-1] if capabilities else 7
        if has & 1:
            kept.append(seat.get_pointer())
            watch_pointer(kept[-1], log)
        if has & 4:
            kept.append(seat.get_touch())
            watch_touch(kept[-1], log)
        if tablet_mode:
            manager = bind(ZwpTabletManagerV2, 1)
            tablet_seat = manager.get_tablet_seat(seat)
            kept += [manager, tablet_seat]

            def tablet_added(proxy, tablet):
                kept.append(tablet)
                log("tablet added")

            def tool_added(proxy, tool):
                kept.append(tool)
                log("tool added")
                watch_tool(tool, log)

            tablet_seat.dispatcher["tablet_added"] = tablet_added

            tablet_seat.dispatcher["tool_added"] = tool_added
        display.roundtrip()

        surface = compositor.create_surface()
        if preview:
            preview_manager = bind(SpiPreviewInteractionManagerV1, 1)
            kept += [preview_manager, preview_manager.get_interaction(surface)]
            watch_preview(kept[-1], log, display, ack_delay, answer_delay)
        many = kept  # the extra surfaces and objects below, kept alive the same way
        if counts.get("--objects"):
            manager = bind(SpiPreviewInteractionManagerV1, 1)
            for _ in range(counts["--objects"]):
                other = compositor.create_surface()
                many += [other, manager.get_interaction(other)]
        if counts.get("--subsurfaces"):
            subcompositor = bind(WlSubcompositor, 1)
            small = fill(shm, WlShm, 8, 8)
            for index in range(counts["--subsurfaces"]):
                child = compositor.create_surface()
                sub = subcompositor.get_subsurface(child, surface)
                sub.set_position(12 * (index % 100), 12 * (index // 100))
                child.attach(small, 0, 0)
                child.commit()  # synchronized: applied with the parent's next commit
                many += [child, sub]
                if index % 500 == 499:
                    display.roundtrip()  # read the buffer releases, as a real client would
        xdg_surface = wm_base.get_xdg_surface(surface)
        toplevel = xdg_surface.get_toplevel()
        toplevel.set_title("tablet_client")
        size = [0, 0]
        toplevel.dispatcher["configure"] = lambda proxy, w, h, states: size.__setitem__(slice(0, 2), [w, h])

        def configured(proxy, serial):
            proxy.ack_configure(serial)
            width, height = size[0] or 640, size[1] or 480
            kept.append(fill(shm, WlShm, width, height))
            surface.attach(kept[-1], 0, 0)
            surface.damage(0, 0, width, height)
            surface.commit()
            log("mapped", width, height)

        xdg_surface.dispatcher["configure"] = configured
        surface.commit()
        try:
            while display.dispatch(block=True) != -1:
                pass
        except RuntimeError:
            pass  # the compositor went away: that is how every run ends
        log("disconnected")


if __name__ == "__main__":
    main()
