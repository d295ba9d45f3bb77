#!/usr/bin/python3
"""A GTK 3 window of known text for the compositor's tests.

Default: a line of known words and a line with a link. --long adds a wrapped label of many
paragraphs, so the window's content (and GTK 3's buffer) grows far taller than any output.
--fill WORD fills the window with WORD in a large font (a recorded press anywhere on it lands on
the word); --fill-link does the same with a link; --fill-lines TEXT fills it with lines of TEXT,
centred (a date, a phone number: the recorded press lands on its middle); --notebook puts the
text in a notebook's page with its tab hidden (the accessible at the point names no child); --hang stops answering anything (D-Bus,
Wayland) a moment after the window is drawn. Prints "mapped" once drawn and every button
press it gets as "press X Y".

With accessibility on, the window is shown once the accessibility registry lists this process
(ten seconds at most): a person sees the window of an app whose text can be looked up, and a
compositor's recording starts on the window's map. On a loaded machine the registry takes the
app in a second or more after the app started.
"""

import os
import sys
import time

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import Gio, GLib, Gtk  # noqa: E402

REGISTRY = ("org.a11y.atspi.Registry", "/org/a11y/atspi/accessible/root", "org.a11y.atspi.Accessible")
REGISTERED_WAIT_MS = 10000
# Between two questions to the registry while it does not list this process yet.
REGISTERED_POLL_MS = 50


def wait_until_registered():
    """Runs the main loop until the registry on the accessibility bus lists this process (its
    children's connections asked for their process ids), without an accessibility bus at once.
    Every call is asynchronous: the toolkit's own registration goes out from this loop."""
    if os.environ.get("NO_AT_BRIDGE") == "1":
        return
    loop = GLib.MainLoop()
    GLib.timeout_add(REGISTERED_WAIT_MS, loop.quit)
    address = os.environ.get("AT_SPI_BUS_ADDRESS")
    if not address:
        try:
            session = Gio.bus_get_sync(Gio.BusType.SESSION, None)
            reply = session.call_sync("org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress", None,
                                      GLib.VariantType("(s)"), Gio.DBusCallFlags.NONE, REGISTERED_WAIT_MS, None)
            address = reply.unpack()[0]
        except GLib.Error:
            return
    try:
        flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
        bus = Gio.DBusConnection.new_for_address_sync(address, flags, None, None)
    except GLib.Error:
        return

    def ask():
        bus.call(REGISTRY[0], REGISTRY[1], REGISTRY[2], "GetChildren", None, GLib.VariantType("(a(so))"),
                 Gio.DBusCallFlags.NONE, REGISTERED_WAIT_MS, None, children)
        return False

    def children(_bus, result):
        try:
            names = [name for name, _path in bus.call_finish(result).unpack()[0]]
        except GLib.Error:
            names = []
        pending = [len(names)]

        def process(_bus, result):
            try:
                if bus.call_finish(result).unpack()[0] == os.getpid():
                    loop.quit()
                    return
            except GLib.Error:
                pass
            pending[0] -= 1
            if pending[0] == 0:
                GLib.timeout_add(REGISTERED_POLL_MS, ask)

        for name in names:
            bus.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                     "GetConnectionUnixProcessID", GLib.Variant("(s)", (name,)), GLib.VariantType("(u)"),
                     Gio.DBusCallFlags.NONE, REGISTERED_WAIT_MS, None, process)
        if not names:
            GLib.timeout_add(REGISTERED_POLL_MS, ask)

    ask()
    loop.run()

WORDS = "Curious foxes jumps over the sleeping dogs"
LINK = 'Read <a href="https://example.org/guide">the guide</a> first'
URI = "https://example.org/guide"


def filled(markup):
    label = Gtk.Label(xalign=0, yalign=0)
    label.set_line_wrap(True)
    label.set_markup('<span font="Sans 40">%s</span>' % markup)
    return label


def main():
    window = Gtk.Window(title="lookup gtk3")
    window.set_default_size(600, 300)
    box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=12)
    box.set_border_width(20)
    if "--fill" in sys.argv:
        word = sys.argv[sys.argv.index("--fill") + 1]
        box.pack_start(filled(" ".join([word] * 400)), True, True, 0)
    elif "--fill-lines" in sys.argv:
        text = GLib.markup_escape_text(sys.argv[sys.argv.index("--fill-lines") + 1])
        label = filled("\n".join([text] * 20))
        label.set_justify(Gtk.Justification.CENTER)
        label.set_xalign(0.5)
        box.pack_start(label, True, True, 0)
    elif "--fill-link" in sys.argv:
        link = '<a href="%s">guidebook</a>' % URI
        box.pack_start(filled(" ".join([link] * 300)), True, True, 0)
    else:
        box.pack_start(Gtk.Label(label=WORDS, xalign=0), False, False, 0)
        link = Gtk.Label(xalign=0)
        link.set_markup(LINK)
        box.pack_start(link, False, False, 0)
    if "--long" in sys.argv:
        paragraph = "A long wrapped label grows the window past the output. " * 12
        long = Gtk.Label(label="\n\n".join([paragraph] * 90), xalign=0)
        long.set_line_wrap(True)
        long.set_max_width_chars(80)
        box.pack_start(long, False, False, 0)
    if "--notebook" in sys.argv:
        notebook = Gtk.Notebook(show_tabs=False)
        notebook.append_page(box, Gtk.Label(label="page"))
        window.add(notebook)
    else:
        window.add(box)
    window.connect("destroy", Gtk.main_quit)

    def pressed(_widget, event):
        print("press %d %d" % (event.x, event.y), flush=True)
        return False

    window.connect("button-press-event", pressed)
    mapped = []

    def drawn(*_args):
        if not mapped:
            mapped.append(True)
            print("mapped", flush=True)
            if "--hang" in sys.argv:
                GLib.timeout_add(300, lambda: time.sleep(3600))
        return False

    window.connect_after("draw", drawn)
    wait_until_registered()
    window.show_all()
    Gtk.main()


main()
