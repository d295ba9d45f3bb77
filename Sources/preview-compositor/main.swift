print("preview-compositor: not implemented yet")
