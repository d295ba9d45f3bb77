"""Reads an emulated evdev node through the umockdev shim in a noop session (run with it in
LD_PRELOAD, UMOCKDEV_DIR set and LIBSEAT_BACKEND=noop) from two descriptors: the compositor's
libinput's and a second, read-only one (the embedded library's). The kernel gives every
descriptor its own copy of the events; umockdev has one pty, so the shim hands the second
reader a copy of what the first read, and says SYN_DROPPED when its buffer overflowed, as the
kernel does. Prints what each read returned."""
import os
import select

from emulated_evdev import SIZE, frame, open_node, read

master, name, node = open_node()
second = os.open(name, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)


def deliver(data):
    os.write(master, data)
    select.select([node], [], [])
    got = 0
    while got < len(data):
        try:
            got += len(os.read(node, 4096))
        except BlockingIOError:
            select.select([node], [], [])


print("before any event:", read(second), flush=True)
os.write(master, frame(94) + frame(95))
select.select([node], [], [])
print("libinput:", read(node), flush=True)
print("second:", read(second), flush=True)
print("then:", read(second), flush=True)
# More than the kernel's buffer (1024 events) while the second reader reads nothing.
for chunk in range(10):
    deliver(b"".join(frame(100 + chunk * 60 + i) for i in range(60)))
print("overflowed:", read(second, SIZE * 3), flush=True)
