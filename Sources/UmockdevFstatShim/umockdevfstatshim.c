/* Closes gaps of umockdev 0.17.16 for the real libinput (docs/testing.md).
 *
 * 1. fstat: umockdev backs an emulated /dev/input/eventN with a pty and does not wrap
 *    fstat(), so st_rdev is the pty's and libinput rejects the fd ("device node does not
 *    match"). For an fd whose /proc/self/fd link is /dev/pts/N we report S_IFCHR and the
 *    major:minor umockdev recorded in $UMOCKDEV_DIR/dev/.ptymap/_dev_pts_N.
 *
 * 2. evdev state: umockdev answers EVIOCGABS / EVIOCGMTSLOTS / EVIOCGKEY from a static
 *    table, while the kernel updates that state with every event. The libinput backend reads
 *    touch pressure from it, and libevdev re-reads all of it after a SYN_DROPPED (a table
 *    saying "every key up" takes the pen out of proximity and loses the next stroke). So we
 *    keep a shadow of the ABS and key state of every emulated evdev fd, fed by the events the
 *    process reads (read-only observation: nothing is consumed), and answer the value part of
 *    those ioctls from it.
 *    This must come before umockdev's preload in LD_PRELOAD so our ioctl() sees the call.
 *
 * 3. force feedback (forcefeedback.c): EVIOCGEFFECTS, EVIOCSFF, EVIOCRMFF and EV_FF writes
 *    answered as the 6.18 kernel does, every call logged to $PREVIEW_FF_LOG.
 *
 * 4. a session for a wlroots compositor (scripts/sway-headless): libseat 0.7's noop backend,
 *    where the compositor opens its devices itself (so umockdev sees the open and emulates
 *    the node), never enables its seat (its first-dispatch flag is never set), and wlroots
 *    waits for that; and it opens nodes blocking, where a seat manager's are non-blocking
 *    (libinput reads until EAGAIN). With LIBSEAT_BACKEND=noop we enable the seat when it
 *    opens, and open emulated /dev/input nodes non-blocking. A keyboard's LED writes are
 *    taken as the kernel takes them (umockdev's script would fail on them), and a second,
 *    read-only descriptor of a node reads its own copy of what libinput read (see
 *    second_reader).
 *
 * 5. a stream that waits for its compositor (libinput-testbed-runner play --ready-file): the
 *    script's frames are stamped before the compositor starts; the runner releases them once
 *    its client is ready and writes the delay (µs) to $PREVIEW_TESTBED_SHIFT_FILE before the
 *    first. Every event read from an emulated node is moved by it (see stream_shift).
 *
 * 6. whole events: a pty read can end inside an event, which the kernel's evdev never does
 *    and libinput cannot survive (see read_whole_events).
 */
#define _GNU_SOURCE
#include "umockdevfstatshim.h"
#include "forcefeedback.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/input.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

/* The kernel's MT slot limit for one device is far below this. */
#define SHIM_MAX_FDS 1024
#define SHIM_MAX_SLOTS 64
#define SHIM_MT_FIRST ABS_MT_SLOT
#define SHIM_MT_COUNT (ABS_MAX - ABS_MT_SLOT + 1)

enum fd_kind { FD_UNKNOWN = 0, FD_OTHER, FD_EVDEV };

/* The ABS state of one emulated device, as the kernel keeps it: per device, so every fd
 * of the node (a compositor's libinput and an embedded library's own read-only fd) sees the
 * same state, fed by the events any of them reads. */
struct evdev_state {
    dev_t rdev;
    bool known[ABS_CNT];
    int32_t abs[ABS_CNT];
    int32_t slot;
    int32_t mt[SHIM_MAX_SLOTS][SHIM_MT_COUNT];
    unsigned char keys[KEY_CNT / 8];
};

#define SHIM_MAX_DEVICES 16

/* A second reader's events (second_reader): the kernel's per-descriptor buffer, as big. */
#define SHIM_COPY_CAPACITY 1024
struct event_copies {
    struct input_event events[SHIM_COPY_CAPACITY];
    size_t head, count;
};

struct evdev_shadow {
    struct evdev_state *state;
    /* The start of an event a read of this fd ended inside (read_whole_events). */
    unsigned char pending[sizeof(struct input_event)];
    size_t pending_len;
    /* A second reader's copies of the events the compositor's libinput read (NULL otherwise). */
    struct event_copies *copies;
};

static struct evdev_state *device_states[SHIM_MAX_DEVICES];

static struct evdev_state *state_for(dev_t rdev) {
    for (int i = 0; i < SHIM_MAX_DEVICES; i++) {
        if (device_states[i] != NULL && device_states[i]->rdev == rdev)
            return device_states[i];
    }
    for (int i = 0; i < SHIM_MAX_DEVICES; i++) {
        if (device_states[i] == NULL) {
            device_states[i] = calloc(1, sizeof(struct evdev_state));
            if (device_states[i] == NULL)
                return NULL;
            device_states[i]->rdev = rdev;
            for (int s = 0; s < SHIM_MAX_SLOTS; s++)
                device_states[i]->mt[s][ABS_MT_TRACKING_ID - SHIM_MT_FIRST] = -1;
            return device_states[i];
        }
    }
    return NULL;
}

static enum fd_kind kinds[SHIM_MAX_FDS];
/* How late libinput read its input, per frame (SYN_REPORT), CLOCK_MONOTONIC µs. A frame is
 * "at risk" when it came less than 50 ms after the previous one but was read 49 ms or more
 * after it: libinput's 50 ms tablet proximity timer may then have fired first, which real
 * hardware's timing would not have allowed. A frame older than its predecessor (umockdev
 * restarted the script) counts too. */
static int64_t worst_lateness_us;
static int64_t previous_frame_us = -1;
static int64_t frames_at_risk;
static int64_t frames_read;
/* Reads that ended inside an event (read_whole_events kept the part). */
static int64_t partial_reads;
static struct evdev_shadow *shadows[SHIM_MAX_FDS];

#define NEXT(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

/* Reads the major:minor umockdev mapped onto the pty behind fd. False when fd is not
 * an emulated device node. */
static bool emulated_rdev(int fd, dev_t *rdev) {
    const char *dir = getenv("UMOCKDEV_DIR");
    if (dir == NULL || fd < 0)
        return false;
    char link[64], target[PATH_MAX];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, target, sizeof target - 1);
    if (n <= 0)
        return false;
    target[n] = '\0';
    if (strncmp(target, "/dev/pts/", 9) != 0)
        return false;
    char map[PATH_MAX], numbers[64];
    snprintf(map, sizeof map, "%s/dev/.ptymap/_dev_pts_%s", dir, target + 9);
    n = readlink(map, numbers, sizeof numbers - 1);
    if (n <= 0)
        return false;
    numbers[n] = '\0';
    unsigned major_number, minor_number;
    if (sscanf(numbers, "%u:%u", &major_number, &minor_number) != 2)
        return false;
    *rdev = makedev(major_number, minor_number);
    return true;
}

static void patch_stat(int fd, struct stat *st) {
    dev_t rdev;
    if (emulated_rdev(fd, &rdev)) {
        st->st_rdev = rdev;
        st->st_mode = (st->st_mode & ~S_IFMT) | S_IFCHR;
    }
}

static void patch_stat64(int fd, struct stat64 *st) {
    dev_t rdev;
    if (emulated_rdev(fd, &rdev)) {
        st->st_rdev = rdev;
        st->st_mode = (st->st_mode & ~S_IFMT) | S_IFCHR;
    }
}

int fstat(int fd, struct stat *st) {
    int rc = NEXT(fstat)(fd, st);
    if (rc == 0)
        patch_stat(fd, st);
    return rc;
}

int fstat64(int fd, struct stat64 *st) {
    int rc = NEXT(fstat64)(fd, st);
    if (rc == 0)
        patch_stat64(fd, st);
    return rc;
}

/* Whether path is an emulated /dev/input node (umockdev made it a link to a pty) opened by
 * libseat's noop backend. */
static bool noop_session_node(const char *path) {
    const char *dir = getenv("UMOCKDEV_DIR"), *backend = getenv("LIBSEAT_BACKEND");
    if (dir == NULL || backend == NULL || strcmp(backend, "noop") != 0 || path == NULL ||
        strncmp(path, "/dev/input/", 11) != 0)
        return false;
    char node[PATH_MAX], target[PATH_MAX];
    snprintf(node, sizeof node, "%s%s", dir, path);
    ssize_t n = readlink(node, target, sizeof target - 1);
    return n > 9 && strncmp(target, "/dev/pts/", 9) == 0;
}

static bool second_reader(int fd);
static struct evdev_shadow *shadow_for(int fd);

static int open_node(const char *path, int flags, va_list arguments, bool large) {
    mode_t mode = (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? va_arg(arguments, mode_t) : 0;
    if (noop_session_node(path))
        flags |= O_NONBLOCK;
    int fd = large ? NEXT(open64)(path, flags, mode) : NEXT(open)(path, flags, mode);
    if (fd >= 0 && path != NULL && strncmp(path, "/dev/input/", 11) == 0)
        shim_ff_opened(fd, path, flags);
    /* A second reader's copies start at its open, as the kernel's buffer of a new descriptor. */
    if (fd >= 0 && second_reader(fd) && shadows[fd]->copies == NULL)
        shadows[fd]->copies = calloc(1, sizeof(struct event_copies));
    return fd;
}

int open(const char *path, int flags, ...) {
    va_list arguments;
    va_start(arguments, flags);
    int fd = open_node(path, flags, arguments, false);
    va_end(arguments);
    return fd;
}

int open64(const char *path, int flags, ...) {
    va_list arguments;
    va_start(arguments, flags);
    int fd = open_node(path, flags, arguments, true);
    va_end(arguments);
    return fd;
}

struct libseat;
struct libseat_listener {
    void (*enable_seat)(struct libseat *seat, void *data);
};
struct libseat *libseat_open_seat(const struct libseat_listener *listener, void *data);
struct libseat *libseat_open_seat(const struct libseat_listener *listener, void *data) {
    struct libseat *seat = NEXT(libseat_open_seat)(listener, data);
    const char *backend = getenv("LIBSEAT_BACKEND");
    if (seat != NULL && listener != NULL && backend != NULL && strcmp(backend, "noop") == 0)
        listener->enable_seat(seat, data);
    return seat;
}

/* Binaries built against glibc < 2.33 call these instead. */
int __fxstat(int version, int fd, struct stat *st) {
    int (*next)(int, int, struct stat *) = dlsym(RTLD_NEXT, "__fxstat");
    if (next == NULL) {
        errno = ENOSYS;
        return -1;
    }
    int rc = next(version, fd, st);
    if (rc == 0)
        patch_stat(fd, st);
    return rc;
}

int __fxstat64(int version, int fd, struct stat64 *st) {
    int (*next)(int, int, struct stat64 *) = dlsym(RTLD_NEXT, "__fxstat64");
    if (next == NULL) {
        errno = ENOSYS;
        return -1;
    }
    int rc = next(version, fd, st);
    if (rc == 0)
        patch_stat64(fd, st);
    return rc;
}

/* MARK: evdev state shadow */

static struct evdev_shadow *shadow_for(int fd) {
    if (fd < 0 || fd >= SHIM_MAX_FDS)
        return NULL;
    if (kinds[fd] == FD_UNKNOWN) {
        dev_t rdev;
        /* 13 is the input major; the evdev minors start at 64. */
        bool evdev = emulated_rdev(fd, &rdev) && major(rdev) == 13 && minor(rdev) >= 64;
        kinds[fd] = evdev ? FD_EVDEV : FD_OTHER;
        if (evdev) {
            shadows[fd] = calloc(1, sizeof(struct evdev_shadow));
            struct evdev_state *state = shadows[fd] ? state_for(rdev) : NULL;
            if (state == NULL) {
                free(shadows[fd]);
                shadows[fd] = NULL;
                kinds[fd] = FD_OTHER;
                return NULL;
            }
            shadows[fd]->state = state;
        }
    }
    return kinds[fd] == FD_EVDEV ? shadows[fd] : NULL;
}

static void forget(int fd) {
    if (fd < 0 || fd >= SHIM_MAX_FDS)
        return;
    if (shadows[fd] != NULL)
        free(shadows[fd]->copies);
    free(shadows[fd]);
    shadows[fd] = NULL;
    kinds[fd] = FD_UNKNOWN;
}

int64_t umockdev_shim_worst_lateness_us(void) { return worst_lateness_us; }
int64_t umockdev_shim_frames_at_risk(void) { return frames_at_risk; }
int64_t umockdev_shim_frames_read(void) { return frames_read; }

/* A run's log then says whether a host that stopped acting had stopped getting frames (the
 * stream's end) or not (the host's own doing). Only in processes that read an emulated node. */
__attribute__((destructor)) static void report_frames_read(void) {
    if (frames_read > 0)
        fprintf(stderr, "umockdev shim: %lld frames read, %lld reads ended inside an event\n", (long long)frames_read,
            (long long)partial_reads);
}

static void note_frame(const struct input_event *ev) {
    if (ev->type != EV_SYN || ev->code != SYN_REPORT)
        return;
    frames_read++;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    int64_t read_at = (int64_t)now.tv_sec * 1000000 + now.tv_nsec / 1000;
    int64_t stamp = (int64_t)ev->input_event_sec * 1000000 + ev->input_event_usec;
    if (read_at - stamp > worst_lateness_us)
        worst_lateness_us = read_at - stamp;
    if (previous_frame_us >= 0 && stamp - previous_frame_us < 50000 && read_at - previous_frame_us >= 49000)
        frames_at_risk++;
    /* Time going backwards: umockdev restarted the script from its first line (its script
     * runner does that when a read of the pty master fails). Nothing after that is the
     * recording any more. */
    if (previous_frame_us >= 0 && stamp < previous_frame_us)
        frames_at_risk++;
    previous_frame_us = stamp;
}

/* The stream's delay (feature 5), read once the runner has written it: no frame is released
 * before that, so a read that finds no file yet reads no event either. -1: not known yet. */
static int64_t stream_shift_us = -1;

static int64_t stream_shift(void) {
    if (stream_shift_us >= 0)
        return stream_shift_us;
    const char *path = getenv("PREVIEW_TESTBED_SHIFT_FILE");
    if (path == NULL) {
        stream_shift_us = 0;
        return 0;
    }
    FILE *file = fopen(path, "re");
    if (file == NULL)
        return 0;
    long long value;
    if (fscanf(file, "%lld", &value) == 1 && value >= 0)
        stream_shift_us = value;
    fclose(file);
    return stream_shift_us < 0 ? 0 : stream_shift_us;
}

/* Moves the time of the event starting at bytes[0] (a whole struct timeval there), and
 * normalises it: the script writes some as (seconds - 1, microseconds + 1,000,000), where
 * umockdev would drop a leading byte (TestbedScript). */
static void shift_event_time(unsigned char *bytes) {
    int64_t shift = stream_shift();
    struct input_event ev;
    memcpy(&ev, bytes, sizeof(ev.time));
    int64_t stamp = (int64_t)ev.input_event_sec * 1000000 + ev.input_event_usec + shift;
    ev.input_event_sec = stamp / 1000000;
    ev.input_event_usec = stamp % 1000000;
    memcpy(bytes, &ev, sizeof(ev.time));
}

static void observe(struct evdev_state *shadow, const struct input_event *ev) {
    note_frame(ev);
    if (ev->type == EV_KEY && ev->code < KEY_CNT) {
        /* 2 is autorepeat: the key is still down. */
        if (ev->value)
            shadow->keys[ev->code / 8] |= (unsigned char)(1u << (ev->code % 8));
        else
            shadow->keys[ev->code / 8] &= (unsigned char)~(1u << (ev->code % 8));
        return;
    }
    if (ev->type != EV_ABS || ev->code > ABS_MAX)
        return;
    if (ev->code == ABS_MT_SLOT) {
        shadow->slot = ev->value;
    } else if (ev->code > ABS_MT_SLOT) {
        if (shadow->slot >= 0 && shadow->slot < SHIM_MAX_SLOTS)
            shadow->mt[shadow->slot][ev->code - SHIM_MT_FIRST] = ev->value;
    }
    shadow->known[ev->code] = true;
    shadow->abs[ev->code] = ev->value;
}

/* In a noop session (gap 4) the compositor's libinput reads the node; a second descriptor the
 * process opened read-only (libpreview-interaction's, which reads the state by ioctl and a
 * touchpad's force frame by frame from its events) would take libinput's events from
 * umockdev's one pty, where the kernel gives every descriptor its own copy. It reads a copy of
 * every event libinput read since it was opened (copy_to_second_readers), as it comes out of
 * that read: times moved, whole events. A full buffer drops its events and says SYN_DROPPED,
 * as the kernel's does. */
static bool second_reader(int fd) {
    const char *backend = getenv("LIBSEAT_BACKEND");
    return backend != NULL && strcmp(backend, "noop") == 0 && shadow_for(fd) != NULL &&
        (fcntl(fd, F_GETFL) & O_ACCMODE) == O_RDONLY;
}

static void push_copy(struct event_copies *copies, const struct input_event *ev) {
    if (copies->count == SHIM_COPY_CAPACITY) {
        copies->head = 0;
        copies->count = 0;
        struct input_event dropped = *ev;
        dropped.type = EV_SYN;
        dropped.code = SYN_DROPPED;
        dropped.value = 0;
        copies->events[copies->count++] = dropped;
    }
    copies->events[(copies->head + copies->count) % SHIM_COPY_CAPACITY] = *ev;
    copies->count++;
}

static void copy_to_second_readers(int reader, const struct evdev_state *state, const unsigned char *events,
                                   size_t length) {
    for (int fd = 0; fd < SHIM_MAX_FDS; fd++) {
        if (fd == reader || shadows[fd] == NULL || shadows[fd]->copies == NULL || shadows[fd]->state != state)
            continue;
        for (size_t offset = 0; offset + sizeof(struct input_event) <= length; offset += sizeof(struct input_event)) {
            struct input_event ev;
            memcpy(&ev, events + offset, sizeof ev);
            push_copy(shadows[fd]->copies, &ev);
        }
    }
}

/* A second reader's read: its copies, whole events only, EAGAIN when there are none. */
static ssize_t read_copies(struct evdev_shadow *shadow, void *buf, size_t count) {
    struct event_copies *copies = shadow->copies;
    size_t n = 0;
    while (copies != NULL && copies->count > 0 && (n + 1) * sizeof(struct input_event) <= count) {
        memcpy((unsigned char *)buf + n * sizeof(struct input_event), &copies->events[copies->head],
               sizeof(struct input_event));
        copies->head = (copies->head + 1) % SHIM_COPY_CAPACITY;
        copies->count--;
        n++;
    }
    if (n == 0) {
        errno = count < sizeof(struct input_event) ? EINVAL : EAGAIN;
        return -1;
    }
    return (ssize_t)(n * sizeof(struct input_event));
}

/* The kernel's evdev hands out whole events only: libevdev takes a read that ends inside an
 * event for an error (EINVAL), and libinput then stops reading the device for good, silently.
 * A pty hands a reader whatever bytes have arrived, so a frame that reached it in pieces (or a
 * byte short: TestbedScript) would do that. The part of an event read so far stays here until
 * its rest arrives: a blocking fd reads on, a non-blocking one says EAGAIN (its poll wakes it
 * when the rest comes). */
static ssize_t read_whole_events(int fd, struct evdev_shadow *shadow, unsigned char *buf, size_t count) {
    const size_t size = sizeof(struct input_event);
    if (count < size) {
        errno = EINVAL;
        return -1;
    }
    size_t room = count - count % size;
    size_t have = shadow->pending_len;
    memcpy(buf, shadow->pending, have);
    shadow->pending_len = 0;
    for (;;) {
        ssize_t n = NEXT(read)(fd, buf + have, room - have);
        if (n > 0) {
            have += (size_t)n;
            if (have % size == 0)
                break;
            /* In the run's log: rare, and the moment a stream would have stopped without it. */
            partial_reads++;
            fprintf(stderr, "umockdev shim: a read of fd %d ended %zu bytes into an event; it waits for the rest\n",
                fd, have % size);
            if ((fcntl(fd, F_GETFL) & O_NONBLOCK) == 0)
                continue;
        } else if (n < 0 && errno == EINTR && have % size != 0) {
            continue;
        }
        if (have < size) {
            /* Nothing whole yet: keep the part and say so as the read did, or as EAGAIN. */
            memcpy(shadow->pending, buf, have);
            shadow->pending_len = have;
            if (n < 0)
                return -1;
            if (have == 0)
                return 0;
            errno = EAGAIN;
            return -1;
        }
        break;
    }
    size_t whole = have - have % size;
    shadow->pending_len = have - whole;
    memcpy(shadow->pending, buf + whole, shadow->pending_len);
    for (size_t offset = 0; offset < whole; offset += size) {
        shift_event_time(buf + offset);
        struct input_event ev;
        memcpy(&ev, buf + offset, size);
        observe(shadow->state, &ev);
    }
    copy_to_second_readers(fd, shadow->state, buf, whole);
    return (ssize_t)whole;
}

ssize_t read(int fd, void *buf, size_t count) {
    if (second_reader(fd))
        return read_copies(shadow_for(fd), buf, count);
    struct evdev_shadow *shadow = shadow_for(fd);
    if (shadow == NULL)
        return NEXT(read)(fd, buf, count);
    return read_whole_events(fd, shadow, buf, count);
}

ssize_t write(int fd, const void *buf, size_t count) {
    struct evdev_shadow *shadow = shadow_for(fd);
    ssize_t result;
    if (shadow != NULL && shim_ff_write(fd, shadow->state->rdev, buf, count, &result))
        return result;
    /* A keyboard's LEDs (libinput sets them for a compositor): the kernel takes them, while
     * umockdev's script would take the write for its own and fail the run. */
    if (shadow != NULL && count > 0 && count % sizeof(struct input_event) == 0) {
        const struct input_event *events = buf;
        bool leds = true;
        for (size_t i = 0; i < count / sizeof(struct input_event); i++)
            leds = leds && (events[i].type == EV_LED || events[i].type == EV_SYN);
        if (leds)
            return (ssize_t)count;
    }
    return NEXT(write)(fd, buf, count);
}

int close(int fd) {
    if (fd >= 0 && fd < SHIM_MAX_FDS && kinds[fd] == FD_EVDEV)
        shim_ff_close(fd);
    forget(fd);
    return NEXT(close)(fd);
}

int ioctl(int fd, unsigned long request, ...) {
    va_list ap;
    va_start(ap, request);
    void *arg = va_arg(ap, void *);
    va_end(ap);

    int (*next)(int, unsigned long, void *) = dlsym(RTLD_NEXT, "ioctl");
    struct evdev_shadow *fd_shadow = shadow_for(fd);
    int ff_result;
    if (fd_shadow != NULL && shim_ff_ioctl(fd, fd_shadow->state->rdev, request, arg, &ff_result))
        return ff_result;
    if (fd_shadow == NULL || _IOC_TYPE(request) != 'E' || _IOC_DIR(request) != _IOC_READ)
        return next(fd, request, arg);
    struct evdev_state *shadow = fd_shadow->state;

    unsigned nr = _IOC_NR(request);
    if (nr >= _IOC_NR(EVIOCGABS(0)) && nr <= _IOC_NR(EVIOCGABS(ABS_MAX))) {
        unsigned code = nr - _IOC_NR(EVIOCGABS(0));
        int rc = next(fd, request, arg);
        if (rc >= 0 && shadow->known[code])
            ((struct input_absinfo *)arg)->value = shadow->abs[code];
        return rc;
    }
    if (nr == _IOC_NR(EVIOCGKEY(0))) {
        /* The kernel copies min(len, its bitmap) bytes and returns that count. */
        size_t len = _IOC_SIZE(request);
        size_t n = len < sizeof shadow->keys ? len : sizeof shadow->keys;
        memset(arg, 0, len);
        memcpy(arg, shadow->keys, n);
        return (int)n;
    }
    if (nr == _IOC_NR(EVIOCGMTSLOTS(0))) {
        /* The kernel's answer, from the shadow: the table cannot know later states. */
        int32_t *values = arg;
        size_t count = _IOC_SIZE(request) / sizeof(int32_t);
        uint32_t code = (uint32_t)values[0];
        if (count == 0 || code <= ABS_MT_SLOT || code > ABS_MAX) {
            errno = EINVAL;
            return -1;
        }
        for (size_t i = 1; i < count; i++)
            values[i] = i - 1 < SHIM_MAX_SLOTS ? shadow->mt[i - 1][code - SHIM_MT_FIRST]
                                               : (code == ABS_MT_TRACKING_ID ? -1 : 0);
        return 0;
    }
    return next(fd, request, arg);
}
