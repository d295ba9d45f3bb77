print("peek-client: not implemented yet")
