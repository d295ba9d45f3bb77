// Placeholder: the sample client issue fills it in.
