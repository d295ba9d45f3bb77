// Placeholder: this module's issue fills it in.
