print("preview-replay: not implemented yet")
