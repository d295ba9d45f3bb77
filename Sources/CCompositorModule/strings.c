/* The library's constant strings: plain C, so they need no Swift runtime call. */
#include "preview-interaction.h"

const char *preview_interaction_status_string(int status) {
	switch (status) {
	case PREVIEW_INTERACTION_OK: return "success";
	case PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT: return "invalid argument";
	case PREVIEW_INTERACTION_ERROR_INVALID_CONTEXT: return "invalid or destroyed context";
	case PREVIEW_INTERACTION_ERROR_UNKNOWN_DEVICE: return "unknown or removed device";
	case PREVIEW_INTERACTION_ERROR_UNKNOWN_CONTACT: return "no such contact is down";
	case PREVIEW_INTERACTION_ERROR_CONTACT_EXISTS: return "the contact is already down";
	case PREVIEW_INTERACTION_ERROR_NOT_A_SURFACE: return "not a wl_surface of this display";
	case PREVIEW_INTERACTION_ERROR_WRONG_THREAD: return "called from a thread other than the display's";
	case PREVIEW_INTERACTION_ERROR_WAYLAND: return "libwayland refused";
	case PREVIEW_INTERACTION_ERROR_LIMIT: return "too many devices or contacts";
	case PREVIEW_INTERACTION_ERROR_UNSUPPORTED: return "not supported by this device";
	case PREVIEW_INTERACTION_ERROR_DISPLAY_IN_USE: return "the wl_display already has a preview interaction context";
	default: return "unknown status";
	}
}

uint32_t preview_interaction_version(void) {
	return PREVIEW_INTERACTION_VERSION_NUMBER;
}

const char *preview_interaction_version_string(void) {
	return PREVIEW_INTERACTION_VERSION;
}
