/* Peek and pop (UIKit's UIPreviewInteraction) for GTK 4 widgets on Wayland. */
#pragma once

#include "pi-enum-types.h"
#include "pi-enums.h"
#include "pi-preview-interaction.h"
#include "pi-settings.h"
