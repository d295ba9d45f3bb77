/*
 * A host's crash handling after it loads our libraries: what the process had before
 * (its own SIGSEGV handler, the default action of the other fatal signals, no alternate
 * signal stack) is what it has after dlopen and the first calls, a handler it installs
 * afterwards is the one that runs, and a crash with the default action dies of its signal
 * with nothing printed (no "*** Program crashed ***" from a runtime inside the library).
 *   host-signals LIBPREVIEW-INTERACTION.so LIBPREVIEW-INTERACTION-CLIENT.so
 * Exit status 0 when all holds; each failure is printed.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wayland-server-core.h>

static const int fatal_signals[] = {SIGQUIT, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGSEGV, SIGTRAP};
#define FATAL_COUNT (sizeof(fatal_signals) / sizeof(fatal_signals[0]))

static int failures;

static void fail(const char *what) {
	fprintf(stderr, "host-signals: FAILED: %s\n", what);
	failures++;
}

static volatile sig_atomic_t host_segv_seen, host_abort_seen;

static void host_segv(int signal) {
	(void)signal;
	host_segv_seen = 1;
}

static void host_abort(int signal) {
	(void)signal;
	host_abort_seen = 1;
}

struct snapshot {
	struct sigaction actions[FATAL_COUNT];
	stack_t altstack;
};

static void take(struct snapshot *snapshot) {
	for (size_t i = 0; i < FATAL_COUNT; i++) sigaction(fatal_signals[i], NULL, &snapshot->actions[i]);
	sigaltstack(NULL, &snapshot->altstack);
}

static void compare(const struct snapshot *before, const struct snapshot *after, const char *when) {
	char what[160];
	for (size_t i = 0; i < FATAL_COUNT; i++) {
		const struct sigaction *a = &before->actions[i], *b = &after->actions[i];
		void *ha = a->sa_flags & SA_SIGINFO ? (void *)a->sa_sigaction : (void *)a->sa_handler;
		void *hb = b->sa_flags & SA_SIGINFO ? (void *)b->sa_sigaction : (void *)b->sa_handler;
		/* A handler's flags matter; the default action has none that do (glibc adds SA_RESTORER). */
		bool same = ha == hb && (ha == (void *)SIG_DFL || a->sa_flags == b->sa_flags);
		if (!same) {
			snprintf(what, sizeof(what), "%s: the disposition of %s changed", when, strsignal(fatal_signals[i]));
			fail(what);
		}
	}
	if (before->altstack.ss_sp != after->altstack.ss_sp || before->altstack.ss_flags != after->altstack.ss_flags) {
		snprintf(what, sizeof(what), "%s: the thread's alternate signal stack changed", when);
		fail(what);
	}
}

static void *symbol(void *library, const char *name) {
	void *address = dlsym(library, name);
	if (!address) fail(name);
	return address;
}

/* Loads both libraries and makes the first calls a host makes (a context on a display, a
 * client context refused for want of a connection: both run the library's Swift code). */
static void load(const char *server_path, const char *client_path) {
	void *server = dlopen(server_path, RTLD_NOW | RTLD_LOCAL);
	void *client = dlopen(client_path, RTLD_NOW | RTLD_LOCAL);
	if (!server || !client) {
		fprintf(stderr, "host-signals: %s\n", dlerror());
		exit(2);
	}
	int (*create)(struct wl_display *, const void *, void *, void **) = symbol(server, "preview_interaction_create");
	int (*destroy)(void *) = symbol(server, "preview_interaction_destroy");
	int (*client_create)(void *, const void *, void *, void **) = symbol(client, "preview_interaction_client_create");
	if (!create || !destroy || !client_create) exit(2);
	struct wl_display *display = wl_display_create();
	void *context = NULL, *client_context = NULL;
	if (create(display, NULL, NULL, &context) != 0 || !context) fail("preview_interaction_create");
	if (client_create(NULL, NULL, NULL, &client_context) == 0) fail("preview_interaction_client_create without a display");
	destroy(context);
	wl_display_destroy(display);
}

/* A child that crashes on a signal the host left at its default action (as it was before
 * loading): it must die of the signal, silently. */
static void crash_child(int signal, const char *name) {
	int output[2];
	if (pipe(output) != 0) exit(2);
	pid_t child = fork();
	if (child == 0) {
		dup2(output[1], STDOUT_FILENO);
		dup2(output[1], STDERR_FILENO);
		struct rlimit none = {0, 0};
		setrlimit(RLIMIT_CORE, &none); /* the default action, without leaving a core file here */
		if (signal == SIGABRT) abort();
		raise(signal);
		_exit(0);
	}
	close(output[1]);
	char text[512] = {0};
	ssize_t length = 0, got;
	while (length < (ssize_t)sizeof(text) - 1 && (got = read(output[0], text + length, sizeof(text) - 1 - length)) > 0)
		length += got;
	close(output[0]);
	int status = 0;
	waitpid(child, &status, 0);
	char what[700];
	if (!WIFSIGNALED(status) || WTERMSIG(status) != signal) {
		snprintf(what, sizeof(what), "%s: the child did not die of %s (status %#x)", name, strsignal(signal), status);
		fail(what);
	}
	if (length > 0) {
		snprintf(what, sizeof(what), "%s: the crash printed: %s", name, text);
		fail(what);
	}
}

int main(int argc, char **argv) {
	if (argc != 3) {
		fprintf(stderr, "usage: host-signals LIBPREVIEW-INTERACTION.so LIBPREVIEW-INTERACTION-CLIENT.so\n");
		return 2;
	}
	/* The host's own SIGSEGV handler before loading; the other fatal signals keep the default. */
	struct sigaction own = {.sa_handler = host_segv};
	sigemptyset(&own.sa_mask);
	sigaction(SIGSEGV, &own, NULL);
	struct snapshot before, after;
	take(&before);
	load(argv[1], argv[2]);
	take(&after);
	compare(&before, &after, "after dlopen and the first calls");
	crash_child(SIGABRT, "abort()");
	crash_child(SIGBUS, "SIGBUS");
	crash_child(SIGILL, "SIGILL");

	/* A handler installed afterwards is the one that runs, and so is the one from before. */
	struct sigaction later = {.sa_handler = host_abort};
	sigemptyset(&later.sa_mask);
	sigaction(SIGABRT, &later, NULL);
	raise(SIGABRT);
	if (!host_abort_seen) fail("the host's SIGABRT handler installed after loading did not run");
	raise(SIGSEGV);
	if (!host_segv_seen) fail("the host's SIGSEGV handler installed before loading did not run");
	if (failures == 0) printf("host-signals: the host's crash handling is unchanged\n");
	return failures == 0 ? 0 : 1;
}
