"""The Guandan Python game layer (``tienlen/guandan/game.py`` and ``match.py``) of two git
revisions head to head, in one process.

    python bench/ab_guandan_game.py --base main [--rounds 21]   # main's layer against this tree's
    python bench/ab_guandan_game.py --base main --aa            # A/A: main's against itself

The core is the installed one for both sides (this compares Python, not builds: for the core
see ab_guandan.py). ``--base`` names a git revision of this repository; its two modules are
loaded from ``git show`` under other names inside ``tienlen.guandan``, so they share the
installed cards, plays and core. Rows, per action, by this thread's CPU time, sides
alternating round by round in mirrored order (compare.py's ``interleave``):

- checked random loop: compare.py's ``bench_guandan_game`` hand (legal_plays, can_pass,
  play or pass_turn);
- reads each action: the same plus turn, pile and hand of the seat to act, the reads a
  front end makes at each decision;
- tribute: a later hand dealt with ``previous_order`` (tribute judged), then every tribute
  and return given through the checked path;
- Match + L1 bots: a one-hand match as the arena plays it (turn, view, bot, act).

Prints each row's medians and the median per-round ratio new/base with its IQR.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import types
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import compare  # noqa: E402  (interleave, med, ratio, iqr)
from guandan_game_bench import gd_random_checked  # noqa: E402
import tienlen.guandan  # noqa: E402,F401  (the package the loaded modules live in)
from tienlen.games.guandan import game as tree_game
from tienlen.games.guandan import match as tree_match  # noqa: E402
from tienlen.games.guandan.bots import make_bot  # noqa: E402
from tienlen.games.guandan.game import return_candidates, tribute_candidates  # noqa: E402

Side = Callable[[], int]


def load(name: str, source: str) -> types.ModuleType:
    """``source`` run as the module ``tienlen.guandan.<name>`` (its relative imports resolve
    to the installed package)."""
    module = types.ModuleType(f"tienlen.guandan.{name}")
    module.__package__ = "tienlen.guandan"
    sys.modules[module.__name__] = module
    exec(compile(source, f"<{name}>", "exec"), module.__dict__)
    return module


def load_revision(rev: str, tag: str) -> tuple[types.ModuleType, types.ModuleType]:
    def show(path: str) -> str:
        return subprocess.check_output(["git", "-C", str(HERE.parent), "show", f"{rev}:{path}"],
                                       text=True)
    game = load(f"_game_{tag}", show("tienlen/guandan/game.py"))
    match = load(f"_match_{tag}", show("tienlen/guandan/match.py").replace(
        "from .game import", f"from ._game_{tag} import"))
    return game, match


def checked(game: types.ModuleType) -> Side:
    rng, seeds = random.Random(1), iter(range(10**9))
    return lambda: sum(gd_random_checked(game.Game, next(seeds), rng) for _ in range(8))


def reads(game: types.ModuleType) -> Side:
    rng, seeds = random.Random(2), iter(range(10**9))

    def run() -> int:
        n = 0
        for _ in range(6):
            g = game.Game(seed=next(seeds))
            while not g.is_over:
                seat = g.turn
                g.pile, g.hand(seat)
                plays = g.legal_plays()
                if g.can_pass() and (not len(plays) or rng.random() < 0.5):
                    g.pass_turn()
                else:
                    g.play(plays[rng.randrange(len(plays))])
                n += 1
        return n
    return run


def tribute(game: types.ModuleType) -> Side:
    seeds = iter(range(10**9))

    def run() -> int:
        n = 0
        for _ in range(200):
            s = next(seeds)
            g = game.Game(seed=s, level=2 + s % 13,
                          previous_order=(0, 1, 2, 3) if s % 2 else (0, 2, 1, 3))
            while g.phase == "tribute":
                seat = g.turn
                hand = g.hand(seat)
                if any(t.card is None for t in g.tributes):
                    g.give_tribute(tribute_candidates(hand, g.level, g.config)[0], seat)
                else:
                    g.return_tribute(return_candidates(hand, g.level, g.config)[0], seat)
                n += 1
            n += 1
        return n
    return run


def match_bots(match: types.ModuleType) -> Side:
    seeds = iter(range(10**9))

    def run() -> int:
        m = match.Match(seed=next(seeds), max_hands=1)
        bots = [make_bot("L1", seed=s) for s in range(4)]
        n = 0
        while not m.is_over:
            seat = m.turn
            m.act(*bots[seat].decide(m.game.view(seat)), seat=seat)
            n += 1
        return n
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default="main", help="git revision of the base side")
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--aa", action="store_true", help="the base against itself")
    args = parser.parse_args()
    base_game, base_match = load_revision(args.base, "base")
    new_game, new_match = (load_revision(args.base, "aa") if args.aa
                           else (tree_game, tree_match))
    print(f"base={args.base} new={'base again (A/A)' if args.aa else 'this tree'} "
          f"rounds={args.rounds}")
    rows = [("checked random loop (ns/action)", checked(base_game), checked(new_game)),
            ("reads each action (ns/action)", reads(base_game), reads(new_game)),
            ("tribute set-up and exchange (ns/action)", tribute(base_game), tribute(new_game)),
            ("Match + L1 bots (ns/action)", match_bots(base_match), match_bots(new_match))]
    for name, base_side, new_side in rows:
        s = compare.interleave({"base": base_side, "new": new_side}, args.rounds)
        print(f"{name:42s} base {compare.med(s['base']):9.0f}  new {compare.med(s['new']):9.0f}  "
              f"new/base {compare.ratio(s['new'], s['base']):.3f} "
              f"(IQR {compare.iqr(s['new'], s['base'])})")


if __name__ == "__main__":
    main()
