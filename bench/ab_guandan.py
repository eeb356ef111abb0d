"""Two builds of the Guandan core head to head, in one process: compare.py's Guandan rows.

    python bench/ab_guandan.py --base /path/to/other/tienlen/_guandan.cpython-*.so [--rounds 21]
    python bench/ab_guandan.py --base A.so --new COPY_OF_A.so     # A/A: the method's own noise

Loads the installed ``tienlen._guandan`` (this tree) and a second build of the same module
from ``--base`` (for example main's, saved before a change) under another package name, and
times the workloads of ``compare.py --only guandan`` on identical inputs (``guandan_workloads``:
dealt 27-card leads at random levels, follows of a pile from 5-27 cards), sides alternating
round by round in mirrored order (compare.py's ``interleave``), by this thread's CPU time.
Prints each row's median per-item time for both builds and the median per-round ratio
new/base (below 1: the new build is faster) with its interquartile range. Both builds are
checked to give identical listings on every input first: a faster wrong answer is no gain.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from types import ModuleType
from typing import Callable

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import compare  # noqa: E402  (timing helpers: interleave, med, ratio, iqr)
from ab_cores import load_base, print_table  # noqa: E402
import guandan_workloads as gw  # noqa: E402
from tienlen import _guandan as new_core  # noqa: E402


Row = Callable[[ModuleType], Callable[[], int]]


def rows(hands: int, seed: int) -> tuple[dict[str, Row], Callable[[ModuleType, ModuleType], None]]:
    """compare.py's bench_guandan workloads: (rows by name, a check that two builds agree)."""
    leads = gw.dealt_hands(hands // 4, seed)
    lead_hands, lead_levels, _ = gw.as_arrays(leads)
    follows = gw.following(hands, seed)
    plays = int(new_core.count_legal_plays_many(lead_hands, lead_levels).sum())

    def lead(core: ModuleType) -> Callable[[], int]:
        lp = core.legal_plays

        def run() -> int:
            for once, twice, level in leads:
                lp(once, twice, level)
            return plays
        return run

    def lead_many(core: ModuleType) -> Callable[[], int]:
        return lambda: (core.legal_plays_many(lead_hands, lead_levels), plays)[1]

    def count_many(core: ModuleType) -> Callable[[], int]:
        return lambda: (core.count_legal_plays_many(lead_hands, lead_levels), len(leads))[1]

    def follow(core: ModuleType) -> Callable[[], int]:
        lp = core.legal_plays

        def run() -> int:
            for once, twice, level, pile in follows:
                lp(once, twice, level, pile)
            return len(follows)
        return run

    def follow_count(core: ModuleType) -> Callable[[], int]:
        cp = core.count_legal_plays

        def run() -> int:
            for once, twice, level, pile in follows:
                cp(once, twice, level, pile)
            return len(follows)
        return run

    def agree(a: ModuleType, b: ModuleType) -> None:
        for row in [(*r, 0) for r in leads] + follows:
            ma, ca = a.legal_plays(*row)
            mb, cb = b.legal_plays(*row)
            if not (np.array_equal(ma, mb) and np.array_equal(ca, cb)
                    and ma.dtype == mb.dtype and ca.dtype == cb.dtype
                    and a.count_legal_plays(*row) == b.count_legal_plays(*row) == len(cb)):
                raise SystemExit(f"the builds disagree on legal_plays{row}")
        for r in (a.legal_plays_many(lead_hands, lead_levels),
                  b.legal_plays_many(lead_hands, lead_levels)):
            if not all(np.array_equal(x, y) for x, y in
                       zip(r, a.legal_plays_many(lead_hands, lead_levels))):
                raise SystemExit("the builds disagree on legal_plays_many")

    return {
        "legal_plays, lead (27 cards; ns per play)": lead,
        "legal_plays_many, lead (ns per play)": lead_many,
        "count_legal_plays_many, lead (ns per hand)": count_many,
        "legal_plays, follow (ns per call)": follow,
        "count_legal_plays, follow (ns per call)": follow_count,
    }, agree


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", type=Path, required=True, help="the other build's _guandan .so")
    ap.add_argument("--new", type=Path, default=None,
                    help="a copy of a _guandan .so to time as the new side instead of the "
                         "installed build (a copy of --base measures the noise: an A/A run)")
    ap.add_argument("--rounds", type=int, default=21)
    ap.add_argument("--hands", type=int, default=4000,
                    help="follow situations per round (leads: a quarter of it), as compare.py")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", default="", help="comma-separated substrings of row names")
    args = ap.parse_args()
    base = load_base(args.base, "tienlen_base", "_guandan")
    new = new_core if args.new is None else load_base(args.new, "tienlen_new", "_guandan")
    table, agree = rows(args.hands, args.seed)
    agree(base, new)
    print(f"{args.rounds} interleaved rounds, thread CPU time; base {args.base}, "
          f"new {args.new or 'installed tienlen._guandan'}")
    print_table(table, base, new, args.rounds, args.only, "ns", ",.1f")


if __name__ == "__main__":
    main()
