#!/usr/bin/python3
"""A stand-in for the XDG desktop portal's OpenURI (org.freedesktop.portal.OpenURI, as its
documentation specifies it) on the session bus, for Look Up's tests: it writes each call to
RECORD ("OpenURI <uri>", "OpenFile <the file's text, one line>") instead of starting an app.
With --previewer it stands in for GNOME's previewer instead (org.gnome.NautilusPreviewer2,
Sushi's: "ShowFile <uri>").

usage: stand-in-portal.py RECORD [--previewer]"""

import os
import sys

from gi.repository import Gio, GLib

INTERFACE = """
<node>
  <interface name="org.freedesktop.portal.OpenURI">
    <method name="OpenURI">
      <arg type="s" name="parent_window" direction="in"/>
      <arg type="s" name="uri" direction="in"/>
      <arg type="a{sv}" name="options" direction="in"/>
      <arg type="o" name="handle" direction="out"/>
    </method>
    <method name="OpenFile">
      <arg type="s" name="parent_window" direction="in"/>
      <arg type="h" name="fd" direction="in"/>
      <arg type="a{sv}" name="options" direction="in"/>
      <arg type="o" name="handle" direction="out"/>
    </method>
    <property name="version" type="u" access="read"/>
  </interface>
</node>
"""
HANDLE = "/org/freedesktop/portal/desktop/request/stand_in/1"
PREVIEWER = """
<node>
  <interface name="org.gnome.NautilusPreviewer2">
    <method name="ShowFile">
      <arg type="s" name="uri" direction="in"/>
      <arg type="s" name="window_handle" direction="in"/>
      <arg type="b" name="close_if_already_visible" direction="in"/>
    </method>
  </interface>
</node>
"""


def main():
    record = sys.argv[1]

    def write(line):
        with open(record, "a") as out:
            out.write(line + "\n")

    def call(connection, sender, path, interface, method, parameters, invocation):
        if method == "ShowFile":
            write("ShowFile " + parameters.unpack()[0])
            invocation.return_value(None)
            return
        if method == "OpenURI":
            write("OpenURI " + parameters.unpack()[1])
        else:
            fds = invocation.get_message().get_unix_fd_list()
            fd = fds.get(parameters.unpack()[1]) if fds else -1
            # The portal takes an O_PATH descriptor: read the file it names.
            with open("/proc/self/fd/%d" % fd, newline="") as opened:
                write("OpenFile " + opened.read().replace("\r\n", "|"))
            os.close(fd)
        invocation.return_value(GLib.Variant("(o)", (HANDLE,)))

    previewer = "--previewer" in sys.argv

    def acquired(connection, _name):
        if previewer:
            info = Gio.DBusNodeInfo.new_for_xml(PREVIEWER)
            connection.register_object("/org/gnome/NautilusPreviewer2", info.interfaces[0], call, None, None)
        else:
            info = Gio.DBusNodeInfo.new_for_xml(INTERFACE)
            connection.register_object(
                "/org/freedesktop/portal/desktop", info.interfaces[0], call, lambda *a: GLib.Variant("u", 4), None)
        print("stand-in-portal: ready", file=sys.stderr, flush=True)

    name = "org.gnome.NautilusPreviewer2" if previewer else "org.freedesktop.portal.Desktop"
    Gio.bus_own_name(Gio.BusType.SESSION, name, 0, acquired, None, None)
    GLib.MainLoop().run()


if __name__ == "__main__":
    main()
