#!/usr/bin/python3
"""A stand-in for the XDG desktop portal's OpenURI (org.freedesktop.portal.OpenURI, as its
documentation specifies it) on the session bus, for Look Up's tests: it writes each call to
RECORD ("OpenURI <uri>", "OpenFile <the file's text, one line>") instead of starting an app.

usage: stand-in-portal.py RECORD"""

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


def main():
    record = sys.argv[1]

    def write(line):
        with open(record, "a") as out:
            out.write(line + "\n")

    def call(connection, sender, path, interface, method, parameters, invocation):
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

    def acquired(connection, _name):
        info = Gio.DBusNodeInfo.new_for_xml(INTERFACE)
        connection.register_object(
            "/org/freedesktop/portal/desktop", info.interfaces[0], call, lambda *a: GLib.Variant("u", 4), None)
        print("stand-in-portal: ready", file=sys.stderr, flush=True)

    Gio.bus_own_name(Gio.BusType.SESSION, "org.freedesktop.portal.Desktop", 0, acquired, None, None)
    GLib.MainLoop().run()


if __name__ == "__main__":
    main()
