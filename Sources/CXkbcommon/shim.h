#pragma once
#include <stdlib.h>
#include <xkbcommon/xkbcommon.h>

/* Frees what xkbcommon allocated for the caller (xkb_keymap_get_as_string's text). */
static inline void cxkb_free(void *pointer) { free(pointer); }
