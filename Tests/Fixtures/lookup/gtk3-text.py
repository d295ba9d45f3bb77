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
"""

import sys
import time

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402

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
    window.show_all()
    Gtk.main()


main()
