"""Reads an emulated evdev node through the umockdev shim (run with it in LD_PRELOAD and
UMOCKDEV_DIR set) while a frame reaches the pty in pieces, as umockdev's frames can under
load, and prints what each read returned: the kernel's evdev never ends a read inside an
event, and libinput stops reading a device whose read did."""
import os
import struct
import threading
import tty

EVENT = "llHHi"
SIZE = struct.calcsize(EVENT)

master, slave = os.openpty()
tty.setraw(slave)
name = os.ttyname(slave)
ptymap = os.path.join(os.environ["UMOCKDEV_DIR"], "dev", ".ptymap")
os.makedirs(ptymap, exist_ok=True)
os.symlink("13:64", os.path.join(ptymap, name.replace("/", "_")))
node = os.open(name, os.O_RDWR | os.O_NONBLOCK | os.O_NOCTTY)


def frame(pressure):
    return struct.pack(EVENT, 1, 0, 3, 24, pressure) + struct.pack(EVENT, 1, 0, 0, 0, 0)


def wait_readable():
    # Data written to the master reaches the node through the line discipline's worker.
    os.set_blocking(node, True)
    import select
    select.select([node], [], [])
    os.set_blocking(node, False)


def read(count=SIZE * 16):
    try:
        data = os.read(node, count)
    except BlockingIOError:
        return "EAGAIN"
    except OSError as error:
        return os.strerror(error.errno)
    if len(data) % SIZE:
        return f"{len(data)} bytes"
    events = [struct.unpack(EVENT, data[i:i + SIZE])[2:] for i in range(0, len(data), SIZE)]
    return " ".join(f"{t}:{c}:{v}" for t, c, v in events)


print("short buffer:", read(SIZE - 1), flush=True)
first = frame(94)
os.write(master, first[:10])
wait_readable()
print("part of an event:", read(), flush=True)
os.write(master, first[10:] + frame(95))
wait_readable()
print("its rest:", read(), flush=True)

# A blocking reader waits for the rest of the event it is inside.
second = frame(96)
os.write(master, second[:30])
wait_readable()
os.set_blocking(node, True)
rest = threading.Thread(target=lambda: os.write(master, second[30:]))
rest.start()
print("blocking:", read(), flush=True)
rest.join()
