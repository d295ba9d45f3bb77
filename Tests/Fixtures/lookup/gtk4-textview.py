#!/usr/bin/python3
"""A GTK 4 window whose TextView is filled with one word in a large font (a recorded press
anywhere on it lands on the word), for Look Up's tests. --count N repeats it N times (300);
--deep nests the view in many boxes.
Prints every button press it gets as "press X Y"."""

import sys

import gi

gi.require_version("Gtk", "4.0")
from gi.repository import Gtk  # noqa: E402


def activate(app):
    word = sys.argv[sys.argv.index("--fill") + 1] if "--fill" in sys.argv else "geese"
    window = Gtk.ApplicationWindow(application=app, title="lookup gtk4")
    view = Gtk.TextView(editable=False, cursor_visible=False, wrap_mode=Gtk.WrapMode.WORD)
    view.set_left_margin(20)
    view.set_top_margin(20)
    buffer = view.get_buffer()
    tag = buffer.create_tag("large", font="Sans 40")
    count = int(sys.argv[sys.argv.index("--count") + 1]) if "--count" in sys.argv else 300
    buffer.insert_with_tags(buffer.get_start_iter(), " ".join([word] * count), tag)
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


app = Gtk.Application(application_id="org.example.LookupGtk4")
app.connect("activate", activate)
app.run([])
