// The experimental protocol's generated headers in a C++ program, as wayland-protocols' own
// tests include them: they must compile without a warning and link against the C private code.
#include <cstring>

#include "xx-preview-interaction-v1-client-protocol.h"
#include "xx-preview-interaction-v1-server-protocol.h"

int main()
{
	const wl_interface &interaction = xx_preview_interaction_v1_interface;
	const uint32_t sources = XX_PREVIEW_INTERACTION_V1_SOURCES_PEN | XX_PREVIEW_INTERACTION_V1_SOURCES_KEYBOARD;
	return std::strcmp(interaction.name, "xx_preview_interaction_v1") == 0 && sources == 17 ? 0 : 1;
}
