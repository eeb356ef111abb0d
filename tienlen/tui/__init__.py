"""Terminal front end: rendering and input for `tienlen play`, `replay` and `sim`."""
