#!/usr/bin/python3
"""A window whose accessibility tree is hostile, for Look Up's limits: a GTK 3 window (GTK's own
bridge off) that puts an application of its own on the accessibility bus, speaking AT-SPI's
D-Bus interfaces itself. Every accessible holds the whole window, names no child at the point
and claims 100,000 children, which are the same eight accessibles again (a huge and cyclic
tree); the first of them is a text of a billion characters whose every range is 4 MB of text and
whose every character is under the point (--no-text: no text anywhere, so that the search goes
through children until its limits). --slow answers every call 40 ms late. --late MS is a slow
app rather than a hostile one: a small tree that holds together (the window names the text at
the point, a text of one word, "jumps"), every call answered MS late. Prints "mapped" and every
button press it gets as "press X Y"."""

import os
import sys

os.environ["NO_AT_BRIDGE"] = "1"

import gi  # noqa: E402

gi.require_version("Gtk", "3.0")
from gi.repository import Gio, GLib, Gtk  # noqa: E402

ROOT = "/org/a11y/atspi/accessible/root"
NULL = "/org/a11y/atspi/null"
NODES = 8
CLAIMED_CHILDREN = 100_000
HUGE_TEXT = "jumps " * 700_000  # 4.2 MB
LATE = "--late" in sys.argv
SLOW_MS = int(sys.argv[sys.argv.index("--late") + 1]) if LATE else 40 if "--slow" in sys.argv else 0
TEXT = "--no-text" not in sys.argv
SMALL_TEXT = "jumps"

XML = """
<node>
 <interface name="org.a11y.atspi.Accessible">
  <property name="Name" type="s" access="read"/>
  <property name="Description" type="s" access="read"/>
  <property name="Parent" type="(so)" access="read"/>
  <property name="ChildCount" type="i" access="read"/>
  <method name="GetChildAtIndex"><arg type="i" direction="in"/><arg type="(so)" direction="out"/></method>
  <method name="GetChildren"><arg type="a(so)" direction="out"/></method>
  <method name="GetIndexInParent"><arg type="i" direction="out"/></method>
  <method name="GetRole"><arg type="u" direction="out"/></method>
  <method name="GetRoleName"><arg type="s" direction="out"/></method>
  <method name="GetState"><arg type="au" direction="out"/></method>
  <method name="GetInterfaces"><arg type="as" direction="out"/></method>
  <method name="GetApplication"><arg type="(so)" direction="out"/></method>
  <method name="GetAttributes"><arg type="a{ss}" direction="out"/></method>
 </interface>
 <interface name="org.a11y.atspi.Application">
  <property name="ToolkitName" type="s" access="read"/>
  <property name="Version" type="s" access="read"/>
  <property name="Id" type="i" access="readwrite"/>
 </interface>
 <interface name="org.a11y.atspi.Component">
  <method name="GetExtents"><arg type="u" direction="in"/><arg type="(iiii)" direction="out"/></method>
  <method name="GetAccessibleAtPoint"><arg type="i" direction="in"/><arg type="i" direction="in"/>
   <arg type="u" direction="in"/><arg type="(so)" direction="out"/></method>
  <method name="Contains"><arg type="i" direction="in"/><arg type="i" direction="in"/><arg type="u" direction="in"/>
   <arg type="b" direction="out"/></method>
 </interface>
 <interface name="org.a11y.atspi.Text">
  <property name="CharacterCount" type="i" access="read"/>
  <property name="CaretOffset" type="i" access="read"/>
  <method name="GetText"><arg type="i" direction="in"/><arg type="i" direction="in"/><arg type="s" direction="out"/></method>
  <method name="GetOffsetAtPoint"><arg type="i" direction="in"/><arg type="i" direction="in"/>
   <arg type="u" direction="in"/><arg type="i" direction="out"/></method>
  <method name="GetCharacterExtents"><arg type="i" direction="in"/><arg type="u" direction="in"/>
   <arg type="i" direction="out"/><arg type="i" direction="out"/><arg type="i" direction="out"/>
   <arg type="i" direction="out"/></method>
  <method name="GetRangeExtents"><arg type="i" direction="in"/><arg type="i" direction="in"/>
   <arg type="u" direction="in"/><arg type="i" direction="out"/><arg type="i" direction="out"/>
   <arg type="i" direction="out"/><arg type="i" direction="out"/></method>
 </interface>
</node>
"""

ROLE_APPLICATION, ROLE_FRAME, ROLE_PANEL, ROLE_TEXT = 75, 23, 39, 61
STATE_SHOWING, STATE_VISIBLE = 25, 30


def path(index):
    return "%s/%d" % (ROOT.rsplit("/", 1)[0], index)


class Tree:
    def __init__(self, connection):
        self.bus = connection
        self.name = connection.get_unique_name()

    def ref(self, target):
        return (self.name, target)

    def role(self, node):
        return ROLE_APPLICATION if node == ROOT else ROLE_TEXT if node == path(0) and TEXT else ROLE_PANEL

    def late_answer(self, node, method, args):
        """--late: the root holds the window path(1), which holds the text path(0)."""
        inner = {ROOT: path(1), path(1): path(0)}
        if method in ("GetChildAtIndex", "GetChildren"):
            children = [self.ref(inner[node])] if node in inner else []
            if method == "GetChildren":
                return GLib.Variant("(a(so))", (children,))
            return GLib.Variant("((so))", (children[0] if children else ("", NULL),))
        if method == "GetAccessibleAtPoint":
            return GLib.Variant("((so))", (self.ref(path(0)) if node == path(1) else ("", NULL),))
        if method == "GetRole":
            role = ROLE_APPLICATION if node == ROOT else ROLE_FRAME if node == path(1) else ROLE_TEXT
            return GLib.Variant("(u)", (role,))
        if method == "GetRoleName":
            return GLib.Variant("(s)", ("frame" if node == path(1) else "text",))
        if method == "GetText":
            start, end = max(0, args[0]), len(SMALL_TEXT) if args[1] < 0 else min(args[1], len(SMALL_TEXT))
            return GLib.Variant("(s)", (SMALL_TEXT[start:end],))
        if method == "GetOffsetAtPoint":
            return GLib.Variant("(i)", (3,))
        return None

    def answer(self, node, interface, method, args):
        if LATE:
            reply = self.late_answer(node, method, args)
            if reply is not None:
                return reply
        if method == "GetChildAtIndex":
            return GLib.Variant("((so))", (self.ref(path(args[0] % NODES)),))
        if method == "GetChildren":
            return GLib.Variant("(a(so))", ([self.ref(path(i)) for i in range(NODES)],))
        if method == "GetIndexInParent":
            return GLib.Variant("(i)", (0,))
        if method == "GetRole":
            return GLib.Variant("(u)", (self.role(node),))
        if method == "GetRoleName":
            return GLib.Variant("(s)", ("panel" * 1000,))
        if method == "GetState":
            bits = (1 << STATE_SHOWING) | (1 << STATE_VISIBLE)
            return GLib.Variant("(au)", ([bits & 0xFFFFFFFF, bits >> 32],))
        if method == "GetInterfaces":
            names = ["org.a11y.atspi.Accessible", "org.a11y.atspi.Component"]
            if node == ROOT:
                names.append("org.a11y.atspi.Application")
            if node == path(0) and TEXT:
                names.append("org.a11y.atspi.Text")
            return GLib.Variant("(as)", (names,))
        if method == "GetApplication":
            return GLib.Variant("((so))", (self.ref(ROOT),))
        if method == "GetAttributes":
            return GLib.Variant("(a{ss})", ({},))
        if method == "GetExtents":
            return GLib.Variant("((iiii))", ((0, 0, 1280, 800),))
        if method == "GetAccessibleAtPoint":
            return GLib.Variant("((so))", (("", NULL),))
        if method == "Contains":
            return GLib.Variant("(b)", (True,))
        if method == "GetText":
            return GLib.Variant("(s)", (HUGE_TEXT,))
        if method == "GetOffsetAtPoint":
            return GLib.Variant("(i)", (123_456_789,))
        if method in ("GetCharacterExtents", "GetRangeExtents"):
            return GLib.Variant("(iiii)", (0, 0, 1280, 800))
        return None

    def prop(self, node, interface, name):
        values = {
            "Name": GLib.Variant("s", "late" if LATE else "hostile " * 10_000),
            "Description": GLib.Variant("s", ""),
            "Parent": GLib.Variant("(so)", self.ref(ROOT if node != ROOT else NULL)),
            "ChildCount": GLib.Variant("i", (0 if node == path(0) else 1) if LATE else CLAIMED_CHILDREN if node != ROOT else 1),
            "ToolkitName": GLib.Variant("s", "hostile"),
            "Version": GLib.Variant("s", "1"),
            "Id": GLib.Variant("i", 0),
            "CharacterCount": GLib.Variant("i", len(SMALL_TEXT) if LATE else 1_000_000_000),
            "CaretOffset": GLib.Variant("i", 0),
        }
        return values.get(name)

    def export(self):
        info = Gio.DBusNodeInfo.new_for_xml(XML)

        def call(_connection, _sender, node, interface, method, parameters, invocation):
            reply = self.answer(node, interface, method, parameters.unpack())

            def send():
                if reply is None:
                    invocation.return_dbus_error("org.freedesktop.DBus.Error.UnknownMethod", method)
                else:
                    invocation.return_value(reply)
                return False

            if SLOW_MS:
                GLib.timeout_add(SLOW_MS, send)
            else:
                send()

        for node in [ROOT] + [path(i) for i in range(NODES)]:
            for interface in info.interfaces:
                self.bus.register_object(
                    node, interface, call, lambda _c, _s, node, interface, name: self.prop(node, interface, name), None)
        registry = Gio.DBusProxy.new_sync(
            self.bus, 0, None, "org.a11y.atspi.Registry", ROOT, "org.a11y.atspi.Socket", None)
        registry.call_sync("Embed", GLib.Variant("((so))", (self.ref(ROOT),)), 0, 2000, None)


def a11y_bus():
    session = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    reply = session.call_sync(
        "org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress", None, None, 0, 5000, None)
    flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
    return Gio.DBusConnection.new_for_address_sync(reply.unpack()[0], flags, None, None)


def main():
    tree = Tree(a11y_bus())
    tree.export()
    window = Gtk.Window(title="hostile tree")
    window.set_default_size(1280, 800)
    window.add(Gtk.Label(label="hostile"))
    window.connect("destroy", Gtk.main_quit)

    def pressed(_widget, event):
        print("press %d %d" % (event.x, event.y), flush=True)
        return False

    window.connect("button-press-event", pressed)
    window.show_all()
    print("mapped", flush=True)
    Gtk.main()


main()
