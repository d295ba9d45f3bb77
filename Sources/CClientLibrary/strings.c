/* The library's constant strings: plain C, so they need no Swift runtime call. */
#include "preview-interaction-client.h"

const char *preview_interaction_client_status_string(int status) {
	switch (status) {
	case PREVIEW_INTERACTION_CLIENT_OK: return "success";
	case PREVIEW_INTERACTION_CLIENT_ERROR_INVALID_ARGUMENT: return "invalid argument";
	case PREVIEW_INTERACTION_CLIENT_ERROR_INVALID_CONTEXT: return "invalid or destroyed context";
	case PREVIEW_INTERACTION_CLIENT_ERROR_INVALID_INTERACTION: return "invalid or detached interaction";
	case PREVIEW_INTERACTION_CLIENT_ERROR_UNKNOWN_PRESS: return "no such press was announced";
	case PREVIEW_INTERACTION_CLIENT_ERROR_PRESS_ENDED: return "the press already ended";
	case PREVIEW_INTERACTION_CLIENT_ERROR_ALREADY_ANSWERED: return "the press was already answered";
	case PREVIEW_INTERACTION_CLIENT_ERROR_WRONG_THREAD: return "called from a thread other than the context's";
	case PREVIEW_INTERACTION_CLIENT_ERROR_SURFACE_TAKEN: return "the surface already has an interaction";
	case PREVIEW_INTERACTION_CLIENT_ERROR_WAYLAND: return "libwayland refused or the connection failed";
	case PREVIEW_INTERACTION_CLIENT_ERROR_DISCONNECTED: return "the connection to the compositor is gone";
	case PREVIEW_INTERACTION_CLIENT_ERROR_LIMIT: return "too many interactions";
	case PREVIEW_INTERACTION_CLIENT_ERROR_BUSY: return "not allowed from inside a callback";
	case PREVIEW_INTERACTION_CLIENT_ERROR_UNSUPPORTED: return "the compositor's protocol version does not have it";
	case PREVIEW_INTERACTION_CLIENT_ERROR_NOT_RUNNING: return "the press is not running yet";
	default: return "unknown status";
	}
}

uint32_t preview_interaction_client_version(void) {
	return PREVIEW_INTERACTION_CLIENT_VERSION_NUMBER;
}

const char *preview_interaction_client_version_string(void) {
	return PREVIEW_INTERACTION_CLIENT_VERSION;
}

const char *preview_interaction_client_cancel_reason_string(uint32_t reason) {
	switch (reason) {
	case PREVIEW_INTERACTION_CLIENT_CANCEL_NONE: return "none";
	case PREVIEW_INTERACTION_CLIENT_CANCEL_LIFTED: return "lifted";
	case PREVIEW_INTERACTION_CLIENT_CANCEL_CLIENT_CANCELLED: return "client_cancelled";
	case PREVIEW_INTERACTION_CLIENT_CANCEL_DECLINED: return "declined";
	case PREVIEW_INTERACTION_CLIENT_CANCEL_TIMEOUT: return "timeout";
	case PREVIEW_INTERACTION_CLIENT_CANCEL_DEVICE_REMOVED: return "device_removed";
	case PREVIEW_INTERACTION_CLIENT_CANCEL_SURFACE_GONE: return "surface_gone";
	case PREVIEW_INTERACTION_CLIENT_CANCEL_DESYNCHRONISED: return "desynchronised";
	case PREVIEW_INTERACTION_CLIENT_CANCEL_MOVED: return "moved";
	case PREVIEW_INTERACTION_CLIENT_CANCEL_SYSTEM: return "system";
	case PREVIEW_INTERACTION_CLIENT_CANCEL_DISMISSED: return "dismissed";
	default: return "unknown";
	}
}

const char *preview_interaction_client_source_string(uint32_t source) {
	switch (source) {
	case PREVIEW_INTERACTION_CLIENT_SOURCE_PEN: return "pen";
	case PREVIEW_INTERACTION_CLIENT_SOURCE_TOUCHPAD: return "touchpad";
	case PREVIEW_INTERACTION_CLIENT_SOURCE_TOUCHSCREEN: return "touchscreen";
	case PREVIEW_INTERACTION_CLIENT_SOURCE_POINTER: return "pointer";
	case PREVIEW_INTERACTION_CLIENT_SOURCE_KEYBOARD: return "keyboard";
	default: return "unknown";
	}
}
