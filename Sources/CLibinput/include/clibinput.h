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
/* EVIOCGKEY: the keys and buttons down now. */
int clibinput_evdev_keys(int fd, uint8_t *bits, size_t length);

/* One evdev event as read from an fd, its time in microseconds of the fd's clock. */
struct clibinput_evdev_event {
    int64_t time_usec;
    uint16_t type;
    uint16_t code;
    int32_t value;
};

/* EVIOCSCLOCKID(CLOCK_MONOTONIC): the fd's events stamped on libinput's clock. 0 or a negative errno. */
int clibinput_evdev_monotonic(int fd);
/* Reads whole events (non-blocking fd) into events[0...count-1]: how many, 0 when none is
 * queued, or a negative errno. */
long clibinput_evdev_read(int fd, struct clibinput_evdev_event *events, size_t count);

/* Haptic pressure pads (Linux 6.18 uapi; older headers, Debian 12's 6.1 among them, lack it).
 * struct ff_effect keeps its size: the haptic effect lives in its union. */
#define CLIBINPUT_FF_HAPTIC 0x4f

struct clibinput_ff_haptic_effect {
    uint16_t hid_usage;           /* Haptics page usage: WAVEFORM_PRESS 0x1006, ... */
    uint16_t vendor_id;           /* vendor-range usages only */
    uint8_t vendor_waveform_page; /* vendor-range usages only */
    uint16_t intensity;           /* percent */
    uint16_t repeat_count;
    uint16_t retrigger_period;    /* ms */
};

/* 1 when the device reports FF_HAPTIC in EV_FF, 0 when not, a negative errno on failure. */
int clibinput_ff_has_haptic(int fd);
/* EVIOCGEFFECTS: how many effects the device can hold, or a negative errno. */
int clibinput_ff_capacity(int fd);
/* EVIOCSFF of a new FF_HAPTIC effect: its id, or a negative errno. */
int clibinput_ff_upload_haptic(int fd, uint16_t hid_usage, uint16_t intensity);
/* EVIOCRMFF: 0 or a negative errno. */
int clibinput_ff_erase(int fd, int id);
/* write() of EV_FF id value (1 plays, 0 stops): 0 or a negative errno. */
int clibinput_ff_play(int fd, int id, int value);

/* The layout we rely on, for the test that checks it against the uapi. */
size_t clibinput_ff_effect_size(void);
size_t clibinput_ff_union_offset(void);
size_t clibinput_ff_haptic_size(void);
unsigned long clibinput_ioctl_eviocsff(void);
unsigned long clibinput_ioctl_eviocrmff(void);
unsigned long clibinput_ioctl_eviocgeffects(void);
