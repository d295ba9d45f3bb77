/*
 * For tests only, preloaded into wayfire (scripts/wayfire-headless): wayfire 0.7 refuses to
 * start without a DRM device (it asks the backend for its DRM descriptor and makes a GLES2
 * renderer on it). On a machine with no /dev/dri this gives wayfire a placeholder descriptor,
 * makes its renderer on Mesa's software EGL device (llvmpipe) instead, and its outputs' buffers
 * in shared memory. The software device imports no DMA-BUF, so wlroots draws nothing into those:
 * frames are lost, every one logs "eglCreateImageKHR failed", and input, clients and protocols
 * work as on a GPU. With SOFTWARE_GPU_DRAW=1 (screenshots) wlroots' import of an output buffer
 * gets a GL texture of its size instead, which llvmpipe renders into: wayfire draws its frames
 * (they stay in the texture, not the buffer; the test-only screenshot plugin reads them from
 * wayfire's own framebuffer). Never part of the product.
 */
#define _GNU_SOURCE
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include <drm_fourcc.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/render/allocator.h>
#include <wlr/render/drm_format_set.h>

struct wlr_egl;

struct wlr_egl *wlr_egl_create_with_context(EGLDisplay display, EGLContext context);
struct wlr_renderer *wlr_gles2_renderer_create(struct wlr_egl *egl);

static int placeholder_fd = -1;
static EGLDisplay software = EGL_NO_DISPLAY;

int wlr_backend_get_drm_fd(struct wlr_backend *backend) {
	int (*real)(struct wlr_backend *) = (int (*)(struct wlr_backend *))dlsym(RTLD_NEXT, "wlr_backend_get_drm_fd");
	int fd = real ? real(backend) : -1;
	if (fd >= 0) return fd;
	if (placeholder_fd < 0) placeholder_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	return placeholder_fd;
}

/* The software device Mesa enumerates (EGL_MESA_device_software). */
static EGLDisplay software_display(void) {
	PFNEGLQUERYDEVICESEXTPROC query_devices = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
	PFNEGLQUERYDEVICESTRINGEXTPROC device_string =
		(PFNEGLQUERYDEVICESTRINGEXTPROC)eglGetProcAddress("eglQueryDeviceStringEXT");
	PFNEGLGETPLATFORMDISPLAYEXTPROC platform_display =
		(PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
	if (!query_devices || !device_string || !platform_display) return EGL_NO_DISPLAY;
	EGLDeviceEXT devices[16];
	EGLint count = 0;
	if (!query_devices(16, devices, &count)) return EGL_NO_DISPLAY;
	for (EGLint i = 0; i < count; i++) {
		const char *extensions = device_string(devices[i], EGL_EXTENSIONS);
		if (extensions && strstr(extensions, "EGL_MESA_device_software"))
			return platform_display(EGL_PLATFORM_DEVICE_EXT, devices[i], NULL);
	}
	return EGL_NO_DISPLAY;
}

struct wlr_renderer *wlr_gles2_renderer_create_with_drm_fd(int drm_fd) {
	if (drm_fd != placeholder_fd) {
		struct wlr_renderer *(*real)(int) =
			(struct wlr_renderer * (*)(int)) dlsym(RTLD_NEXT, "wlr_gles2_renderer_create_with_drm_fd");
		return real ? real(drm_fd) : NULL;
	}
	EGLDisplay display = software = software_display();
	EGLint major = 0, minor = 0;
	if (display == EGL_NO_DISPLAY || !eglInitialize(display, &major, &minor) || !eglBindAPI(EGL_OPENGL_ES_API)) {
		fprintf(stderr, "software-gpu: no software EGL display\n");
		return NULL;
	}
	const EGLint attributes[] = {EGL_CONTEXT_MAJOR_VERSION, 2, EGL_NONE};
	EGLContext context = eglCreateContext(display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attributes);
	if (context == EGL_NO_CONTEXT) {
		fprintf(stderr, "software-gpu: no EGL context (0x%x)\n", eglGetError());
		return NULL;
	}
	struct wlr_egl *egl = wlr_egl_create_with_context(display, context);
	return egl ? wlr_gles2_renderer_create(egl) : NULL;
}

/* Without a DRM device there is no GBM: buffers that say they are DMA-BUFs (what the GLES2
 * renderer and the outputs ask for) over shared memory. */
struct memory_buffer {
	struct wlr_buffer base;
	struct wlr_dmabuf_attributes dmabuf;
};

static void memory_buffer_destroy(struct wlr_buffer *buffer) {
	struct memory_buffer *memory = wl_container_of(buffer, memory, base);
	close(memory->dmabuf.fd[0]);
	free(memory);
}

static bool memory_buffer_get_dmabuf(struct wlr_buffer *buffer, struct wlr_dmabuf_attributes *attributes) {
	struct memory_buffer *memory = wl_container_of(buffer, memory, base);
	*attributes = memory->dmabuf;
	return true;
}

static const struct wlr_buffer_impl memory_buffer_impl = {
	.destroy = memory_buffer_destroy,
	.get_dmabuf = memory_buffer_get_dmabuf,
};

static struct wlr_buffer *memory_create_buffer(struct wlr_allocator *allocator, int width, int height,
		const struct wlr_drm_format *format) {
	(void)allocator;
	if (width <= 0 || height <= 0 || width > 16384 || height > 16384) return NULL;
	struct memory_buffer *memory = calloc(1, sizeof(*memory));
	if (!memory) return NULL;
	uint32_t stride = (uint32_t)width * 4;
	int fd = memfd_create("software-gpu", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, (off_t)stride * height) < 0) {
		if (fd >= 0) close(fd);
		free(memory);
		return NULL;
	}
	wlr_buffer_init(&memory->base, &memory_buffer_impl, width, height);
	memory->dmabuf = (struct wlr_dmabuf_attributes){
		.width = width, .height = height, .format = format->format, .modifier = DRM_FORMAT_MOD_LINEAR,
		.n_planes = 1, .offset = {0}, .stride = {stride}, .fd = {fd, -1, -1, -1},
	};
	return &memory->base;
}

static void memory_allocator_destroy(struct wlr_allocator *allocator) {
	free(allocator);
}

static const struct wlr_allocator_interface memory_allocator_impl = {
	.create_buffer = memory_create_buffer,
	.destroy = memory_allocator_destroy,
};

struct wlr_allocator *wlr_allocator_autocreate(struct wlr_backend *backend, struct wlr_renderer *renderer) {
	int (*real_fd)(struct wlr_backend *) = (int (*)(struct wlr_backend *))dlsym(RTLD_NEXT, "wlr_backend_get_drm_fd");
	if (real_fd && real_fd(backend) >= 0) {
		struct wlr_allocator *(*real)(struct wlr_backend *, struct wlr_renderer *) =
			(struct wlr_allocator * (*)(struct wlr_backend *, struct wlr_renderer *))
				dlsym(RTLD_NEXT, "wlr_allocator_autocreate");
		return real ? real(backend, renderer) : NULL;
	}
	struct wlr_allocator *allocator = calloc(1, sizeof(*allocator));
	if (allocator) wlr_allocator_init(allocator, &memory_allocator_impl, WLR_BUFFER_CAP_DMABUF);
	return allocator;
}

/* With SOFTWARE_GPU_DRAW=1, a DMA-BUF import on the software display (below: it says it has
 * them) makes an image of a new texture of the buffer's size in the current context (wlroots
 * binds its own before it imports an output buffer), which wlroots makes its renderbuffer and
 * draws into. The buffer itself stays empty. */
static PFNEGLCREATEIMAGEKHRPROC real_create_image = NULL;

static EGLImageKHR texture_image(EGLDisplay display, EGLContext context, EGLenum target, EGLClientBuffer buffer,
		const EGLint *attributes) {
	if (display != software || target != EGL_LINUX_DMA_BUF_EXT || !attributes || !real_create_image)
		return real_create_image ? real_create_image(display, context, target, buffer, attributes) : EGL_NO_IMAGE_KHR;
	EGLint width = 0, height = 0;
	for (int i = 0; i < 64 && attributes[i] != EGL_NONE; i += 2) {
		if (attributes[i] == EGL_WIDTH) width = attributes[i + 1];
		if (attributes[i] == EGL_HEIGHT) height = attributes[i + 1];
	}
	EGLContext current = eglGetCurrentContext();
	if (width <= 0 || height <= 0 || width > 16384 || height > 16384 || current == EGL_NO_CONTEXT)
		return EGL_NO_IMAGE_KHR;
	GLuint texture = 0;
	glGenTextures(1, &texture);
	glBindTexture(GL_TEXTURE_2D, texture);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
	glBindTexture(GL_TEXTURE_2D, 0);
	/* The image holds the texture's storage; the name is not needed after. */
	EGLImageKHR image = real_create_image(display, current, EGL_GL_TEXTURE_2D_KHR,
		(EGLClientBuffer)(uintptr_t)texture, (const EGLint[]){EGL_NONE});
	glDeleteTextures(1, &texture);
	if (image == EGL_NO_IMAGE_KHR) fprintf(stderr, "software-gpu: no texture image (0x%x)\n", eglGetError());
	return image;
}

__eglMustCastToProperFunctionPointerType eglGetProcAddress(const char *name) {
	__eglMustCastToProperFunctionPointerType (*real)(const char *) =
		(__eglMustCastToProperFunctionPointerType(*)(const char *))dlsym(RTLD_NEXT, "eglGetProcAddress");
	if (!real) return NULL;
	const char *draw = getenv("SOFTWARE_GPU_DRAW");
	if (name && strcmp(name, "eglCreateImageKHR") == 0 && draw && strcmp(draw, "1") == 0) {
		real_create_image = (PFNEGLCREATEIMAGEKHRPROC)real(name);
		return real_create_image ? (__eglMustCastToProperFunctionPointerType)texture_image : NULL;
	}
	return real(name);
}

/* wlroots 0.15's GLES2 renderer insists on DMA-BUF import, which the software device lacks:
 * the software display says it has it. Nothing is imported (without SOFTWARE_GPU_DRAW): what
 * wlroots renders into the outputs' buffers is lost, which a test of input does not see. */
const char *eglQueryString(EGLDisplay display, EGLint name) {
	static char extended[8192];
	const char *(*real)(EGLDisplay, EGLint) = (const char *(*)(EGLDisplay, EGLint))dlsym(RTLD_NEXT, "eglQueryString");
	const char *value = real ? real(display, name) : NULL;
	if (display != software || display == EGL_NO_DISPLAY || name != EGL_EXTENSIONS || !value) return value;
	if (!extended[0]) snprintf(extended, sizeof(extended), "%s EGL_EXT_image_dma_buf_import", value);
	return extended;
}
