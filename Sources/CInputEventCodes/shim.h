/* The kernel's input event codes (linux-libc-dev), the one place every layer takes them from:
 * Swift sees each macro (BTN_LEFT, KEY_ESC, FF_MAX...) as a named constant. Header only. */
#include <linux/input.h>
