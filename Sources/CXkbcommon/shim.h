#pragma once
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xkbcommon/xkbcommon.h>

/* A sealed, read-only-in-effect memfd holding `size` bytes of `data`, for
 * wl_keyboard.keymap. memfd_create and the seal constants need _GNU_SOURCE, which
 * Swift's Glibc module does not define. Returns -1 with errno set on failure. */
static inline int cxkb_sealed_memfd(const char *name, const void *data, size_t size) {
    int fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0) return -1;
    size_t done = 0;
    while (done < size) {
        ssize_t n = write(fd, (const char *)data + done, size - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) { int saved = errno; close(fd); errno = saved; return -1; }
        done += (size_t)n;
    }
    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
    return fd;
}
