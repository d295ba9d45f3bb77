/* One load of a shared library in a fresh process: prints the microseconds dlopen took (lazy
 * binding off: every relocation resolved, as a -z now library is) and, when a function is named,
 * those of its first call (a `uint32_t f(void)`). scripts/footprint runs it many times. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

static double now_us(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

int main(int argc, char **argv) {
	if (argc < 2) return 2;
	double start = now_us();
	void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	double loaded = now_us();
	if (!library) {
		fprintf(stderr, "%s\n", dlerror());
		return 1;
	}
	double called = loaded;
	if (argc > 2) {
		uint32_t (*function)(void) = (uint32_t (*)(void))dlsym(library, argv[2]);
		if (!function) return 1;
		double before = now_us();
		volatile uint32_t result = function();
		(void)result;
		called = now_us();
		called = called - before + loaded;
	}
	printf("%.1f %.1f\n", loaded - start, called - loaded);
	return 0;
}
