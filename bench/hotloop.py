"""Run one hot path alone, for a profiler: the same seeded inputs as compare.py.

    PY=$(python -c 'import sys; print(sys.executable)')   # not a pyenv shim: valgrind runs it
    valgrind --tool=callgrind --branch-sim=yes \
        --toggle-collect='__pyx_pf_7tienlen_5_core_*classify_many*' \
        $PY bench/hotloop.py classify_many
    perf record -g $PY bench/hotloop.py legal_moves_many --reps 200

Instruction counts from callgrind are repeatable on a noisy machine where times are not.
``--toggle-collect`` counts only inside the named function, which needs a core built with
symbols (the default install is stripped): ``pip install --no-build-isolation -e .
-Cinstall.strip=false``. The item count is printed on stderr, to divide by.
``--setup-only`` builds the inputs without running the hot path.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import workloads  # noqa: E402
from tienlen import core  # noqa: E402


def targets(seed: int):
    """name -> (setup() -> state, run(state) -> items)."""

    def plays_list():
        return workloads.candidate_plays(20_000, seed)

    def run_classify(xs):
        f = core.classify
        for m in xs:
            f(m)
        return len(xs)

    def run_bit_count(xs):
        f = int.bit_count
        for m in xs:
            f(m)
        return len(xs)

    def plays_array():
        arr = workloads.candidate_plays_array(1 << 20, seed)
        return arr, np.empty(len(arr), np.uint32), np.empty(len(arr), np.uint8)

    def run_classify_many(st):
        core.classify_many(st[0], out=st[1])
        return len(st[0])

    def run_bitwise_count(st):
        np.bitwise_count(st[0], out=st[2])
        return len(st[0])

    def hands_list():
        return workloads.dealt_hands(4000, seed)

    def run_legal_moves(hands):
        f = core.legal_moves
        for h in hands:
            f(h)
        return len(hands)

    def hands_array():
        return workloads.as_u64(workloads.dealt_hands(4000, seed))

    def run_legal_moves_many(arr):
        core.legal_moves_many(arr)
        return len(arr)

    def run_count_many(arr):
        core.count_legal_moves_many(arr)
        return len(arr)

    def run_playouts(_):
        core.random_playouts(2000, 4, seed)
        return 2000

    def game_setup():
        from compare import _game_api

        Game, PASS = _game_api()
        if Game is None:
            raise SystemExit(PASS)
        return Game, PASS

    def run_game_checked(api):
        from compare import game_random_checked

        rng = random.Random(seed)
        for s in range(200):
            game_random_checked(api[0], s, rng)
        return 200

    def openspiel_setup():
        from compare import _open_spiel

        game, why = _open_spiel()
        if game is None:
            raise SystemExit(why)
        return game

    def run_openspiel(game):
        from compare import _ddz_random_game

        rng = random.Random(seed)
        for _ in range(200):
            _ddz_random_game(game, rng)
        return 200

    return {
        "classify": (plays_list, run_classify),
        "bit_count": (plays_list, run_bit_count),
        "classify_many": (plays_array, run_classify_many),
        "bitwise_count": (plays_array, run_bitwise_count),
        "legal_moves": (hands_list, run_legal_moves),
        "legal_moves_many": (hands_array, run_legal_moves_many),
        "count_legal_moves_many": (hands_array, run_count_many),
        "random_playouts": (lambda: None, run_playouts),
        "game_checked": (game_setup, run_game_checked),
        "openspiel_games": (openspiel_setup, run_openspiel),
    }


def main() -> None:
    t = targets(0)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("target", choices=sorted(t))
    ap.add_argument("--reps", type=int, default=1)
    ap.add_argument("--setup-only", action="store_true")
    args = ap.parse_args()
    setup, run = t[args.target]
    state = setup()
    items = 0
    if not args.setup_only:
        for _ in range(args.reps):
            items += run(state)
    print(f"{args.target}: {items} items", file=sys.stderr)


if __name__ == "__main__":
    main()
