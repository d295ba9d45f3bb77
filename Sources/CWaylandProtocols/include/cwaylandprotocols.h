/* Placeholder: this module's issue fills it in. */
#pragma once
