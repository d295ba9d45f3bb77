#ifndef SYSTEM_LAYER_H
#define SYSTEM_LAYER_H

#include <spawn.h>
#include <sys/types.h>

// The Linux calls Swift's Glibc module cannot reach: they need _GNU_SOURCE, or are only
// reachable through the variadic syscall(2).

/// pidfd_open(2): a descriptor that becomes readable when `pid` exits; -1 and errno on failure.
int system_layer_pidfd_open(pid_t pid);

/// pipe2(2) with O_CLOEXEC, so no other thread's child inherits the pipe.
int system_layer_pipe_cloexec(int fds[2]);

/// socketpair(2), stream, close-on-exec: a child's standard input the parent writes without
/// risking SIGPIPE (see `system_layer_send`).
int system_layer_socketpair_cloexec(int fds[2]);

/// send(2) with MSG_NOSIGNAL: a peer that went away is EPIPE, not a signal.
ssize_t system_layer_send(int fd, const void *bytes, size_t count);

/// posix_spawn_file_actions_addchdir_np: the child starts in `path`.
int system_layer_spawn_add_chdir(posix_spawn_file_actions_t *actions, const char *path);

/// posix_spawn_file_actions_addclosefrom_np: the child closes every descriptor from `from` on.
int system_layer_spawn_add_closefrom(posix_spawn_file_actions_t *actions, int from);

#endif
