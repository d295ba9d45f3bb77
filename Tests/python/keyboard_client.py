#!/usr/bin/env python3
"""A version 2 preview-interaction client for the keyboard (pywayland).

Maps a 100x100 toplevel (so it gets keyboard focus), binds the manager at version 2, lets the
keyboard begin interactions on its surface with its focused item at (20, 30), accepts every
should_begin and prints each event as a line, until an interaction completes or is cancelled.
The compositor's WAYLAND_DISPLAY is the one in the environment.

usage: keyboard_client.py
"""
import mmap
import os
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
XML = os.path.join(ROOT, "protocol", "preview-interaction-v1.xml")
CORE_XML = "/usr/share/wayland/wayland.xml"
XDG_XML = "/usr/share/wayland-protocols/stable/xdg-shell/xdg-shell.xml"


def generate_bindings(directory):
    package = os.path.join(directory, "spi_protocols")
    subprocess.run(
        [sys.executable, "-m", "pywayland.scanner", "-i", CORE_XML, XDG_XML, XML, "-o", package],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    open(os.path.join(package, "__init__.py"), "w").close()
    sys.path.insert(0, directory)


def main():
    with tempfile.TemporaryDirectory() as scratch:
        generate_bindings(scratch)
        from pywayland.client import Display
        from spi_protocols.preview_interaction_v1 import SpiPreviewInteractionManagerV1 as Manager
        from spi_protocols.wayland import WlCompositor, WlShm
        from spi_protocols.xdg_shell import XdgWmBase

        display = Display()
        display.connect()
        found = {}
        registry = display.get_registry()

        def on_global(registry, name, interface, version):
            found.setdefault(interface, (name, version))

        registry.dispatcher["global"] = on_global
        display.roundtrip()
        print(f"manager version {found[Manager.name][1]}", flush=True)
        compositor = registry.bind(found["wl_compositor"][0], WlCompositor, 4)
        shm = registry.bind(found["wl_shm"][0], WlShm, 1)
        wm_base = registry.bind(found["xdg_wm_base"][0], XdgWmBase, 1)

        def on_ping(base, serial):
            base.pong(serial)

        wm_base.dispatcher["ping"] = on_ping
        manager = registry.bind(found[Manager.name][0], Manager, 2)

        surface = compositor.create_surface()
        interaction = manager.get_interaction(surface)
        done = []

        def record(name):
            def handler(proxy, *args):
                print(" ".join([name] + [str(a) for a in args]), flush=True)
                if name == "should_begin":
                    proxy.accept(args[0])
                if name in ("completed", "cancelled"):
                    done.append(name)
            return handler

        for name in ("should_begin", "location", "preview", "preview_ended", "commit", "completed",
                     "cancelled", "behaviour", "stage", "haptics"):
            interaction.dispatcher[name] = record(name)

        def on_frame(proxy, wire, serial, hi, lo):
            proxy.ack_frame(serial)

        interaction.dispatcher["frame"] = on_frame
        interaction.set_sources(0x1F)
        interaction.set_focus_point(20, 30)

        xdg_surface = wm_base.get_xdg_surface(surface)
        toplevel = xdg_surface.get_toplevel()
        toplevel.set_title("keyboard client")
        configured = []

        def on_configure(xdg_surface, serial):
            xdg_surface.ack_configure(serial)
            configured.append(serial)

        xdg_surface.dispatcher["configure"] = on_configure
        surface.commit()
        while not configured:
            display.dispatch(block=True)

        width, height = 100, 100
        fd = os.memfd_create("buffer")
        os.ftruncate(fd, width * height * 4)
        mapping = mmap.mmap(fd, width * height * 4)
        mapping.write(b"\xff\x80\x40\xff" * (width * height))
        pool = shm.create_pool(fd, width * height * 4)
        buffer = pool.create_buffer(0, width, height, width * 4, WlShm.format.xrgb8888.value)
        surface.attach(buffer, 0, 0)
        surface.damage(0, 0, width, height)
        surface.commit()
        print("mapped", flush=True)
        while not done:
            if display.dispatch(block=True) < 0:
                break
        print("keyboard_client: " + (done[0] if done else "disconnected"), flush=True)
        # pywayland's proxies crash the interpreter's teardown once the display is gone: leave
        # without it (the checks are the caller's, on the lines printed).
        os._exit(0)


if __name__ == "__main__":
    main()
