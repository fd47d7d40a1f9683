print("quaketui: not written yet")
