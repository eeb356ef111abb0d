"""The arena on Dask against processes: the issue-15 speed goals, measured in one run.

    python bench/scale_compare.py                        # 100,000 L1 games, 2 rounds (minutes)
    python bench/scale_compare.py --games 20000 --rounds 3
    python bench/scale_compare.py --json /tmp/scale.json

Separate from bench/compare.py because the goal is stated at 100,000 games, minutes of
work per side, too long for compare.py's 20-45 s run.

Sides, each playing the same games in the same work units (``scale.unit_deals``):
``pool2`` (``tienlen.arena.simulate`` on a 2-process ``ProcessPoolExecutor``, what ``--jobs 2`` does),
``dask1`` and ``dask2`` (a loopback ``LocalCluster`` of 1 and 2 single-threaded worker
processes, what ``--scheduler local:N`` starts; each side's processes are started before
its timing and stopped after it, so that nothing idles beside the side being timed). They
alternate in mirrored order round by round (A B C C B A ...) and the goals are judged on
the median of the per-round ratios:

- speedup: dask1 wall / dask2 wall >= 1.8 (90% efficiency from a second worker);
- overhead: dask2 wall / pool2 wall <= 1.10.

Wall time is what these goals are about, and it needs two idle cores: on a shared machine
the second worker waits for a core, and the speedup reads low. So the script also reports
the CPU seconds of every process of a side (client and workers, via psutil): the Dask
overhead in CPU terms does not depend on the load, and the load average is printed with
the verdict (a miss under load is "inconclusive").
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import platform
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import psutil

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from tienlen.arena import scale, simulate  # noqa: E402


def cpu_seconds(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        times = psutil.Process(pid).cpu_times()
        total += times.user + times.system
    return total


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--lineup", default="L1,L1,L1,L1")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    import distributed

    logging.getLogger("distributed").setLevel(logging.ERROR)

    lineup = args.lineup.split(",")
    players = len(lineup)
    deals = args.games // players
    unit = scale.unit_deals(lineup, deals=deals, workers=2)
    print(f"{args.games} games of {','.join(lineup)}, {deals // unit + (deals % unit > 0)} "
          f"units of {unit * players} games, {args.rounds} rounds; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores", flush=True)

    def cluster(n: int):
        # As tienlen.arena.scale starts them for --scheduler local:N (no profiler sampling, slow
        # housekeeping clocks).
        import dask

        with dask.config.set(scale._LOCAL_CLUSTER_CONFIG):
            local = distributed.LocalCluster(
                n_workers=n, threads_per_worker=1, processes=True, host="127.0.0.1",
                dashboard_address=None, worker_dashboard_address=None,
                scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                silence_logs=logging.ERROR)
        client = distributed.Client(local, set_as_default=False)
        client.wait_for_workers(n)
        return local, client

    me = os.getpid()

    @contextlib.contextmanager
    def side(name: str):
        """The side's executor and the pids whose CPU it spends, started (untimed) for
        this round alone: an idle cluster's scheduler would bill its heartbeats to
        whichever side runs beside it in this process."""
        if name == "pool2":
            with ProcessPoolExecutor(2) as pool:
                list(pool.map(abs, range(4)))     # start both processes before timing
                yield pool, [me, *pool._processes]  # noqa: SLF001 - the pool's processes
            return
        local, client = cluster(int(name[-1]))
        try:
            # The scheduler and nannies run in this process: their CPU counts via `me`.
            yield scale.ClientExecutor(client), [me, *client.run(os.getpid).values()]
        finally:
            client.close()
            local.close()

    names = ["pool2", "dask1", "dask2"]
    wall: dict[str, list[float]] = {name: [] for name in names}
    cpu: dict[str, list[float]] = {name: [] for name in names}
    reference = None
    for r in range(args.rounds):
        for name in names if r % 2 == 0 else names[::-1]:
            with side(name) as (executor, pids):
                c0, t0 = cpu_seconds(pids), time.perf_counter()
                result = simulate("tienlen", lineup, args.games, players=players,
                                  seed=args.seed, executor=executor, unit_deals=unit)
                dt, dc = time.perf_counter() - t0, cpu_seconds(pids) - c0
            wall[name].append(dt)
            cpu[name].append(dc)
            if reference is None:
                reference = result
            assert (result.places == reference.places).all(), f"{name} played other games"
            print(f"  round {r + 1} {name:6} {dt:7.1f} s wall {dc:7.1f} s cpu  "
                  f"{args.games / dt:8.0f} games/s", flush=True)

    def ratio(a: str, b: str, of: dict[str, list[float]]) -> float:
        return statistics.median(x / y for x, y in zip(of[a], of[b]))

    load = os.getloadavg()[0]
    busy = load > (os.cpu_count() or 1)
    speedup = ratio("dask1", "dask2", wall)
    overhead = ratio("dask2", "pool2", wall)
    cpu_overhead = ratio("dask2", "pool2", cpu)
    verdict = {
        "speedup dask1/dask2 wall >= 1.8": (speedup, speedup >= 1.8),
        "overhead dask2/pool2 wall <= 1.10": (overhead, overhead <= 1.10),
        "overhead dask2/pool2 cpu <= 1.10": (cpu_overhead, cpu_overhead <= 1.10),
    }
    for goal, (value, met) in verdict.items():
        status = "met" if met else ("inconclusive (machine busy)" if busy else "MISSED")
        print(f"  {status:28} {goal}: {value:.3f}")
    for name in names:
        print(f"  {name:6} median {args.games / statistics.median(wall[name]):8.0f} games/s wall, "
              f"{args.games / statistics.median(cpu[name]):8.0f} games per cpu-second")
    print(f"load average {load:.1f} on {os.cpu_count()} cores")
    if args.json:
        args.json.write_text(json.dumps({
            "games": args.games, "lineup": lineup, "unit_games": unit * players,
            "rounds": args.rounds, "wall": wall, "cpu": cpu, "load_after": load,
            "cores": os.cpu_count(), "machine": platform.platform(),
            "python": platform.python_version(), "distributed": distributed.__version__,
            "goals": {k: {"value": v, "met": m} for k, (v, m) in verdict.items()},
        }, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
