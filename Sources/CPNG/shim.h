#pragma once
#include <png.h>

/* The simplified-API format macros are expressions Swift does not import. */
static inline unsigned int cpng_format_bgra(void) { return PNG_FORMAT_BGRA; }
static inline unsigned int cpng_image_version(void) { return PNG_IMAGE_VERSION; }
