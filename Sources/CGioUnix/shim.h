#pragma once
// D-Bus calls with descriptors (the desktop portal's OpenFile), for preview-lookup.
#include <gio/gio.h>
#include <gio/gunixfdlist.h>
