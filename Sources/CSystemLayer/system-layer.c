#define _GNU_SOURCE
#include "system-layer.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

int system_layer_open(const char *path, int flags, mode_t mode) { return open(path, flags, mode); }

int system_layer_fcntl(int fd, int command, int argument) { return fcntl(fd, command, argument); }

void system_layer_ignore_broken_pipes(void) { signal(SIGPIPE, SIG_IGN); }

char **system_layer_environment(void) { return environ; }

int system_layer_pidfd_open(pid_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

int system_layer_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

int system_layer_pipe_wake(int fds[2]) { return pipe2(fds, O_CLOEXEC | O_NONBLOCK); }

int system_layer_socketpair_cloexec(int fds[2]) { return socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds); }

ssize_t system_layer_send(int fd, const void *bytes, size_t count) { return send(fd, bytes, count, MSG_NOSIGNAL); }

int system_layer_spawn_add_chdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

int system_layer_spawn_add_closefrom(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

int system_layer_sealed_memfd(const char *name, const void *data, size_t size) {
    int fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0) return -1;
    size_t done = 0;
    while (done < size) {
        ssize_t n = write(fd, (const char *)data + done, size - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            int saved = errno;
            close(fd);
            errno = saved;
            return -1;
        }
        done += (size_t)n;
    }
    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
    return fd;
}

int system_layer_unnamed_file(const char *directory) {
    int fd = open(directory, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR)) return fd;
    char path[4096];
    if (snprintf(path, sizeof path, "%s/preview-interaction-XXXXXX", directory) >= (int)sizeof path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    fd = mkostemp(path, O_CLOEXEC);
    if (fd >= 0) unlink(path);
    return fd;
}

int system_layer_duplicate_cloexec(int fd) { return fcntl(fd, F_DUPFD_CLOEXEC, 0); }
