"""The tests are grouped like the package (games/tienlen, games/guandan, table, arena, cli,
tui, rl, server, core, package) with the independent references in reference/. Their
helper modules (the references, the toy game, the server helpers, the sample hands) are
imported by plain name from any folder: their folders go on the path here."""

from __future__ import annotations

import sys
from pathlib import Path

_TESTS = Path(__file__).resolve().parent
for folder in (_TESTS, _TESTS / "reference", _TESTS / "table", _TESTS / "server",
               _TESTS / "games" / "guandan", _TESTS / "cli"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
