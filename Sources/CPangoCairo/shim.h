#pragma once
// Pango lays out and shapes the sample client's text (fallback fonts for emoji, ellipsizing).
#include <pango/pangocairo.h>
