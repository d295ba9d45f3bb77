/* preview-lookup's stand-in for FuzzEmbedded: the library starts it with its Wayland connection
 * on descriptor 3 and the lookup channel on 4. It hands the channel to the fuzzer (over the
 * abstract socket named in FUZZ_LOOKUP_SOCKET), which then speaks for preview-lookup as its
 * input says; makes its panel surface the way preview-lookup does; and stays until the
 * fuzzer lets it go (closes that socket).
 * Every executable of this package is linked with -sanitize=fuzzer, so libFuzzer's main is
 * this one's too: it runs the stand-in from LLVMFuzzerInitialize, its first call, and exits. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <wayland-client.h>

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface,
		uint32_t version) {
	struct wl_compositor **compositor = data;
	if (strcmp(interface, wl_compositor_interface.name) == 0 && !*compositor) {
		*compositor = wl_registry_bind(registry, name, &wl_compositor_interface, 1);
	}
	(void)version;
}

static void global_remove(void *data, struct wl_registry *registry, uint32_t name) {
	(void)data;
	(void)registry;
	(void)name;
}

static const struct wl_registry_listener registry_listener = {global, global_remove};

static int stand_in(void) {
	const char *name = getenv("FUZZ_LOOKUP_SOCKET");
	if (!name || strlen(name) + 1 >= sizeof(((struct sockaddr_un *)0)->sun_path)) return 1;
	int fuzzer = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_un address = {.sun_family = AF_UNIX};
	memcpy(address.sun_path + 1, name, strlen(name));
	socklen_t length = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + strlen(name));
	if (fuzzer < 0 || connect(fuzzer, (struct sockaddr *)&address, length) != 0) return 1;

	char byte = 0;
	struct iovec iov = {.iov_base = &byte, .iov_len = 1};
	char control[CMSG_SPACE(sizeof(int))] = {0};
	struct msghdr message = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control,
		.msg_controllen = sizeof control};
	struct cmsghdr *header = CMSG_FIRSTHDR(&message);
	header->cmsg_level = SOL_SOCKET;
	header->cmsg_type = SCM_RIGHTS;
	header->cmsg_len = CMSG_LEN(sizeof(int));
	int channel = 4;
	memcpy(CMSG_DATA(header), &channel, sizeof channel);
	if (sendmsg(fuzzer, &message, MSG_NOSIGNAL) != 1) return 1;
	close(channel);

	/* The panel: one wl_surface (the fuzzer's loop answers the roundtrip when its input lets
	 * time pass; a context destroyed first ends the connection, and this with it). */
	struct wl_display *display = wl_display_connect(NULL);
	if (display) {
		struct wl_compositor *compositor = NULL;
		struct wl_registry *registry = wl_display_get_registry(display);
		wl_registry_add_listener(registry, &registry_listener, &compositor);
		if (wl_display_roundtrip(display) >= 0 && compositor) {
			wl_surface_commit(wl_compositor_create_surface(compositor));
			wl_display_flush(display);
		}
	}
	while (read(fuzzer, &byte, 1) > 0) {
	}
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
	(void)argc;
	(void)argv;
	_exit(stand_in());
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	(void)data;
	(void)size;
	return 0;
}
