#include "clibinput.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

static int open_restricted(const char *path, int flags, void *user_data) {
    struct clibinput_host *host = user_data;
    return host->open(host->context, path, flags);
}

static void close_restricted(int fd, void *user_data) {
    struct clibinput_host *host = user_data;
    host->close(host->context, fd);
}

static const struct libinput_interface interface = {
    .open_restricted = open_restricted,
    .close_restricted = close_restricted,
};

static void log_handler(struct libinput *libinput, enum libinput_log_priority priority, const char *format,
                        va_list args) {
    struct clibinput_host *host = libinput_get_user_data(libinput);
    if (host == NULL || host->log == NULL)
        return;
    char message[1024];
    vsnprintf(message, sizeof message, format, args);
    host->log(host->context, priority, message);
}

struct libinput *clibinput_path_context(struct clibinput_host *host) {
    struct libinput *libinput = libinput_path_create_context(&interface, host);
    if (libinput != NULL)
        libinput_log_set_handler(libinput, log_handler);
    return libinput;
}

struct libinput *clibinput_udev_context(struct clibinput_host *host, struct udev *udev) {
    struct libinput *libinput = libinput_udev_create_context(&interface, host, udev);
    if (libinput != NULL)
        libinput_log_set_handler(libinput, log_handler);
    return libinput;
}

int clibinput_evdev_abs(int fd, unsigned code, struct input_absinfo *absinfo) {
    if (code > ABS_MAX)
        return -EINVAL;
    return ioctl(fd, EVIOCGABS(code), absinfo) < 0 ? -errno : 0;
}

int clibinput_evdev_mt_slots(int fd, unsigned code, int32_t *buffer, size_t count) {
    if (count < 2 || code > ABS_MAX)
        return -EINVAL;
    buffer[0] = (int32_t)code;
    return ioctl(fd, EVIOCGMTSLOTS(count * sizeof(int32_t)), buffer) < 0 ? -errno : 0;
}

int clibinput_evdev_bits(int fd, unsigned type, uint8_t *bits, size_t length) {
    return ioctl(fd, EVIOCGBIT(type, length), bits) < 0 ? -errno : 0;
}

int clibinput_evdev_properties(int fd, uint8_t *bits, size_t length) {
    return ioctl(fd, EVIOCGPROP(length), bits) < 0 ? -errno : 0;
}

int clibinput_evdev_keys(int fd, uint8_t *bits, size_t length) {
    return ioctl(fd, EVIOCGKEY(length), bits) < 0 ? -errno : 0;
}

int clibinput_evdev_monotonic(int fd) {
    int clock = CLOCK_MONOTONIC;
    return ioctl(fd, EVIOCSCLOCKID, &clock) < 0 ? -errno : 0;
}

long clibinput_evdev_read(int fd, struct clibinput_evdev_event *events, size_t count) {
    struct input_event raw[64];
    size_t want = count < 64 ? count : 64;
    if (want == 0)
        return 0;
    ssize_t n = read(fd, raw, want * sizeof raw[0]);
    if (n < 0)
        return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -errno;
    /* evdev hands out whole events only. */
    size_t whole = (size_t)n / sizeof raw[0];
    for (size_t i = 0; i < whole; i++) {
        events[i].time_usec = (int64_t)raw[i].input_event_sec * 1000000 + raw[i].input_event_usec;
        events[i].type = raw[i].type;
        events[i].code = raw[i].code;
        events[i].value = raw[i].value;
    }
    return (long)whole;
}

/* MARK: haptic pressure pads */

_Static_assert(sizeof(struct clibinput_ff_haptic_effect) <= sizeof(((struct ff_effect *)0)->u),
               "the haptic effect fits struct ff_effect's union");

int clibinput_ff_has_haptic(int fd) {
    uint8_t bits[16] = {0}; /* FF_MAX + 1 bits: the size a recorded table answers */
    if (ioctl(fd, EVIOCGBIT(EV_FF, sizeof bits), bits) < 0)
        return -errno;
    return (bits[CLIBINPUT_FF_HAPTIC / 8] >> (CLIBINPUT_FF_HAPTIC % 8)) & 1;
}

int clibinput_ff_capacity(int fd) {
    int count = 0;
    return ioctl(fd, EVIOCGEFFECTS, &count) < 0 ? -errno : count;
}

int clibinput_ff_upload_haptic(int fd, uint16_t hid_usage, uint16_t intensity) {
    struct ff_effect effect;
    memset(&effect, 0, sizeof effect);
    effect.type = CLIBINPUT_FF_HAPTIC;
    effect.id = -1; /* a new effect: the kernel writes its id back */
    struct clibinput_ff_haptic_effect haptic = {.hid_usage = hid_usage, .intensity = intensity};
    memcpy(&effect.u, &haptic, sizeof haptic);
    if (ioctl(fd, EVIOCSFF, &effect) < 0)
        return -errno;
    return effect.id;
}

int clibinput_ff_erase(int fd, int id) { return ioctl(fd, EVIOCRMFF, id) < 0 ? -errno : 0; }

int clibinput_ff_play(int fd, int id, int value) {
    struct input_event event;
    memset(&event, 0, sizeof event);
    event.type = EV_FF;
    event.code = (uint16_t)id;
    event.value = value;
    ssize_t written = write(fd, &event, sizeof event);
    if (written < 0)
        return -errno;
    return written == (ssize_t)sizeof event ? 0 : -EIO;
}

size_t clibinput_ff_effect_size(void) { return sizeof(struct ff_effect); }
size_t clibinput_ff_union_offset(void) { return offsetof(struct ff_effect, u); }
size_t clibinput_ff_haptic_size(void) { return sizeof(struct clibinput_ff_haptic_effect); }
unsigned long clibinput_ioctl_eviocsff(void) { return EVIOCSFF; }
unsigned long clibinput_ioctl_eviocrmff(void) { return EVIOCRMFF; }
unsigned long clibinput_ioctl_eviocgeffects(void) { return EVIOCGEFFECTS; }
