/* Nothing to call: linking this target into a C library is what it takes (see
 * host-crash-handling.c, whose constructor switches the Swift runtime's backtracer off before
 * the runtime starts, so the library leaves its host's crash handling alone). */
#ifndef LIBRARY_RUNTIME_H
#define LIBRARY_RUNTIME_H
#endif
