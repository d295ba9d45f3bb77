#include "cwaylandclient.h"
