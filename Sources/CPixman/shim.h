#pragma once
#include <pixman-1/pixman.h>
