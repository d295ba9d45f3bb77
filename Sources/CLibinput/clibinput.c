#include "clibinput.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/ioctl.h>

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
