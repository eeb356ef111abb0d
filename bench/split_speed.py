"""The L2 bot's hand split: the core's (what tienlen.games.tienlen.bots.split wraps since issue 13) against
the Python search it replaced (kept as tests/reference_split.py). CPU time, so that a loaded
machine skews it less than wall time.

    python bench/split_speed.py

Prints microseconds of CPU per move_damage call (three split scores) on the first 40 legal
moves of 300 dealt hands, cold (first pass) and warm (the Python search is memoised), and the
CPU seconds of a 200-game L2 arena with each split (the places must be equal). The tests'
search packs rank counts with a plain loop, so it is slower than the old bots/split.py was
(which used a slice table): against that module (git show 5fa5bbc:tienlen/bots/split.py) the
warm figure was 2.9 us per call, the arena 0.65-0.69 s.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "reference"))

import reference_split  # noqa: E402

from tienlen import core

from tienlen.arena import simulate  # noqa: E402
from tienlen.games.tienlen.bots import heuristic
from tienlen.games.tienlen.bots import split  # noqa: E402


def _python_damage(hand: int, move: int, flags: int = 0) -> int:
    score = reference_split.split_score
    return score(hand & ~move, flags) + score(move, flags) - score(hand, flags)


def per_call(damage, pairs) -> float:
    start = time.process_time()
    for hand, move in pairs:
        damage(hand, move)
    return (time.process_time() - start) / len(pairs) * 1e6


def arena_cpu() -> tuple[float, bytes]:
    start = time.process_time()
    result = simulate("tienlen", ["L2"] * 4, 200, seed=7)
    return time.process_time() - start, result.places.tobytes()


def main() -> None:
    pairs = [(hand, int(move)) for seed in range(300)
             for hand in (core.deal(seed)[0],) for move in core.legal_moves(hand)[:40]]
    print(f"move_damage, {len(pairs)} calls, us CPU per call:")
    for label, damage in (("core split  ", split.move_damage), ("python split", _python_damage)):
        cold, warm = per_call(damage, pairs), per_call(damage, pairs)
        print(f"  {label}: cold {cold:.2f}, warm {warm:.2f}")
    core_fns = (heuristic.move_damage, heuristic.split_count, heuristic.split_masks)
    python_fns = (_python_damage,
                  lambda mask, flags=0: reference_split.split_score(mask, flags) // 16,
                  reference_split.split_masks)
    print("200 games of four L2 (arena, jobs=1), CPU seconds:")
    for label, fns in (("core split  ", core_fns), ("python split", python_fns)) * 2:
        heuristic.move_damage, heuristic.split_count, heuristic.split_masks = fns
        seconds, places = arena_cpu()
        print(f"  {label}: {seconds:.2f} s, places digest {hash(places) & 0xFFFF:04x}")
    heuristic.move_damage, heuristic.split_count, heuristic.split_masks = core_fns


if __name__ == "__main__":
    main()
