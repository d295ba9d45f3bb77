/* The kernel's force-feedback side of an emulated evdev device (Linux 6.18 semantics), for
 * the testbed: umockdev 0.17.16 has none. Every call is appended to $PREVIEW_FF_LOG. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Answers EVIOCGEFFECTS, EVIOCSFF and EVIOCRMFF on an emulated evdev fd of device `rdev`.
 * False when the request is none of them (the caller passes it on). */
bool shim_ff_ioctl(int fd, dev_t rdev, unsigned long request, void *arg, int *result);
/* A write of EV_FF events (play/stop): true and *result set when the write was all EV_FF. */
bool shim_ff_write(int fd, dev_t rdev, const void *buffer, size_t count, ssize_t *result);
/* The fd is closed: the effects it uploaded are erased (input_ff_flush). */
void shim_ff_close(int fd);
/* An input device node was opened as `fd` with `flags`: logged (with PREVIEW_FF_LOG_OPENS=1)
 * with whether it is close-on-exec from its open (what a child started at any moment inherits). */
void shim_ff_opened(int fd, const char *path, int flags);
