/* Test support: preloaded into a process running under umockdev-run (see docs/testing.md).
 * It exports only libc's own symbols (fstat, fstat64, __fxstat, __fxstat64, ioctl, read,
 * write, close), plus the measurements below. At exit it writes how many frames it read,
 * and how many reads ended inside an event, to standard error. */
#pragma once

#include <stdint.h>

/* Measurements for the testbed runner (looked up with dlsym): how late (µs) the latest-read
 * frame of an emulated evdev fd was read after its timestamp, and how many frames were read
 * so late that libinput's 50 ms tablet timer could have fired before them. */
int64_t umockdev_shim_worst_lateness_us(void);
int64_t umockdev_shim_frames_at_risk(void);
/* Frames (SYN_REPORTs) read from emulated evdev fds. */
int64_t umockdev_shim_frames_read(void);
