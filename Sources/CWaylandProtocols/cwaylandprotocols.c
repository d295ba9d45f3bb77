#include "cwaylandprotocols.h"
