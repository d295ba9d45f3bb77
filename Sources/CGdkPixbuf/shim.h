#pragma once
// Image decoding for preview-lookup's file previews (thumbnails).
#include <gdk-pixbuf/gdk-pixbuf.h>
