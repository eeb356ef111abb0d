"""Two whole builds of the package (core and Python layer) head to head through compare.py
rows: processes alternate, and each row is judged on its own in-process yardstick.

    pip install --no-deps --target /tmp/base /path/to/an/export/of/main    # the other build
    python bench/ab_tree.py --base /tmp/base --only game,python_layer --runs 6
    python bench/ab_tree.py --base /tmp/base --new /tmp/base2 ...            # A/A

A change that spans the core and the Python layer (ab_cores.py loads two cores but one
Python layer; ab_guandan_game.py two Python layers but one core) is compared here: runs of
``compare.py --quick --only ROWS`` (this tree's compare.py, so both sides time the same
benchmark code) alternate between the base build (``--base``: a directory that holds a
``tienlen`` package, imported with ``python -S`` so that this tree's editable install stays
out of the way) and this tree's install (or ``--new``). Every compare.py row is already a
ratio against a yardstick timed in the same process (OpenSpiel, a bare core call), so the
machine's load cancels within a run; this prints, per row, each side's median value over
the runs with its range, and new/base.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

_RUN = """
import runpy, sys
sys.path[:0] = [{pkg!r}, {site!r}]
sys.argv = ["compare.py"] + {args!r}
runpy.run_path({compare!r}, run_name="__main__")
"""


def run(pkg: str | None, args: list[str]) -> dict[str, float]:
    """One compare.py run; row name -> value (a ratio), plus the Game row's rates over
    OpenSpiel's as extra rows."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run.json"
        full = args + ["--json", str(out)]
        if pkg is None:
            cmd = [sys.executable, str(HERE / "compare.py"), *full]
        else:
            site = sysconfig.get_paths()["purelib"]
            cmd = [sys.executable, "-S", "-c", _RUN.format(pkg=pkg, site=site, args=full,
                                                           compare=str(HERE / "compare.py"))]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd=HERE.parent,
                       env={**os.environ, "PYTHONPATH": ""})
        results = json.loads(out.read_text())["results"]
    values: dict[str, float] = {}
    for r in results:
        if r["value"] is not None:
            values[r["name"]] = r["value"]
        d = r["detail"]
        if "openspiel_games_per_s" in d and "unchecked_games_per_s" in d:
            values["apply_unchecked games/s over OpenSpiel's"] = (
                d["unchecked_games_per_s"] / d["openspiel_games_per_s"])
    return values


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", required=True, help="directory holding the base tienlen package")
    ap.add_argument("--new", default=None, help="directory holding the new one (default: installed)")
    ap.add_argument("--only", default="game", help="compare.py rows (its --only)")
    ap.add_argument("--runs", type=int, default=6, help="runs per side, alternating")
    ap.add_argument("--full", action="store_true", help="full compare.py runs, not --quick")
    args = ap.parse_args()
    cargs = ["--only", args.only] + ([] if args.full else ["--quick"])
    sides: dict[str, list[dict[str, float]]] = {"base": [], "new": []}
    for i in range(args.runs):
        order = [("base", args.base), ("new", args.new)]
        for name, pkg in order if i % 2 == 0 else order[::-1]:
            sides[name].append(run(pkg, cargs))
            print(".", end="", flush=True)
    print()
    rows = [k for k in sides["new"][0] if all(k in r for r in sides["base"] + sides["new"])]
    print(f"{'row':70} {'base':>16} {'new':>16} {'new/base':>8}")
    for row in rows:
        b = [r[row] for r in sides["base"]]
        n = [r[row] for r in sides["new"]]
        mb, mn = statistics.median(b), statistics.median(n)
        print(f"{row[:70]:70} {mb:7.3g} ({min(b):.3g}-{max(b):.3g}) "
              f"{mn:7.3g} ({min(n):.3g}-{max(n):.3g}) {mn / mb:8.3f}")


if __name__ == "__main__":
    main()
