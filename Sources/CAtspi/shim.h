#pragma once
// The accessibility tree (AT-SPI over D-Bus), for preview-lookup.
#include <atspi/atspi.h>
