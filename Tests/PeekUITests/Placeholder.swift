// Placeholder: this layer's issue adds its tests here.
