"""Two builds of the core's vectorised env, 1 and 2 threads, in one process.

    python bench/ab_vec_threads.py --base /path/to/other/_core.cpython-*.so [--envs 8192]

compare.py's "vectorised env, 2 threads vs 1" row times one build, and on a shared VM its
ratio moves with the host (the same build read 1.3x to 2.0x within an hour here). This
script loads the installed ``tienlen._core`` and a second build of it (see ab_cores.py) and
times the same loop as that row (compare.py's cheap NumPy policy, then ``VecGames.step``)
for both builds at 1 and 2 threads, the four sides alternating round by round in mirrored
order, by wall clock. Each side reports its median wall and CPU nanoseconds per learner
step; the 2-thread speedup of each build is the ratio of its medians, so host drift hits
both builds alike.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Callable

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from ab_cores import load_base  # noqa: E402
from tienlen import _core as new_core  # noqa: E402


def side(core: ModuleType, envs: int, threads: int, calls: int, seed: int,
         cpu: list[float]) -> Callable[[], float]:
    """One timed sample: `calls` policy-then-step iterations; wall ns per learner step."""
    v = core.VecGames(envs, opponents=(core.RANDOM,) * 3, seed=seed)
    rng = np.random.default_rng(seed)

    def run() -> float:
        c0, t0 = time.process_time(), time.perf_counter()
        for _ in range(calls):
            legal = v.num_legal.astype(np.int64)
            can_pass = v.action_mask[:, 0].astype(np.int64)
            actions = (rng.random(envs) * (legal + can_pass)).astype(np.int64) + (1 - can_pass)
            v.step(actions, threads)
        t1, c1 = time.perf_counter(), time.process_time()
        cpu.append((c1 - c0) / calls / envs * 1e9)
        return (t1 - t0) / calls / envs * 1e9
    return run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", type=Path, required=True, help="the other build's _core .so")
    ap.add_argument("--envs", type=int, default=8192, help="envs per VecGames (compare.py: 8192)")
    ap.add_argument("--calls", type=int, default=10, help="steps per sample")
    ap.add_argument("--rounds", type=int, default=41)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    builds = {"base": load_base(args.base), "new": new_core}
    cpu: dict[str, list[float]] = {}
    sides: dict[str, Callable[[], float]] = {}
    for name, core in builds.items():
        for t in (1, 2):
            key = f"{name}, {t} thread{'s' if t > 1 else ''}"
            cpu[key] = []
            sides[key] = side(core, args.envs, t, args.calls, args.seed, cpu[key])
    wall: dict[str, list[float]] = {k: [] for k in sides}
    order = list(sides)
    for r in range(args.rounds):
        for key in (order if r % 2 == 0 else order[::-1]):
            wall[key].append(sides[key]())
    med = {k: statistics.median(v) for k, v in wall.items()}
    print(f"{args.envs} envs, {args.rounds} rounds of {args.calls} steps, "
          f"load {Path('/proc/loadavg').read_text().split()[0] if Path('/proc/loadavg').exists() else '?'}")
    print("| side | wall ns/step | CPU ns/step |")
    print("|---|---:|---:|")
    for key in sides:
        print(f"| {key} | {med[key]:.0f} | {statistics.median(cpu[key]):.0f} |")
    for name in builds:
        print(f"{name}: 2 threads vs 1: {med[f'{name}, 1 thread'] / med[f'{name}, 2 threads']:.2f}x")
    print(f"new/base, 1 thread: {med['new, 1 thread'] / med['base, 1 thread']:.3f}; "
          f"2 threads: {med['new, 2 threads'] / med['base, 2 threads']:.3f}")


if __name__ == "__main__":
    main()
