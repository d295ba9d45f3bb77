#!/usr/bin/python3
"""A GTK 4 window whose TextView is filled with one word in a large font (a recorded press
anywhere on it lands on the word), for Look Up's tests. --count N repeats it N times (300);
--deep nests the view in many boxes. --caret WORD puts WORD first, makes the view editable
and focused and puts its text caret inside WORD (the preview key looks up there).
Prints every button press it gets as "press X Y"."""

import sys

import gi

gi.require_version("Gtk", "4.0")
from gi.repository import Gtk  # noqa: E402


def activate(app):
    word = sys.argv[sys.argv.index("--fill") + 1] if "--fill" in sys.argv else "geese"
    window = Gtk.ApplicationWindow(application=app, title="lookup gtk4")
    caret = sys.argv[sys.argv.index("--caret") + 1] if "--caret" in sys.argv else None
    view = Gtk.TextView(editable=bool(caret), cursor_visible=bool(caret), wrap_mode=Gtk.WrapMode.WORD)
    view.set_left_margin(20)
    view.set_top_margin(20)
    buffer = view.get_buffer()
    tag = buffer.create_tag("large", font="Sans 40")
    count = int(sys.argv[sys.argv.index("--count") + 1]) if "--count" in sys.argv else 300
    buffer.insert_with_tags(buffer.get_start_iter(), " ".join(([caret] if caret else []) + [word] * count), tag)
    if caret:
        buffer.place_cursor(buffer.get_iter_at_offset(2))
    click = Gtk.GestureClick()
    click.connect("pressed", lambda _g, _n, x, y: print("press %d %d" % (x, y), flush=True))
    view.add_controller(click)
    child = view
    if "--deep" in sys.argv:
        for _ in range(60):
            box = Gtk.Box()
            box.append(child)
            child = box
    window.set_child(child)
    window.present()
    if caret:
        view.grab_focus()


app = Gtk.Application(application_id="org.example.LookupGtk4")
app.connect("activate", activate)
app.run([])
