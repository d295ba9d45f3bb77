#ifndef SYSTEM_LAYER_H
#define SYSTEM_LAYER_H

// The C library the layer calls. In the Embedded build there is no Glibc module: importing this
// header is how Swift reaches libc there (in the full build these headers are Glibc's own).
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/// errno, which is a macro Swift cannot import (the Glibc module wraps it; the Embedded build
/// has no Glibc module).
static inline int system_layer_errno(void) { return errno; }
static inline void system_layer_set_errno(int value) { errno = value; }

/// open(2) and fcntl(2) with an int argument: both are variadic, which Swift cannot call (the
/// Glibc module wraps them; the Embedded build has no Glibc module).
int system_layer_open(const char *path, int flags, mode_t mode);
int system_layer_fcntl(int fd, int command, int argument);

/// signal(SIGPIPE, SIG_IGN) (SIG_IGN is a cast Swift cannot import without the Glibc module).
void system_layer_ignore_broken_pipes(void);

/// S_ISREG and S_ISDIR (the Glibc module and the C header give S_IFMT two different types).
static inline int system_layer_is_regular_file(mode_t mode) { return S_ISREG(mode); }
static inline int system_layer_is_directory(mode_t mode) { return S_ISDIR(mode); }

/// The process environment (`environ` is declared only with _GNU_SOURCE).
char **system_layer_environment(void);

// The Linux calls Swift's Glibc module cannot reach: they need _GNU_SOURCE, or are only
// reachable through the variadic syscall(2).

/// pidfd_open(2): a descriptor that becomes readable when `pid` exits; -1 and errno on failure.
int system_layer_pidfd_open(pid_t pid);

/// pipe2(2) with O_CLOEXEC, so no other thread's child inherits the pipe.
int system_layer_pipe_cloexec(int fds[2]);

/// pipe2(2) with O_CLOEXEC and O_NONBLOCK, in one call: a wake pipe (no child inherits it, and
/// neither a full pipe nor an empty one ever blocks its thread).
int system_layer_pipe_wake(int fds[2]);

/// A sealed memfd holding `size` bytes of `data` (close-on-exec; no more writes, no resize):
/// one file many readers may map, none may change. -1 and errno on failure.
int system_layer_sealed_memfd(const char *name, const void *data, size_t size);

/// A new file in `directory` with no name (O_TMPFILE; where the file system lacks it, a
/// mkostemp file unlinked at once), read-write and close-on-exec: gone with its last descriptor.
int system_layer_unnamed_file(const char *directory);

/// fcntl(F_DUPFD_CLOEXEC): a second descriptor of the same open file, close-on-exec.
int system_layer_duplicate_cloexec(int fd);

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
