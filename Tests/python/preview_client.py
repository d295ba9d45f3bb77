#!/usr/bin/python3
"""A preview-interaction-v1 client written with someone else's tooling (pywayland).

It binds version 1 with bindings generated from the current XML (version 2), against a server
that advertises version 2: what an old client does.

Generates Python bindings from protocol/preview-interaction-v1.xml with pywayland's
scanner, starts the scripted test server (preview-protocol-test-server), binds the
global, gets an interaction for a surface and walks through the phases:
  1. accept -> preview 0.25, 0.5, preview_ended, commit 0.5 -> cancel -> cancelled(client_cancelled)
  2. decline -> cancelled(declined)
  3. accept -> ... -> wl_surface.commit -> completed
  4. accept for an interaction never announced -> protocol error invalid_interaction
Every frame is acknowledged with ack_frame. Exits 0 when every check holds.

usage: preview_client.py PATH/TO/preview-protocol-test-server
"""
import errno
import os
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
XML = os.path.join(ROOT, "protocol", "preview-interaction-v1.xml")
CORE_XML = "/usr/share/wayland/wayland.xml"

failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


def generate_bindings(directory):
    """pywayland's scanner, on our XML (and the core protocol it refers to)."""
    package = os.path.join(directory, "spi_protocols")
    subprocess.run(
        [sys.executable, "-m", "pywayland.scanner", "-i", CORE_XML, XML, "-o", package],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    open(os.path.join(package, "__init__.py"), "w").close()
    sys.path.insert(0, directory)


def start_server(binary, runtime_dir):
    env = dict(os.environ, XDG_RUNTIME_DIR=runtime_dir)
    server = subprocess.Popen([binary, "pywayland-test"], env=env, stdout=subprocess.PIPE, text=True)
    line = server.stdout.readline().strip()
    if not line.startswith("WAYLAND_DISPLAY="):
        server.kill()
        sys.exit(f"preview_client: the test server did not start ({line!r})")
    return server, os.path.join(runtime_dir, line.split("=", 1)[1])


class Recorder:
    """Everything the interaction object receives, frames acknowledged on receipt."""

    def __init__(self, interaction):
        self.events = []
        for name in ("should_begin", "location", "preview", "preview_ended", "commit", "completed", "cancelled"):
            interaction.dispatcher[name] = self._recorder(name)
        interaction.dispatcher["frame"] = self._frame

    def _recorder(self, name):
        def handler(proxy, *args):
            self.events.append((name,) + tuple(args))
        return handler

    def _frame(self, proxy, interaction, serial, utime_hi, utime_lo):
        self.events.append(("frame", interaction))
        proxy.ack_frame(serial)

    def phases(self):
        return [event for event in self.events if event[0] != "frame"]

    def take(self):
        phases, self.events = self.phases(), []
        return phases


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with tempfile.TemporaryDirectory() as scratch:
        generate_bindings(scratch)
        from pywayland.client import Display
        from spi_protocols.preview_interaction_v1 import SpiPreviewInteractionManagerV1, SpiPreviewInteractionV1
        from spi_protocols.wayland import WlCompositor

        runtime = os.path.join(scratch, "runtime")
        os.mkdir(runtime, 0o700)
        server, socket = start_server(sys.argv[1], runtime)
        try:
            run(Display(socket), WlCompositor, SpiPreviewInteractionManagerV1, SpiPreviewInteractionV1)
        finally:
            try:
                status = server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                status = "hung"
            check(status == 0, f"the test server exits cleanly after the client left ({status})")
    if failures:
        sys.exit(f"preview_client: {len(failures)} check(s) failed")
    print("preview_client: all checks passed")


def run(display, WlCompositor, Manager, Interaction):
    display.connect()
    globals_ = {}

    def on_global(registry, name, interface, version):
        globals_[interface] = (name, version)

    registry = display.get_registry()
    registry.dispatcher["global"] = on_global
    display.roundtrip()
    check(Manager.name in globals_, "the manager global is advertised")
    check(globals_.get(Manager.name, (0, 0))[1] == 3, "at version 3")
    # Bindings generated from version 3 of the XML, used as a version 1 client: old clients work unchanged.
    check(Manager.version == 3 and Interaction.version == 3, "the XML is at version 3")

    compositor = registry.bind(globals_["wl_compositor"][0], WlCompositor, 4)
    manager = registry.bind(globals_[Manager.name][0], Manager, 1)
    surface = compositor.create_surface()
    interaction = manager.get_interaction(surface)
    recorder = Recorder(interaction)
    source, force, reason = Interaction.source, Interaction.force, Interaction.cancel_reason

    # 1. accept, preview and commit progress, then the client cancels.
    surface.commit()
    display.roundtrip()
    events = recorder.take()
    check(events[:1] == [("should_begin", 1, source.touchscreen, force.measured)], f"should_begin: {events}")
    check(("location", 1, 10.5, 20.25) in events, "location in surface-local coordinates")
    interaction.accept(1)
    display.roundtrip()
    display.roundtrip()  # progress held back until our ack_frame arrived is sent now
    events = recorder.take()
    # Flow control may drop a superseded preview value, never a phase change.
    check(events[0] == ("preview", 1, 0.25), f"preview progress: {events}")
    check(events[-2:] == [("preview_ended", 1), ("commit", 1, 0.5)], f"preview_ended, then commit: {events}")
    interaction.cancel(1)
    display.roundtrip()
    check(recorder.take() == [("cancelled", 1, reason.client_cancelled)], "cancel ends with cancelled(client_cancelled)")

    # 2. decline.
    surface.commit()
    display.roundtrip()
    check(recorder.take()[0] == ("should_begin", 2, source.touchscreen, force.measured), "a second should_begin")
    interaction.decline(2)
    display.roundtrip()
    check(recorder.take() == [("cancelled", 2, reason.declined)], "decline ends with cancelled(declined)")

    # 3. completed.
    surface.commit()
    display.roundtrip()
    recorder.take()
    interaction.accept(3)
    display.roundtrip()
    display.roundtrip()
    check(recorder.take()[-1] == ("commit", 3, 0.5), "the commit phase runs")
    surface.commit()
    display.roundtrip()
    check(recorder.take() == [("completed", 3)], "completed")

    # 4. misuse: only a protocol error, with the documented code.
    from pywayland._ffi import lib

    interaction.accept(99)
    check(display.roundtrip() == -1, "accept(99) fails the connection")
    check(lib.wl_display_get_error(display._ptr) == errno.EPROTO, "with a protocol error (EPROTO)")
    display.disconnect()


if __name__ == "__main__":
    main()
