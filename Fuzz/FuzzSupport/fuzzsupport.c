#define _GNU_SOURCE
#include "fuzzsupport.h"

#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

long fuzz_send(int socket, const void *bytes, size_t length, int fd) {
    struct iovec iov = {.iov_base = (void *)bytes, .iov_len = length};
    char control[CMSG_SPACE(sizeof(int))];
    struct msghdr message = {.msg_iov = &iov, .msg_iovlen = 1};
    if (fd >= 0) {
        memset(control, 0, sizeof control);
        message.msg_control = control;
        message.msg_controllen = sizeof control;
        struct cmsghdr *header = CMSG_FIRSTHDR(&message);
        header->cmsg_level = SOL_SOCKET;
        header->cmsg_type = SCM_RIGHTS;
        header->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(header), &fd, sizeof(int));
    }
    return sendmsg(socket, &message, MSG_NOSIGNAL | MSG_DONTWAIT);
}

int fuzz_memfd(long size) {
    int fd = memfd_create("fuzz-pool", MFD_CLOEXEC);
    if (fd < 0) return -1;
    if (ftruncate(fd, size) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

long fuzz_receive(int socket, void *bytes, size_t capacity) {
    struct iovec iov = {.iov_base = bytes, .iov_len = capacity};
    char control[CMSG_SPACE(sizeof(int) * 28)];
    struct msghdr message = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof control};
    long count = recvmsg(socket, &message, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); count >= 0 && header; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
        int fds = (int)((header->cmsg_len - CMSG_LEN(0)) / sizeof(int));
        for (int i = 0; i < fds; i++) {
            int fd;
            memcpy(&fd, CMSG_DATA(header) + i * sizeof(int), sizeof fd);
            close(fd);
        }
    }
    return count;
}

#include <stdarg.h>
#include <wayland-server-core.h>

static void ignore(const char *format, va_list arguments) {
    (void)format;
    (void)arguments;
}

void fuzz_quiet_libwayland(void) { wl_log_set_handler_server(ignore); }

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/un.h>

int fuzz_lookup_listen(void) {
    char name[64];
    snprintf(name, sizeof name, "fuzz-lookup-%d", (int)getpid());
    int listener = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    memcpy(address.sun_path + 1, name, strlen(name));
    socklen_t length = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + strlen(name));
    if (listener < 0 || bind(listener, (struct sockaddr *)&address, length) != 0 || listen(listener, 16) != 0) {
        if (listener >= 0) close(listener);
        return -1;
    }
    setenv("FUZZ_LOOKUP_SOCKET", name, 1);
    return listener;
}

int fuzz_lookup_accept(int listener, int timeout_ms, int *keep) {
    *keep = -1;
    struct pollfd ready = {.fd = listener, .events = POLLIN};
    if (poll(&ready, 1, timeout_ms) != 1) return -1;
    int connection = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
    if (connection < 0) return -1;
    char byte;
    struct iovec iov = {.iov_base = &byte, .iov_len = 1};
    char control[CMSG_SPACE(sizeof(int))];
    struct msghdr message = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof control};
    struct pollfd sent = {.fd = connection, .events = POLLIN};
    int channel = -1;
    if (poll(&sent, 1, 1000) == 1 && recvmsg(connection, &message, MSG_CMSG_CLOEXEC) == 1) {
        struct cmsghdr *header = CMSG_FIRSTHDR(&message);
        if (header && header->cmsg_type == SCM_RIGHTS) memcpy(&channel, CMSG_DATA(header), sizeof channel);
    }
    if (channel < 0) {
        close(connection);
        return -1;
    }
    *keep = connection;
    return channel;
}

void fuzz_close(int fd) {
    if (fd >= 0) close(fd);
}
