"""What the private copy of a batch input costs, next to the loop that reads it (issue 24).

    python bench/array_copy_cost.py [--rounds 15]

Every batch input enters the cores through src/arrays.pxi, which copies it (one memcpy of
the caller's buffer) before the loop runs. This times, by this thread's CPU time, a copy of
the same bytes (``numpy.copyto`` into a preallocated array: the memcpy alone, as array_in
does it) against the whole call, and prints the copy's share. Interleaved rounds, median.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Callable

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import compare  # noqa: E402
import workloads  # noqa: E402
from tienlen import _core, _guandan  # noqa: E402


def rows(seed: int) -> list[tuple[str, list[np.ndarray], Callable[[], object]]]:
    f_hands, f_piles = workloads.following(2000, seed)
    fh, fp = workloads.as_u64(f_hands * 2), workloads.as_u32(f_piles * 2)
    hands = workloads.as_u64(workloads.dealt_hands(2000, seed) * 2)
    codes = workloads.as_u32(workloads.beat_pairs(20000, seed)[0] * 50)
    gd = np.array([_guandan.deal(s)[0] for s in range(4000)], np.uint64)
    out = np.empty(len(fh), np.int64)
    return [
        ("count_legal_moves_many, follow (4k rows): hands + pile_codes", [fh, fp],
         lambda: _core.count_legal_moves_many(fh, fp, 0, None, None, out)),
        ("legal_moves_many, lead (4k rows): hands", [hands], lambda: _core.legal_moves_many(hands)),
        ("beats_many (1M): play_codes + pile_codes", [codes, codes],
         lambda: _core.beats_many(codes, codes)),
        ("guandan count_legal_plays_many, lead (4k rows): hands", [gd],
         lambda: _guandan.count_legal_plays_many(gd, 2)),
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    print("| call: copied inputs | copy µs | call µs | copy / call |")
    print("|---|---:|---:|---:|")
    for name, inputs, call in rows(args.seed):
        targets = [np.empty_like(a) for a in inputs]

        def copy() -> int:
            for a, t in zip(inputs, targets):
                np.copyto(t, a)
            return 1

        def whole() -> int:
            call()
            return 1

        samples = _interleave(copy, whole, args.rounds)
        c, w = compare.med(samples["copy"]), compare.med(samples["call"])
        print(f"| {name} | {c / 1e3:,.1f} | {w / 1e3:,.1f} | {c / w:.2%} |", flush=True)


def _interleave(copy: Callable[[], int], whole: Callable[[], int], rounds: int
                ) -> dict[str, list[float]]:
    """ns per call of each side, by thread CPU time, in mirrored order round by round."""
    out: dict[str, list[float]] = {"copy": [], "call": []}
    sides = [("copy", copy, 200), ("call", whole, 5)]
    for r in range(rounds):
        for key, fn, reps in (sides if r % 2 == 0 else sides[::-1]):
            t0 = time.thread_time_ns()
            for _ in range(reps):
                fn()
            out[key].append((time.thread_time_ns() - t0) / reps)
    return out


if __name__ == "__main__":
    main()
