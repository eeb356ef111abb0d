"""Builds of the core's vectorised env against each other, one fresh process per sample.

    python bench/ab_vec_procs.py 30 base=/path/a/_core.so new=/path/b/_core.so [name=path ...]

bench/ab_vec_threads.py interleaves builds inside one process, where the first batches
allocated and the host's per-vCPU speed at that moment favour some sides (an A/A run there
read 1.16x). Here every sample is its own process: it loads one build, makes a 1-thread and a
2-thread VecGames of 8,192 envs against native random opponents, times compare.py's loop
(the cheap NumPy policy, then ``step``) alternately for 9 rounds of 10 steps, and prints
the medians. Builds alternate process by process (in mirrored order), and each build is
compared with the first one process by process, so host drift between processes hits both.
"""

from __future__ import annotations

import importlib.util
import statistics
import subprocess
import sys
import time


def one(path: str, envs: int = 8192, calls: int = 10, rounds: int = 9) -> None:
    """The child: one build, both thread counts; prints wall ns per learner step of each."""
    import numpy as np

    spec = importlib.util.spec_from_file_location("tienlen_ab._core", path)
    assert spec is not None and spec.loader is not None
    core = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(core)
    sides = {}
    for t in (1, 2):
        v = core.VecGames(envs, opponents=(core.RANDOM,) * 3, seed=1)
        rng = np.random.default_rng(1)

        def run(v=v, rng=rng, t=t) -> float:
            t0 = time.perf_counter()
            for _ in range(calls):
                legal = v.num_legal.astype(np.int64)
                can_pass = v.action_mask[:, 0].astype(np.int64)
                actions = (rng.random(envs) * (legal + can_pass)).astype(np.int64) + (1 - can_pass)
                v.step(actions, t)
            return (time.perf_counter() - t0) / calls / envs * 1e9
        sides[t] = run
    wall: dict[int, list[float]] = {1: [], 2: []}
    for r in range(rounds):
        for t in ((1, 2) if r % 2 == 0 else (2, 1)):
            wall[t].append(sides[t]())
    print(statistics.median(wall[1]), statistics.median(wall[2]))


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        one(sys.argv[2])
        return
    procs = int(sys.argv[1])
    builds = [a.split("=", 1) for a in sys.argv[2:]]
    res: dict[str, list[tuple[float, float]]] = {name: [] for name, _ in builds}
    for p in range(procs):
        for name, path in (builds if p % 2 == 0 else builds[::-1]):
            out = subprocess.run([sys.executable, __file__, "--child", path],
                                 capture_output=True, text=True, check=True).stdout.split()
            res[name].append((float(out[0]), float(out[1])))
    base = builds[0][0]
    print(f"{procs} processes per build; wall ns per learner step, medians")
    print("| build | 1 thread | 2 threads | speedup (min-max) | 1 thread vs base | 2 threads vs base |")
    print("|---|---:|---:|---|---:|---:|")
    for name, _ in builds:
        one_t = [a for a, _ in res[name]]
        two_t = [b for _, b in res[name]]
        sp = [a / b for a, b in res[name]]
        r1 = statistics.median(res[name][i][0] / res[base][i][0] for i in range(procs))
        r2 = statistics.median(res[name][i][1] / res[base][i][1] for i in range(procs))
        print(f"| {name} | {statistics.median(one_t):.0f} | {statistics.median(two_t):.0f} | "
              f"{statistics.median(sp):.2f} ({min(sp):.2f}-{max(sp):.2f}) | {r1:.3f} | {r2:.3f} |")


if __name__ == "__main__":
    main()
