#include "umockdevfstatshim.h"
