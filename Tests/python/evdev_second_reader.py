"""Reads an emulated evdev node through the umockdev shim in a noop session (run with it in
LD_PRELOAD, UMOCKDEV_DIR set and LIBSEAT_BACKEND=noop) from two descriptors: the compositor's
libinput's and a second, read-only one (the embedded library's). The kernel gives every
descriptor its own copy of the events; umockdev has one pty, so the shim hands the second
reader a copy of what the first read, and says SYN_DROPPED when its buffer overflowed, as the
kernel does. Prints what each read returned."""
import os
import select
import struct

EVENT = "llHHi"
SIZE = struct.calcsize(EVENT)

master, slave = os.openpty()
import tty

tty.setraw(slave)
name = os.ttyname(slave)
ptymap = os.path.join(os.environ["UMOCKDEV_DIR"], "dev", ".ptymap")
os.makedirs(ptymap, exist_ok=True)
os.symlink("13:64", os.path.join(ptymap, name.replace("/", "_")))
node = os.open(name, os.O_RDWR | os.O_NONBLOCK | os.O_NOCTTY)
second = os.open(name, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)


def frame(pressure):
    return struct.pack(EVENT, 1, 0, 3, 24, pressure) + struct.pack(EVENT, 1, 0, 0, 0, 0)


def read(fd, count=SIZE * 16):
    try:
        data = os.read(fd, count)
    except BlockingIOError:
        return "EAGAIN"
    except OSError as error:
        return os.strerror(error.errno)
    events = [struct.unpack(EVENT, data[i:i + SIZE])[2:] for i in range(0, len(data), SIZE)]
    return " ".join(f"{t}:{c}:{v}" for t, c, v in events)


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
