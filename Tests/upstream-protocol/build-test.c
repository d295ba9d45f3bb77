/* The experimental protocol's generated code, as wayland-protocols' own tests build it: both
 * headers and the private code in one strict C99 program, which then checks that the tables the
 * code defines are the ones the headers declare. */
#include <string.h>

#include "xx-preview-interaction-v1-client-protocol.h"
#include "xx-preview-interaction-v1-server-protocol.h"

static int named(const struct wl_interface *interface, const char *name)
{
	return strcmp(interface->name, name) == 0 && interface->version == 1;
}

int main(void)
{
	const struct wl_interface *manager = &xx_preview_interaction_manager_v1_interface;
	const struct wl_interface *interaction = &xx_preview_interaction_v1_interface;
	if (!named(manager, "xx_preview_interaction_manager_v1"))
		return 1;
	if (!named(interaction, "xx_preview_interaction_v1"))
		return 2;
	/* get_interaction's new_id creates the per-surface interface. */
	if (manager->methods[XX_PREVIEW_INTERACTION_MANAGER_V1_GET_INTERACTION].types[0] != interaction)
		return 3;
	return 0;
}
