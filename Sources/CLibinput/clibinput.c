#include "clibinput.h"
