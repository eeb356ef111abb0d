"""Guandan (掼蛋): GUANDAN.md. The public names are re-exported by :mod:`tienlen.guandan`."""
