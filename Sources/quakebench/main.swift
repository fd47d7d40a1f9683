print("quakebench: not written yet (issue 6)")
