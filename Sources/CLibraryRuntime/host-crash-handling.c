/*
 * The Swift runtime linked into our C libraries (scripts/build-libraries: -static-stdlib) must
 * leave the crash handling of the process that loads them alone. Its backtracer is set up by a
 * static constructor of the runtime (stdlib/public/runtime/Backtrace.cpp): unless the
 * SWIFT_BACKTRACE environment variable says otherwise, on Linux it takes every fatal signal
 * whose disposition is still SIG_DFL (SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGTRAP,
 * SIGQUIT), gives the loading thread an alternate signal stack, and on a crash of the host
 * prints "*** Program crashed ***" and suspends its threads. A GTK app or a compositor has its
 * own crash reporting (or the kernel's core dump) and must keep it.
 *
 * The runtime decides in that constructor from its settings, whose `enabled` member starts as
 * "default" (on, on Linux) and is not changed later. This constructor runs first (a
 * prioritised .init_array entry runs before the runtime's unprioritised one in the same
 * object) and sets it to "off": the runtime then installs nothing. SWIFT_BACKTRACE=enable=yes,
 * set on purpose by whoever starts the process, still turns it on.
 *
 * The settings are the runtime's internal symbol, reachable only when the runtime is linked
 * into the library: the reference is weak, so a build against the toolchain's shared runtime
 * (the debug build, whose runtime belongs to whichever program loaded it) finds NULL and does
 * nothing. Layout of the runtime's BacktraceSettings (include/swift/Runtime/Backtrace.h):
 * { UnwindAlgorithm algorithm; OnOffTty enabled; ... } with OnOffTty Default = -1, Off = 0,
 * On = 1, TTY = 2, all C++ enums of int size. Tests/capi/host-signals.c checks the result, on
 * the installed self-contained libraries with the runtime able to find a swift-backtrace
 * (scripts/check-packages), and on the development build (HostCrashHandlingTests).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

struct swift_backtrace_settings_head {
	int32_t algorithm;
	int32_t enabled;
};

extern struct swift_backtrace_settings_head _swift_backtraceSettings __attribute__((weak));

enum { SWIFT_ON_OFF_TTY_DEFAULT = -1, SWIFT_ON_OFF_TTY_OFF = 0 };

__attribute__((constructor(101))) static void leave_the_hosts_crash_handling_alone(void) {
	if (&_swift_backtraceSettings == 0) return;
	/* Only the value the runtime starts with: a layout this file does not know is left as is. */
	if (_swift_backtraceSettings.enabled == SWIFT_ON_OFF_TTY_DEFAULT)
		_swift_backtraceSettings.enabled = SWIFT_ON_OFF_TTY_OFF;
}

/*
 * A build against the toolchain's shared runtime (the development build, which the GTK
 * adapter's and the C tests' hosts load) cannot reach the settings: libswiftCore.so, a
 * dependency of the library, has run its constructor before this one. Its handlers were
 * installed only where the disposition was SIG_DFL, so where they are still in place they are
 * reset to SIG_DFL, and the alternate stack it gave this thread (SIGSTKSZ + 16 KiB, when the
 * thread had none) is disabled again. Only when the program itself is not a Swift program (its
 * own DT_NEEDED has no libswiftCore.so): a Swift program's backtracer is its own.
 */
static bool program_needs_swift_runtime(void);
static bool in_swift_runtime(void *address);

__attribute__((constructor)) static void undo_a_shared_runtimes_crash_handler(void) {
	if (&_swift_backtraceSettings != 0 || program_needs_swift_runtime()) return;
	static const int fatal_signals[] = {SIGQUIT, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGSEGV, SIGTRAP};
	bool reset = false;
	for (size_t i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]); i++) {
		struct sigaction action;
		if (sigaction(fatal_signals[i], NULL, &action) != 0) continue;
		void *handler = action.sa_flags & SA_SIGINFO ? (void *)action.sa_sigaction : (void *)action.sa_handler;
		if (handler == (void *)SIG_DFL || handler == (void *)SIG_IGN || !in_swift_runtime(handler)) continue;
		struct sigaction fallback = {.sa_handler = SIG_DFL};
		sigemptyset(&fallback.sa_mask);
		sigaction(fatal_signals[i], &fallback, NULL);
		reset = true;
	}
	stack_t stack;
	if (reset && sigaltstack(NULL, &stack) == 0 && !(stack.ss_flags & SS_DISABLE) &&
		stack.ss_size == (size_t)sysconf(_SC_SIGSTKSZ) + 16384) {
		stack_t off = {.ss_flags = SS_DISABLE};
		sigaltstack(&off, NULL);
	}
}

static bool in_swift_runtime(void *address) {
	Dl_info info;
	return dladdr(address, &info) != 0 && info.dli_fname && strstr(info.dli_fname, "/libswiftCore.so");
}

static int find_needed(struct dl_phdr_info *info, size_t size, void *data) {
	(void)size;
	bool *needs = data;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		if (info->dlpi_phdr[i].p_type != PT_DYNAMIC) continue;
		const ElfW(Dyn) *dynamic = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
		uintptr_t strings = 0;
		for (const ElfW(Dyn) *entry = dynamic; entry->d_tag != DT_NULL; entry++)
			if (entry->d_tag == DT_STRTAB) strings = entry->d_un.d_ptr;
		/* The loader relocates DT_STRTAB in place on most targets; an offset is below the base. */
		if (strings != 0 && strings < info->dlpi_addr) strings += info->dlpi_addr;
		for (const ElfW(Dyn) *entry = dynamic; strings != 0 && entry->d_tag != DT_NULL; entry++)
			if (entry->d_tag == DT_NEEDED && strncmp((const char *)strings + entry->d_un.d_val, "libswiftCore.so", 15) == 0)
				*needs = true;
	}
	return 1; /* the program comes first: stop there */
}

static bool program_needs_swift_runtime(void) {
	bool needs = false;
	dl_iterate_phdr(find_needed, &needs);
	return needs;
}
