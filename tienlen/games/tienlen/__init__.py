"""Tiến Lên (Thirteen): RULES.md. The public names are re-exported by :mod:`tienlen`."""
