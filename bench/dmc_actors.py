"""How fast the trainer's actors generate decisions (issue 37): 1 against 2 actor processes on
this machine, and actors on a loopback Dask cluster (``local:N``), per core and in all.

    python bench/dmc_actors.py [--game guandan] [--rounds 5] [--tasks 2] [--dask 2]

Each side runs :func:`tienlen.rl.dmc.collect` tasks (``--task-decisions`` decisions with
their returns each, every legal action of every table scored by the default network,
256/128 units, one torch thread per process) with one fixed network and no learner, so
that only the actors are timed. The 1- and 2-process pools are started (and warmed by one
task each) before timing, and alternate round by round; each round submits ``--tasks``
tasks per process and times them by wall clock. Printed: decisions per second in all, per
process, and per CPU-second of an actor (the task's own CPU time), the 2-vs-1 speedup, and
the machine's load, which on a shared machine caps the speedup (two processes need two
idle cores). DanZero-family reproductions report ~240 decisions per second per actor.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import multiprocessing
import os
import statistics
import time
from typing import Any

from tienlen.rl.dmc import collect
from tienlen.rl.games import dmc as game_dmc, encoder


def _tasks(game: str, groups: list[tuple[str, int]], weights: dict[str, Any], n: int,
           decisions: int, seed: int, run: str) -> list[dict[str, Any]]:
    return [{"run": run, "game": game, "groups": groups, "seed": seed + k, "weights": weights,
             "hidden": 256, "head": 128, "eps": 0.1, "decisions": decisions} for k in range(n)]


def _time(executor: cf.Executor, tasks: list[dict[str, Any]]) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds of the tasks, decisions) of running ``tasks``."""
    t0 = time.perf_counter()
    results = list(executor.map(collect, tasks))
    wall = time.perf_counter() - t0
    return wall, sum(r["cpu"] for r in results), sum(len(r["target"]) for r in results)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="guandan")
    ap.add_argument("--tables", default="self:64")
    ap.add_argument("--task-decisions", type=int, default=8192)
    ap.add_argument("--tasks", type=int, default=2, help="tasks per process per round")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--dask", type=int, default=2, help="workers of the local:N side (0: none)")
    args = ap.parse_args()
    kind, _, n = args.tables.partition(":")
    groups = [(kind, int(n))]
    dmc = game_dmc(args.game)
    net = dmc.build(256, 128)
    weights = {k: v.detach().numpy() for k, v in net.state_dict().items()}
    spawn = multiprocessing.get_context("spawn")
    load0 = os.getloadavg()[0]
    sides: dict[str, tuple[cf.Executor, int]] = {
        "1 process": (cf.ProcessPoolExecutor(1, mp_context=spawn), 1),
        "2 processes": (cf.ProcessPoolExecutor(2, mp_context=spawn), 2)}
    samples: dict[str, list[tuple[float, float, int]]] = {name: [] for name in sides}
    try:
        for name, (pool, procs) in sides.items():   # start and warm every process
            _time(pool, _tasks(args.game, groups, weights, procs, 1024, 0, name))
        for r in range(args.rounds):
            for name in (list(sides) if r % 2 == 0 else list(sides)[::-1]):
                pool, procs = sides[name]
                samples[name].append(_time(pool, _tasks(
                    args.game, groups, weights, procs * args.tasks, args.task_decisions,
                    1000 * r, name)))
    finally:
        for pool, _ in sides.values():
            pool.shutdown()
    if args.dask:
        from tienlen.arena.scale import dask_executor

        name = f"Dask local:{args.dask}"
        samples[name] = []
        with dask_executor(f"local:{args.dask}") as (executor, workers):
            _time(executor, _tasks(args.game, groups, weights, workers, 1024, 0, name))
            for r in range(args.rounds):
                samples[name].append(_time(executor, _tasks(
                    args.game, groups, weights, workers * args.tasks, args.task_decisions,
                    1000 * r, name)))
    print(f"{args.game}, tables {args.tables}, {args.task_decisions} decisions a task, "
          f"{args.rounds} rounds; load {load0:.2f} -> {os.getloadavg()[0]:.2f} "
          f"({os.cpu_count()} cores)")
    print("| side | decisions/s in all | per process | per CPU-second of an actor |")
    print("|---|---:|---:|---:|")
    rate = {}
    for name, rows in samples.items():
        procs = 1 if name == "1 process" else 2 if name == "2 processes" else args.dask
        rate[name] = statistics.median(d / w for w, c, d in rows)
        per_cpu = statistics.median(d / c for w, c, d in rows)
        print(f"| {name} | {rate[name]:,.0f} | {rate[name] / procs:,.0f} | {per_cpu:,.0f} |")
    print(f"2 processes vs 1: {rate['2 processes'] / rate['1 process']:.2f}x")


if __name__ == "__main__":
    main()
