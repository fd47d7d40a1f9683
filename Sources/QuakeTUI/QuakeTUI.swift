// The terminal UI. See issue 7.
