"""Reads an emulated evdev node through the umockdev shim (run with it in LD_PRELOAD and
UMOCKDEV_DIR set) while a frame reaches the pty in pieces, as umockdev's frames can under
load, and prints what each read returned: the kernel's evdev never ends a read inside an
event, and libinput stops reading a device whose read did."""
import os
import select
import threading

from emulated_evdev import SIZE, frame, open_node
from emulated_evdev import read as read_from

master, name, node = open_node()


def wait_readable():
    # Data written to the master reaches the node through the line discipline's worker.
    os.set_blocking(node, True)
    select.select([node], [], [])
    os.set_blocking(node, False)


def read(count=SIZE * 16):
    return read_from(node, count)


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
