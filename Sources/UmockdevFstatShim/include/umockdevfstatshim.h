/* Test support: preloaded into a process running under umockdev-run (see docs/testing.md).
 * It exports only libc's own symbols (fstat, fstat64, __fxstat, __fxstat64, ioctl, read,
 * close); nothing here is meant to be called directly. */
#pragma once
