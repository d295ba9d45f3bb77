/* Force feedback as the 6.18 kernel does it, for the testbed (forcefeedback.h):
 * - EVIOCGEFFECTS: the device's effect capacity when it reports EV_FF, else 0;
 * - EVIOCSFF: EINVAL unless the ioctl size is sizeof(struct ff_effect) and the type is one the
 *   device reports in EV_FF; id -1 takes the first free slot (ENOSPC when none) and the id is
 *   written back; a given id must be one this file owns (EINVAL / EACCES otherwise);
 * - EVIOCRMFF: EINVAL for an unknown id, EACCES for another file's;
 * - write(EV_FF): plays (value 1) or stops (0) an effect, silently ignored for an id no
 *   file owns, like input_ff_event;
 * - close(): erases what the fd uploaded (input_ff_flush).
 * "File" here is the fd in this process: the testbed's processes do not share evdev files. */
#define _GNU_SOURCE
#include "forcefeedback.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define SHIM_FF_EFFECTS 16
#define SHIM_FF_DEVICES 16

struct ff_device {
    dev_t rdev;
    bool used;
    int owner[SHIM_FF_EFFECTS]; /* fd + 1 of the uploader, 0 when free */
};

static struct ff_device devices[SHIM_FF_DEVICES];

static int64_t now_us(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000 + now.tv_nsec / 1000;
}

static void log_line(const char *format, ...) __attribute__((format(printf, 1, 2)));
static void log_line(const char *format, ...) {
    const char *path = getenv("PREVIEW_FF_LOG");
    if (path == NULL || *path == '\0')
        return;
    char line[256];
    int prefix = snprintf(line, sizeof line, "%lld pid %d ", (long long)now_us(), (int)getpid());
    va_list args;
    va_start(args, format);
    vsnprintf(line + prefix, sizeof line - (size_t)prefix, format, args);
    va_end(args);
    size_t length = strnlen(line, sizeof line - 2);
    line[length++] = '\n';
    /* Our own open/write, not the wrapped ones: this file is no device. */
    int (*next_open)(const char *, int, ...) = dlsym(RTLD_NEXT, "open");
    ssize_t (*next_write)(int, const void *, size_t) = dlsym(RTLD_NEXT, "write");
    int (*next_close)(int) = dlsym(RTLD_NEXT, "close");
    int fd = next_open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return;
    (void)!next_write(fd, line, length);
    next_close(fd);
}

static struct ff_device *device_for(dev_t rdev) {
    for (int i = 0; i < SHIM_FF_DEVICES; i++)
        if (devices[i].used && devices[i].rdev == rdev)
            return &devices[i];
    for (int i = 0; i < SHIM_FF_DEVICES; i++)
        if (!devices[i].used) {
            devices[i].used = true;
            devices[i].rdev = rdev;
            return &devices[i];
        }
    return NULL;
}

/* The device's bits of one event type, from umockdev's recorded table. */
static bool has_bit(int fd, unsigned type, unsigned code) {
    uint8_t bits[16] = {0};
    int (*next)(int, unsigned long, void *) = dlsym(RTLD_NEXT, "ioctl");
    size_t size = type == 0 ? 8 : 16;
    if (next(fd, EVIOCGBIT(type, size), bits) < 0)
        return false;
    return code / 8 < size && (bits[code / 8] >> (code % 8)) & 1;
}

static int check_access(struct ff_device *device, int fd, int id) {
    if (id < 0 || id >= SHIM_FF_EFFECTS || device->owner[id] == 0)
        return -EINVAL;
    if (device->owner[id] != fd + 1)
        return -EACCES;
    return 0;
}

bool shim_ff_ioctl(int fd, dev_t rdev, unsigned long request, void *arg, int *result) {
    unsigned nr = _IOC_NR(request);
    if (_IOC_TYPE(request) != 'E')
        return false;
    bool effects = request == EVIOCGEFFECTS;
    bool upload = nr == _IOC_NR(EVIOCSFF) && _IOC_DIR(request) == _IOC_WRITE;
    bool erase = request == EVIOCRMFF;
    if (!effects && !upload && !erase)
        return false;
    struct ff_device *device = device_for(rdev);
    bool has_ff = has_bit(fd, 0, EV_FF);
    if (effects) {
        int count = has_ff ? SHIM_FF_EFFECTS : 0;
        memcpy(arg, &count, sizeof count);
        log_line("fd %d EVIOCGEFFECTS %d", fd, count);
        *result = 0;
        return true;
    }
    int rc = 0;
    if (device == NULL) {
        rc = -ENOMEM;
    } else if (erase) {
        int id = (int)(intptr_t)arg;
        rc = check_access(device, fd, id);
        if (rc == 0)
            device->owner[id] = 0;
        log_line("fd %d EVIOCRMFF id %d rc %d", fd, id, rc);
    } else if (_IOC_SIZE(request) != sizeof(struct ff_effect)) {
        rc = -EINVAL;
        log_line("fd %d EVIOCSFF size %u rc %d", fd, (unsigned)_IOC_SIZE(request), rc);
    } else {
        struct ff_effect effect;
        memcpy(&effect, arg, sizeof effect);
        uint16_t usage, intensity;
        memcpy(&usage, (const char *)&effect.u, sizeof usage);
        memcpy(&intensity, (const char *)&effect.u + 6, sizeof intensity);
        if (!has_ff) {
            rc = -ENOSYS;
        } else if (effect.type > FF_MAX || !has_bit(fd, EV_FF, effect.type)) {
            rc = -EINVAL;
        } else if (effect.id == -1) {
            rc = -ENOSPC;
            for (int id = 0; id < SHIM_FF_EFFECTS; id++)
                if (device->owner[id] == 0) {
                    device->owner[id] = fd + 1;
                    effect.id = (int16_t)id;
                    ((struct ff_effect *)arg)->id = effect.id;
                    rc = 0;
                    break;
                }
        } else {
            rc = check_access(device, fd, effect.id);
        }
        log_line("fd %d EVIOCSFF type 0x%x id %d usage 0x%x intensity %u rc %d", fd, effect.type, effect.id,
                 usage, intensity, rc);
    }
    *result = rc < 0 ? (errno = -rc, -1) : 0;
    return true;
}

bool shim_ff_write(int fd, dev_t rdev, const void *buffer, size_t count, ssize_t *result) {
    if (count == 0 || count % sizeof(struct input_event) != 0)
        return false;
    const struct input_event *events = buffer;
    size_t n = count / sizeof(struct input_event);
    for (size_t i = 0; i < n; i++)
        if (events[i].type != EV_FF)
            return false;
    struct ff_device *device = device_for(rdev);
    for (size_t i = 0; i < n; i++) {
        bool owned = device != NULL && events[i].code < SHIM_FF_EFFECTS && device->owner[events[i].code] != 0;
        log_line("fd %d EV_FF id %u value %d%s", fd, events[i].code, events[i].value, owned ? "" : " ignored");
    }
    *result = (ssize_t)count;
    return true;
}

void shim_ff_opened(int fd, const char *path, int flags) {
    const char *wanted = getenv("PREVIEW_FF_LOG_OPENS");
    if (wanted != NULL && strcmp(wanted, "1") == 0)
        log_line("fd %d open %s cloexec %d", fd, path, (flags & O_CLOEXEC) != 0);
}

void shim_ff_close(int fd) {
    for (int d = 0; d < SHIM_FF_DEVICES; d++) {
        if (!devices[d].used)
            continue;
        for (int id = 0; id < SHIM_FF_EFFECTS; id++)
            if (devices[d].owner[id] == fd + 1) {
                devices[d].owner[id] = 0;
                log_line("fd %d close erases id %d", fd, id);
            }
    }
}
