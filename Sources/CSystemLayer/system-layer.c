#define _GNU_SOURCE
#include "system-layer.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

int system_layer_pidfd_open(pid_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

int system_layer_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

int system_layer_socketpair_cloexec(int fds[2]) { return socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds); }

ssize_t system_layer_send(int fd, const void *bytes, size_t count) { return send(fd, bytes, count, MSG_NOSIGNAL); }

int system_layer_spawn_add_chdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

int system_layer_spawn_add_closefrom(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}
