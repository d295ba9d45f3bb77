#ifndef CAPI_CHECK_H
#define CAPI_CHECK_H
/*
 * The C tests' checks (Tests/capi, Tests/capi-client): counted, each failure printed as
 * file:line with the expression, a status compared with the one expected by name. Define
 * CHECK_STATUS_STRING as the library's status-string function before including this, and end
 * main with CHECK_SUMMARY().
 */
#include <stdio.h>

#ifndef CHECK_STATUS_STRING
#error "define CHECK_STATUS_STRING (the library's status-string function) before including check.h"
#endif

static int passed, failed;

#define CHECK(expr) check((expr), #expr, __FILE__, __LINE__)
#define STATUS(call, expected) check_status((call), (expected), #call, __FILE__, __LINE__)
#define CHECK_SUMMARY()                                         \
	do {                                                        \
		printf("%d passed, %d failed\n", passed, failed);       \
		return failed == 0 ? 0 : 1;                             \
	} while (0)

static void check(int ok, const char *text, const char *file, int line) {
	if (ok) {
		passed++;
	} else {
		failed++;
		fprintf(stderr, "%s:%d: failed: %s\n", file, line, text);
	}
}

static void check_status(int status, int expected, const char *text, const char *file, int line) {
	if (status == expected) {
		passed++;
	} else {
		failed++;
		fprintf(stderr, "%s:%d: %s returned %d (%s), expected %d (%s)\n", file, line, text, status,
			CHECK_STATUS_STRING(status), expected, CHECK_STATUS_STRING(expected));
	}
}

#endif
