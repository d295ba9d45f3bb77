#include "cwaylandserver.h"
