#pragma once
#include <stddef.h>

/* Sends `length` bytes on a socket, with `fd` as SCM_RIGHTS ancillary data when fd >= 0.
 * MSG_NOSIGNAL|MSG_DONTWAIT: a compositor that dropped the client is EPIPE, not SIGPIPE.
 * Returns bytes sent or -1. */
long fuzz_send(int socket, const void *bytes, size_t length, int fd);

/* An anonymous shared file of `size` bytes (memfd), or -1. */
int fuzz_memfd(long size);

/* Receives what is there without blocking; received fds (keymaps) are closed at once.
 * Returns bytes received, 0 at end of stream, -1 when nothing is there or on error. */
long fuzz_receive(int socket, void *bytes, size_t capacity);

#include <stdint.h>

/* libFuzzer's driver, for targets with their own main (SwiftPM names it <target>_main). */
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

/* libwayland-server logs every client it disconnects to stderr: quiet, for the fuzzer's output. */
void fuzz_quiet_libwayland(void);

/* Look Up's stand-in (FuzzLookupStandIn) hands its channel to the fuzzer over an abstract
 * socket: this listens on it and names it in FUZZ_LOOKUP_SOCKET for the children. Returns the
 * listening descriptor or -1. */
int fuzz_lookup_listen(void);

/* The channel of a stand-in that connected within `timeout_ms` (0: only one already there), or
 * -1. `*keep`: its connection, which ends it when closed. */
int fuzz_lookup_accept(int listener, int timeout_ms, int *keep);

/* Closes a descriptor the fuzzer took. */
void fuzz_close(int fd);
