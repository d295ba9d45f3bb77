"""A compositor of protocol version 1, made from preview-compositor: a Wayland proxy that passes
every message and descriptor through unchanged, except that the registry's global for
spi_preview_interaction_manager_v1 says version 1. A client then binds version 1, and the
compositor serves it as a client of version 1, as an older compositor would."""
import array
import os
import socket
import struct
import threading

INTERFACE = b"spi_preview_interaction_manager_v1"
MAX_FDS = 28


class Direction(threading.Thread):
    def __init__(self, source, sink, registries, rewrite):
        super().__init__(daemon=True)
        self.source, self.sink, self.registries, self.rewrite = source, sink, registries, rewrite

    def run(self):
        pending, fds = b"", []
        try:
            while True:
                data, ancillary, _, _ = self.source.recvmsg(65536, socket.CMSG_SPACE(MAX_FDS * 4))
                for level, kind, payload in ancillary:
                    if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                        fds.extend(array.array("i", payload[:len(payload) - len(payload) % 4]))
                if not data:
                    break
                pending += data
                ready = b""
                while len(pending) >= 8:
                    sender, word = struct.unpack("=II", pending[:8])
                    size = word >> 16
                    if size < 8 or len(pending) < size:
                        break
                    message, pending = pending[:size], pending[size:]
                    ready += self.rewrite(sender, word & 0xFFFF, message, self.registries)
                if ready:
                    ancillary = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))] if fds else []
                    self.sink.sendmsg([ready], ancillary)
                    for fd in fds:
                        os.close(fd)
                    fds = []
        except OSError:
            pass
        finally:
            for end in (self.source, self.sink):
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass


def from_client(sender, opcode, message, registries):
    if sender == 1 and opcode == 1 and len(message) >= 12:  # wl_display.get_registry(new_id)
        registries.add(struct.unpack("=I", message[8:12])[0])
    return message


def from_compositor(sender, opcode, message, registries):
    if sender in registries and opcode == 0 and len(message) >= 16:  # wl_registry.global
        length = struct.unpack("=I", message[12:16])[0]
        if message[16:16 + length].rstrip(b"\0") == INTERFACE:
            return message[:-4] + struct.pack("=I", 1)
    return message


def start(runtime, upstream, name):
    """Listens on `name` in `runtime` and forwards each client to the compositor's `upstream`."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(os.path.join(runtime, name))
    listener.listen(8)

    def accept():
        while True:
            client, _ = listener.accept()
            compositor = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            compositor.connect(os.path.join(runtime, upstream))
            registries = set()
            Direction(client, compositor, registries, from_client).start()
            Direction(compositor, client, registries, from_compositor).start()

    threading.Thread(target=accept, daemon=True).start()
    return listener
