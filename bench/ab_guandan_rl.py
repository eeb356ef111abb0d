"""Two builds of the Guandan core head to head on compare.py's Guandan RL rows, in one process.

    python bench/ab_guandan_rl.py --base /path/to/other/tienlen/_guandan.cpython-*.so [--rounds 21]

Loads the installed ``tienlen._guandan`` (this tree) and a second build from ``--base`` (for
example main's, saved before a change) under another package name, and times, sides
alternating round by round in mirrored order (compare.py's ``interleave``) by this thread's
CPU time: the vectorised env (``GdVecGames``, learner at seat 0 uniform over its legal ids,
native RANDOM seats, one thread; ns per learner step) and ``legal_action_features`` of
dealt 27-card leads (ns per lead), as ``guandan_rl_bench`` measures them. Prints each row's
median for both builds and the median per-round ratio new/base (below 1: the new build is
faster). The builds must step identical tables first (same observations, rewards and legal
counts after every step): a faster wrong answer is no gain.
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


def _vec(core: ModuleType, n: int, calls: int, seed: int) -> Callable[[], int]:
    v = core.GdVecGames(n, learner_seats=(0,), policies=(core.RANDOM,) * 4, seed=seed)
    rng = np.random.default_rng(seed)

    def run() -> int:
        for _ in range(calls):
            legal = v.num_legal.astype(np.int64)
            can_pass = v.can_pass.astype(np.int64)
            v.step((rng.random(n) * (legal + can_pass)).astype(np.int64) + (1 - can_pass))
        return n * calls
    return run


def _features(core: ModuleType, leads: list[tuple[int, int, int]]) -> Callable[[], int]:
    f = core.legal_action_features

    def run() -> int:
        for once, twice, level in leads:
            f(once, twice, level)
        return len(leads)
    return run


def _agree(a: ModuleType, b: ModuleType, seed: int) -> None:
    va = a.GdVecGames(64, learner_seats=(0,), policies=(a.RANDOM,) * 4, seed=seed)
    vb = b.GdVecGames(64, learner_seats=(0,), policies=(b.RANDOM,) * 4, seed=seed)
    rng = np.random.default_rng(seed)
    for step in range(300):
        legal = va.num_legal.astype(np.int64)
        can_pass = va.can_pass.astype(np.int64)
        acts = (rng.random(64) * (legal + can_pass)).astype(np.int64) + (1 - can_pass)
        va.step(acts)
        vb.step(acts)
        for name in ("obs", "num_legal", "can_pass", "reward", "terminated", "final_rewards"):
            if not np.array_equal(getattr(va, name), getattr(vb, name)):
                raise SystemExit(f"the builds disagree on GdVecGames.{name} at step {step}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", type=Path, required=True, help="the other build's _guandan .so")
    ap.add_argument("--rounds", type=int, default=21)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    from tienlen import _guandan as new
    base = load_base(args.base, module="_guandan")
    _agree(new, base, args.seed)
    leads = [(*new.deal(args.seed * 1000 + k)[k % 4], 2 + k % 13) for k in range(300)]
    table = {
        "GdVecGames learner step, RANDOM seats, 1 thread (ns per step)":
            lambda core: _vec(core, 1024, 8, args.seed),
        "legal_action_features, 27-card lead (ns per lead)": lambda core: _features(core, leads),
    }
    print(f"{args.rounds} interleaved rounds, thread CPU time; base {args.base}, new installed tienlen._guandan")
    print_table(table, base, new, args.rounds, "", "ns", ",.1f")

if __name__ == "__main__":
    main()
