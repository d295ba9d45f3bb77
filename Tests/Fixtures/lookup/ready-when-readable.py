#!/usr/bin/python3
"""Starts an app and creates READY once the app's accessibility tree shows TEXT (its document is
loaded and readable), then waits for the app and exits with its status. A real app maps its
window long before its page or document is there: the input stream waits for this file.

usage: ready-when-readable.py [--also TEXT]... [--told WORD FILE] READY TEXT COMMAND [ARGUMENT...]

--also: TEXT and each of these must be readable (a page's own line saying it listens for input).
--told: creates FILE once the app has told of input that says WORD (below): the stream's end
waits for it, as the app's answer may come seconds after the input on a loaded machine.

Once ready, it prints what shows that the app got its input, as the app tells AT-SPI: "app-input:
<text>" for text the app inserts, or a name it gives, that says "pointerdown" (the test pages log
their pointer events in the page and its title) and "app-input: caret" when the app's text caret moves (a press in a document).

It looks again on each event the app sends over AT-SPI (a document loaded, children or text
changed, a window shown); the first look also wakes apps that build their tree only when asked
(browsers). An app that builds it after its last event (Firefox, when a loaded machine makes it
finish loading its page before the first look) sends none, so it is looked at every half second
besides, until it is readable.

Without an accessibility bus (AT-SPI cannot connect) it starts nothing: it prints one line,
"ready-when-readable: no accessibility bus: ...", and exits with status 69 (EX_UNAVAILABLE)."""

import argparse
import os
import subprocess
import sys

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi, GLib  # noqa: E402

NODES_MAX = 4000
# sysexits.h's EX_UNAVAILABLE: no accessibility bus.
NO_BUS_STATUS = 69
# Menus and tool bars hold hundreds of items and never the document.
SKIPPED = ("menu bar", "menu", "tool bar", "status bar")
EVENTS = (
    "document:load-complete",
    "object:children-changed",
    "object:text-changed",
    "object:state-changed:showing",
    "window:activate",
)


def descends_from(pid, ancestor):
    """A launcher script may start the app as its child (soffice starts soffice.bin)."""
    for _ in range(16):
        if pid == ancestor:
            return True
        try:
            with open("/proc/%d/stat" % pid) as stat:
                pid = int(stat.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            return False
        if pid <= 1:
            return False
    return False


def readable(app, texts):
    """Depth first, bounded: for each of `texts`, an accessible whose text holds it."""
    stack, seen, missing = [app], 0, set(texts)
    while stack and seen < NODES_MAX:
        node = stack.pop()
        seen += 1
        if node is None:
            continue  # a child the app no longer has (or did not name in time)
        try:
            if node.get_text_iface() is not None:
                length = min(400, Atspi.Text.get_character_count(node))
                shown = (Atspi.Text.get_text(node, 0, length) or "") if length > 0 else ""
                missing = {text for text in missing if text not in shown}
                if not missing:
                    return True
        except GLib.Error:
            pass  # a text that fails to read may still hold the one sought
        try:
            if node.get_role_name() in SKIPPED:
                continue
            count = node.get_child_count()
            stack.extend(node.get_child_at_index(i) for i in range(min(count, 200)))
        except GLib.Error:
            continue
    return False


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--also", action="append", default=[])
    parser.add_argument("--told", nargs=2, metavar=("WORD", "FILE"))
    parser.add_argument("ready")
    parser.add_argument("text")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    arguments = parser.parse_args()
    ready, texts, command = arguments.ready, [arguments.text] + arguments.also, arguments.command
    # Non-zero when no accessibility bus could be reached; any later call would then end this
    # process inside libatspi (g_error), so it stops here, before the app is started.
    status = Atspi.init()
    if status != 0:
        print("ready-when-readable: no accessibility bus: AT-SPI could not connect (atspi_init %d, "
              "DBUS_SESSION_BUS_ADDRESS %s, AT_SPI_BUS_ADDRESS %s)"
              % (status, os.environ.get("DBUS_SESSION_BUS_ADDRESS"), os.environ.get("AT_SPI_BUS_ADDRESS")),
              file=sys.stderr, flush=True)
        sys.exit(NO_BUS_STATUS)
    child = subprocess.Popen(command)
    loop = GLib.MainLoop()
    done = []

    def look(*_args):
        if done:
            return
        desktop = Atspi.get_desktop(0)
        try:
            count = desktop.get_child_count()
        except GLib.Error:
            return  # the registry did not answer: the next event or half second looks again
        for i in range(count):
            try:
                app = desktop.get_child_at_index(i)
                if app is not None and descends_from(app.get_process_id(), child.pid) and readable(app, texts):
                    done.append(True)
                    open(ready, "w").close()
                    print("ready-when-readable: %s readable" % " and ".join(map(repr, texts)), file=sys.stderr,
                          flush=True)
                    loop.quit()
                    return
            except GLib.Error:
                continue

    listener = Atspi.EventListener.new(look)
    for event in EVENTS:
        listener.register(event)
    ended = []

    def exited(_pid, status):
        ended.append(status)
        loop.quit()

    GLib.child_watch_add(GLib.PRIORITY_DEFAULT, child.pid, exited)
    GLib.idle_add(lambda: look() and False)
    GLib.timeout_add(500, lambda: look() or not done)
    loop.run()
    for event in EVENTS:
        listener.deregister(event)
    if not ended:
        reports = []

        def report(event):
            try:
                if not descends_from(event.source.get_process_id(), child.pid) or len(reports) > 20:
                    return
            except GLib.Error:
                return
            if event.type.startswith("object:text-caret-moved"):
                line = "caret"
            elif isinstance(event.any_data, str) and "pointerdown" in event.any_data:
                line = event.any_data.strip()
            elif event.type.startswith("object:property-change:accessible-name"):
                name = event.source.get_name() or ""
                if "pointerdown" not in name:
                    return
                line = name[name.index("pointerdown"):]
            else:
                return
            reports.append(line)
            print("app-input: %s" % line, flush=True)
            if arguments.told and arguments.told[0] in line and not os.path.exists(arguments.told[1]):
                open(arguments.told[1], "w").close()

        watcher = Atspi.EventListener.new(report)
        watcher.register("object:text-changed:insert")
        watcher.register("object:text-caret-moved")
        watcher.register("object:property-change:accessible-name")
        # The rest is the app's: its end (GLib's child watch) ends this too.
        loop.run()
    sys.exit(os.waitstatus_to_exitcode(ended[0]) if ended else 1)

if __name__ == "__main__":
    os.environ.pop("NO_AT_BRIDGE", None)
    main()
