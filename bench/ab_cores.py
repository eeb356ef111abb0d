"""Two builds of the Tiến Lên core head to head, in one process: the hot-path rows.

    python bench/ab_cores.py --base /path/to/other/tienlen/_core.cpython-*.so [--rounds 9]
    python bench/ab_cores.py --base A.so --new COPY_OF_A.so     # A/A: the method's own bias

Loads the installed ``tienlen._core`` (this tree) and a second build of the same module from
``--base`` (for example main's, built with ``pip install --target DIR``) side by side, and
times every hot-path row on identical inputs, sides alternating round by round in mirrored
order (compare.py's ``interleave``), by this thread's CPU time. Prints each row's median
per-item time for both builds and the median per-round ratio new/base (below 1: the new
build is faster) with its interquartile range. The rows run under the contract (flags 0),
which both builds accept, plus, for the new build alone, the Southern preset for scale.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Callable

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import compare  # noqa: E402  (timing helpers: interleave, ratio, iqr)
import workloads  # noqa: E402
from tienlen import _core as new_core  # noqa: E402


def load_base(path: Path, package: str = "tienlen_base", module: str = "_core") -> ModuleType:
    """The other build of core `module`, imported under another package name (its init
    symbol is the same PyInit_<module>, which the last name component selects)."""
    spec = importlib.util.spec_from_file_location(f"{package}.{module}", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


Row = Callable[[ModuleType], Callable[[], int]]


def rows(seed: int) -> dict[str, Row]:
    hands = workloads.dealt_hands(2000, seed)
    f_hands, f_piles = workloads.following(2000, seed)
    l_hands, l_piles = workloads.locked_on_twos(1000, seed)
    plays = workloads.candidate_plays(20000, seed)
    b_play, b_pile = workloads.beat_pairs(20000, seed)
    arr_plays = workloads.candidate_plays_array(1_000_000, seed)
    arr_bp, arr_bq = workloads.as_u32(b_play * 50), workloads.as_u32(b_pile * 50)
    arr_hands = workloads.as_u64(hands * 2)
    arr_fh, arr_fp = workloads.as_u64(f_hands * 2), workloads.as_u32(f_piles * 2)
    rng = random.Random(seed)

    def classify(core: ModuleType) -> Callable[[], int]:
        c = core.classify
        return lambda: sum(1 for m in plays if c(m) >= 0)

    def beats(core: ModuleType) -> Callable[[], int]:
        b = core.beats
        return lambda: sum(1 for p, q in zip(b_play, b_pile) if b(p, q) or True)

    def lead(core: ModuleType) -> Callable[[], int]:
        lm = core.legal_moves
        return lambda: sum(1 for h in hands if lm(h) is not None)

    def follow(core: ModuleType) -> Callable[[], int]:
        lm = core.legal_moves
        return lambda: sum(1 for h, p in zip(f_hands, f_piles) if lm(h, p) is not None)

    def locked(core: ModuleType) -> Callable[[], int]:
        lm = core.legal_moves
        return lambda: sum(1 for h, p in zip(l_hands, l_piles) if lm(h, p, 0, True) is not None)

    def count_follow(core: ModuleType) -> Callable[[], int]:
        cm = core.count_legal_moves
        return lambda: sum(1 for h, p in zip(f_hands, f_piles) if cm(h, p) >= 0)

    def classify_many(core: ModuleType) -> Callable[[], int]:
        out = np.empty(len(arr_plays), np.uint32)
        return lambda: (core.classify_many(arr_plays, 0, out), len(arr_plays))[1]

    def beats_many(core: ModuleType) -> Callable[[], int]:
        out = np.empty(len(arr_bp), np.bool_)
        return lambda: (core.beats_many(arr_bp, arr_bq, 0, out), len(arr_bp))[1]

    def moves_many_lead(core: ModuleType) -> Callable[[], int]:
        return lambda: (core.legal_moves_many(arr_hands), len(arr_hands))[1]

    def moves_many_follow(core: ModuleType) -> Callable[[], int]:
        return lambda: (core.legal_moves_many(arr_fh, arr_fp), len(arr_fh))[1]

    def playouts(policy: str, n: int) -> Row:
        def side(core: ModuleType) -> Callable[[], int]:
            pol = getattr(core, policy)
            return lambda: (core.random_playouts(n, 4, seed, 0, pol), n)[1]
        return side

    endgames = []
    for s in range(40):
        deal = new_core.deal(seed * 1000 + s, 2)
        r = random.Random(s)
        endgames.append(tuple(sum(1 << c for c in r.sample(workloads.bits(h), 6)) for h in deal))

    def solver(core: ModuleType) -> Callable[[], int]:
        states = [core.GameState(h, 0) for h in endgames]
        return lambda: sum(1 for st in states if core.solve(st)[0] >= 0)

    def rl_step(core: ModuleType) -> Callable[[], int]:
        v = core.VecGames(256, opponents=(core.RANDOM,) * 3, seed=seed)
        acts = np.zeros(256, np.int64)

        def run() -> int:
            for _ in range(20):
                np.minimum(v.num_legal, 1, out=acts)
                v.step(acts)
            return 20 * 256
        return run

    def count_many_follow(core: ModuleType) -> Callable[[], int]:
        out = np.empty(len(arr_fh), np.int64)
        return lambda: (core.count_legal_moves_many(arr_fh, arr_fp, 0, None, None, out),
                        len(arr_fh))[1]

    def rl_outs(core: ModuleType) -> Callable[[], int]:
        # The per-call out= paths (observe, action_mask): what array_out adds is per call.
        g = core.RLGame(4)
        g.reset(seed)
        obs, mask = np.empty(core.RL_OBS_SIZE, np.uint8), np.empty(core.RL_NUM_ACTIONS, np.int8)

        def run() -> int:
            for _ in range(500):
                g.observe(0, obs)
                g.action_mask(mask)
            return 1000
        return run

    del rng
    return {
        "classify (per call)": classify,
        "beats (per call)": beats,
        "legal moves, lead (13 cards)": lead,
        "legal moves, follow": follow,
        "legal moves, locked out on 2s": locked,
        "count legal moves, follow": count_follow,
        "classify_many (1M)": classify_many,
        "beats_many (1M)": beats_many,
        "legal_moves_many, lead (4k rows)": moves_many_lead,
        "legal_moves_many, follow (4k rows)": moves_many_follow,
        "random playouts, RANDOM": playouts("RANDOM", 400),
        "random playouts, GREEDY": playouts("GREEDY", 400),
        "random playouts, PLAN": playouts("PLAN", 200),
        "solver (2-player 6-card endgames)": solver,
        "RL step (VecGames, 256 envs)": rl_step,
        "count_legal_moves_many, follow (4k rows, out=)": count_many_follow,
        "RL observe + action_mask (per call, out=)": rl_outs,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", type=Path, required=True, help="the other build's _core .so")
    ap.add_argument("--new", type=Path, default=None,
                    help="a copy of a _core .so to time as the new side instead of the installed "
                         "build (a copy of --base measures the method's own bias: an A/A run)")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", default="", help="comma-separated substrings of row names")
    args = ap.parse_args()
    base = load_base(args.base)
    new = new_core if args.new is None else load_base(args.new, "tienlen_new")
    print_table(rows(args.seed), base, new, args.rounds, args.only, "ns/item", ",.0f")


def print_table(table: dict[str, Row], base: ModuleType, new: ModuleType, rounds: int,
                only: str, unit: str, fmt: str) -> None:
    """Time each row of `table` on both builds, interleaved, and print a markdown table of
    the medians and new/base (the rows whose names contain one of `only`'s comma-separated
    substrings, or all)."""
    wanted = [w for w in only.split(",") if w]
    print(f"| row | base {unit} | new {unit} | new/base (IQR) |")
    print("|---|---:|---:|---|")
    for name, row in table.items():
        if wanted and not any(w in name for w in wanted):
            continue
        samples = compare.interleave({"base": row(base), "new": row(new)}, rounds)
        print(f"| {name} | {compare.med(samples['base']):{fmt}} | {compare.med(samples['new']):{fmt}}"
              f" | {compare.ratio(samples['new'], samples['base']):.3f} "
              f"({compare.iqr(samples['new'], samples['base'])}) |", flush=True)


if __name__ == "__main__":
    main()
