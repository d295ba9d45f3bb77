/* The one C bridge to libinput, libudev and the evdev ioctls. Swift cannot expand the
 * ioctl request macros (EVIOCGABS(code) and friends) nor implement libinput's va_list
 * log handler, and libinput's open/close callbacks need a trampoline to reach the host. */
#pragma once

#include <libinput.h>
#include <libudev.h>
#include <linux/input.h>
#include <stddef.h>
#include <stdint.h>

/* What the host does for libinput: open a device node (a compositor routes this through
 * logind or libseat), close it, and receive libinput's log lines. `open` returns an fd
 * or a negative errno. The struct must outlive the libinput context it was given to. */
struct clibinput_host {
    int (*open)(void *context, const char *path, int flags);
    void (*close)(void *context, int fd);
    void (*log)(void *context, enum libinput_log_priority priority, const char *message);
    void *context;
};

/* A path-backend context (devices added explicitly), logging through the host. */
struct libinput *clibinput_path_context(struct clibinput_host *host);

/* A udev-backend context, not yet assigned to a seat. */
struct libinput *clibinput_udev_context(struct clibinput_host *host, struct udev *udev);

/* evdev state of an fd the host opened. All return 0 or a negative errno. */
int clibinput_evdev_abs(int fd, unsigned code, struct input_absinfo *absinfo);
/* buffer[0] is set to code; buffer[1...count-1] receive the per-slot values. */
int clibinput_evdev_mt_slots(int fd, unsigned code, int32_t *buffer, size_t count);
int clibinput_evdev_bits(int fd, unsigned type, uint8_t *bits, size_t length);
int clibinput_evdev_properties(int fd, uint8_t *bits, size_t length);
