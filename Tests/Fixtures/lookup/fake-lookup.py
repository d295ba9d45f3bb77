#!/usr/bin/python3
"""A stand-in for preview-lookup, for tests of the host core's Look Up: it answers every
question on the private channel (descriptor 4) with the word FAKE_LOOKUP_WORD (default "word",
"-" for nothing there) at extents 10,10 60x20, and keeps its Wayland connection (descriptor 3)
open without using it (so it makes no panel), answering FAKE_LOOKUP_DELAY_MS after it read the
question (default 0: at once; a slow lookup, for the deadline's tests). Frames: a little-endian
u32 length, then the body.
"""

import os
import struct
import time

WORD = os.environ.get("FAKE_LOOKUP_WORD", "word")
DELAY = int(os.environ.get("FAKE_LOOKUP_DELAY_MS", "0")) / 1000


def string(text):
    data = text.encode()
    return struct.pack("<H", len(data)) + data


def answer(lookup):
    kind = 0 if WORD == "-" else 1
    body = struct.pack("<IIIiiIII", 101, lookup, kind, 10, 10, 60, 20, 1000)
    body += string("fake 1") + string("" if kind == 0 else WORD) + string("") + string("noun: a fake")
    return struct.pack("<I", len(body)) + body


def main():
    buffer = b""
    while True:
        data = os.read(4, 4096)
        if not data:
            return
        buffer += data
        while len(buffer) >= 4:
            (length,) = struct.unpack("<I", buffer[:4])
            if len(buffer) < 4 + length:
                break
            body, buffer = buffer[4 : 4 + length], buffer[4 + length :]
            (kind,) = struct.unpack("<I", body[:4])
            if kind in (1, 3):  # LOOKUP, LOOKUP_CARET
                (lookup,) = struct.unpack("<I", body[4:8])
                time.sleep(DELAY)
                os.write(4, answer(lookup))


main()
