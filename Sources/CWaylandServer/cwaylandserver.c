#include "cwaylandserver.h"

#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

static void cwl_listener_trampoline(struct wl_listener *listener, void *data) {
    struct cwl_listener *container = wl_container_of(listener, container, listener);
    container->notify(container->context, data);
}

void cwl_listener_init(struct cwl_listener *listener, cwl_notify_func_t notify, void *context) {
    listener->listener.notify = cwl_listener_trampoline;
    wl_list_init(&listener->listener.link);
    listener->context = context;
    listener->notify = notify;
}

void cwl_listener_remove(struct cwl_listener *listener) {
    /* wl_list_remove leaves dangling pointers; re-init so a second remove is harmless. */
    wl_list_remove(&listener->listener.link);
    wl_list_init(&listener->listener.link);
}

bool cwl_listener_is_linked(const struct cwl_listener *listener) {
    return !wl_list_empty(&listener->listener.link);
}

void cwl_signal_init(struct wl_signal *signal) { wl_signal_init(signal); }

void cwl_signal_add(struct wl_signal *signal, struct cwl_listener *listener) {
    cwl_listener_remove(listener);
    wl_signal_add(signal, &listener->listener);
}

void cwl_signal_emit(struct wl_signal *signal, void *data) { wl_signal_emit(signal, data); }

void cwl_resource_add_destroy_listener(struct wl_resource *resource, struct cwl_listener *listener) {
    cwl_listener_remove(listener);
    wl_resource_add_destroy_listener(resource, &listener->listener);
}

void cwl_client_add_destroy_listener(struct wl_client *client, struct cwl_listener *listener) {
    cwl_listener_remove(listener);
    wl_client_add_destroy_listener(client, &listener->listener);
}

void cwl_client_add_resource_created_listener(struct wl_client *client, struct cwl_listener *listener) {
    cwl_listener_remove(listener);
    wl_client_add_resource_created_listener(client, &listener->listener);
}

void cwl_display_add_destroy_listener(struct wl_display *display, struct cwl_listener *listener) {
    cwl_listener_remove(listener);
    wl_display_add_destroy_listener(display, &listener->listener);
}

void cwl_event_loop_add_destroy_listener(struct wl_event_loop *loop, struct cwl_listener *listener) {
    cwl_listener_remove(listener);
    wl_event_loop_add_destroy_listener(loop, &listener->listener);
}

void cwl_display_add_client_created_listener(struct wl_display *display, struct cwl_listener *listener) {
    cwl_listener_remove(listener);
    wl_display_add_client_created_listener(display, &listener->listener);
}

void cwl_resource_post_error(struct wl_resource *resource, uint32_t code, const char *message) {
    wl_resource_post_error(resource, code, "%s", message);
}

void cwl_client_post_implementation_error(struct wl_client *client, const char *message) {
    wl_client_post_implementation_error(client, "%s", message);
}

void cwl_resource_post_event_array(struct wl_resource *resource, uint32_t opcode, union wl_argument *args) {
    wl_resource_post_event_array(resource, opcode, args);
}

pid_t cwl_client_pid(struct wl_client *client) {
    pid_t pid = 0;
    wl_client_get_credentials(client, &pid, NULL, NULL);
    return pid;
}

/* wl_shm_pool.create_buffer's arguments: id, offset, width, height, stride, format. */
static void cwl_shm_stride_logger(void *user_data, enum wl_protocol_logger_type type,
                                  const struct wl_protocol_logger_message *message) {
    (void)user_data;
    if (type != WL_PROTOCOL_LOGGER_REQUEST || message->arguments_count != 6) return;
    if (strcmp(wl_resource_get_class(message->resource), "wl_shm_pool") != 0) return;
    if (strcmp(message->message->name, "create_buffer") != 0) return;
    int32_t width = message->arguments[2].i;
    int32_t stride = message->arguments[4].i;
    uint32_t format = message->arguments[5].u;
    /* The two formats every compositor supports are 4 bytes a pixel; libwayland rejects the
     * others it was not told about, and checks sizes against the pool itself. */
    if (format != WL_SHM_FORMAT_ARGB8888 && format != WL_SHM_FORMAT_XRGB8888) return;
    if (width <= 0 || stride <= 0) return;
    if ((int64_t)stride < (int64_t)width * 4) {
        wl_resource_post_error(message->resource, WL_SHM_ERROR_INVALID_STRIDE,
                               "stride %d cannot hold %d pixels of 4 bytes", stride, width);
    }
}

struct wl_protocol_logger *cwl_display_add_shm_stride_check(struct wl_display *display) {
    return wl_display_add_protocol_logger(display, cwl_shm_stride_logger, NULL);
}

int cwl_client_send_queue(struct wl_client *client, int *queued, int *capacity) {
    int fd = wl_client_get_fd(client);
    socklen_t length = sizeof *capacity;
    if (ioctl(fd, TIOCOUTQ, queued) != 0) return -1;
    return getsockopt(fd, SOL_SOCKET, SO_SNDBUF, capacity, &length);
}
