"""bench/compare.py, the speed ratios of bench/README.md, runs its rows that read the
independent references (tests/reference/): the references moved into that folder once and
compare.py's ``import reference`` then found the folder, not the module, so three of its
rows stopped with an AttributeError until the next full run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from paths import REPO


def test_compare_runs_the_rows_that_read_the_references(tmp_path: Path) -> None:
    out = tmp_path / "ratios.json"
    result = subprocess.run(
        [sys.executable, str(REPO / "bench" / "compare.py"), "--quick",
         "--only", "reference,plan", "--json", str(out)],
        capture_output=True, text=True, timeout=300)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr[-2000:]
    rows = {r["name"]: r for r in json.loads(out.read_text())["results"]}
    for name in ("reference.classify vs core.classify",
                 "PLAN playouts: Python reference vs core (per game)"):
        assert rows[name]["value"] > 1, rows[name]          # the core beats its reference
