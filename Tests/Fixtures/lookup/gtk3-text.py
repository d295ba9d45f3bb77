#!/usr/bin/python3
"""A GTK 3 window of known text for the compositor's tests.

The first line is a label with known words, the second a label with a link. With --long, a
wrapped label of many paragraphs follows, so the window's content (and GTK 3's buffer) grows
far taller than any output. Prints "mapped" once the window is drawn, and each button press
it gets as "press X Y".
"""

import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402

WORDS = "Curious foxes jumps over the sleeping dogs"
LINK = 'Read <a href="https://example.org/guide">the guide</a> first'


def main():
    window = Gtk.Window(title="lookup gtk3")
    window.set_default_size(600, 300)
    box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=12)
    box.set_border_width(20)
    words = Gtk.Label(label=WORDS, xalign=0)
    words.set_name("words")
    link = Gtk.Label(xalign=0)
    link.set_markup(LINK)
    box.pack_start(words, False, False, 0)
    box.pack_start(link, False, False, 0)
    if "--long" in sys.argv:
        paragraph = "A long wrapped label grows the window past the output. " * 12
        long = Gtk.Label(label="\n\n".join([paragraph] * 90), xalign=0)
        long.set_line_wrap(True)
        long.set_max_width_chars(80)
        box.pack_start(long, False, False, 0)
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
        return False

    window.connect_after("draw", drawn)
    window.show_all()
    Gtk.main()


main()
