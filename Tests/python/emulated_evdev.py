"""An evdev node emulated through the umockdev shim (run with it in LD_PRELOAD and UMOCKDEV_DIR
set): a pty the shim takes for an input device, its frames, and what one read of it returned."""
import os
import struct
import tty

EVENT = "llHHi"
SIZE = struct.calcsize(EVENT)


def open_node():
    """A pty registered as input device 13:64: (its master, its name, a non-blocking descriptor)."""
    master, slave = os.openpty()
    tty.setraw(slave)
    name = os.ttyname(slave)
    ptymap = os.path.join(os.environ["UMOCKDEV_DIR"], "dev", ".ptymap")
    os.makedirs(ptymap, exist_ok=True)
    os.symlink("13:64", os.path.join(ptymap, name.replace("/", "_")))
    return master, name, os.open(name, os.O_RDWR | os.O_NONBLOCK | os.O_NOCTTY)


def frame(pressure):
    """ABS_PRESSURE then SYN_REPORT."""
    return struct.pack(EVENT, 1, 0, 3, 24, pressure) + struct.pack(EVENT, 1, 0, 0, 0, 0)


def read(fd, count=SIZE * 16):
    """One read, as `type:code:value` words, `EAGAIN`, the error, or the byte count of a read
    that ended inside an event."""
    try:
        data = os.read(fd, count)
    except BlockingIOError:
        return "EAGAIN"
    except OSError as error:
        return os.strerror(error.errno)
    if len(data) % SIZE:
        return f"{len(data)} bytes"
    events = [struct.unpack(EVENT, data[i:i + SIZE])[2:] for i in range(0, len(data), SIZE)]
    return " ".join(f"{t}:{c}:{v}" for t, c, v in events)
