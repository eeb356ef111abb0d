"""Where Guandan's L3 overrules the plan: first hands of two L3 seats against two seats of
another bot, and for each of L3's searched decisions the plan's own choice (its reason and
kind) beside the search's, counted by the plan's reason (issue 35: a diagnostic, to find
which of the plan's rules the search disagrees with most).

    python bench/guandan_l3_overrides.py --hands 100 --seed 700 --iterations 300
    python bench/guandan_l3_overrides.py --hands 100 --seed 700 --opponent style:hoarder

L3 plays on a fixed number of sampled deals (``--iterations``), so a run is reproducible
from its seed on any machine; its side alternates from hand to hand.
"""

from __future__ import annotations

import argparse
import collections
import sys
import time

from tienlen.guandan import Game
from tienlen.games.guandan.bots import SearchBot, make_bot, plan_decision
from tienlen.games.guandan.explain import Weighed
from tienlen.games.guandan.game import GameView
from tienlen.games.guandan.plays import Play


def _context(view: GameView) -> str:
    """What the seat answers: a lead, its partner's pile or an opponent's."""
    if view.pile is None:
        return "lead"
    return "partner's pile" if view.pile_owner == view.partner else "opponent's pile"


def _bomb_bucket(view: GameView) -> str:
    """The plan's bomb by how close the nearer opponent is to out and how many cards the
    seat holds (the plan bombs in danger, opponent at 6 or fewer, or on an owner at 12)."""
    sizes = view.hand_sizes
    left = [sizes[s] for s in range(4) if s not in (view.seat, view.partner) and sizes[s] > 0]
    near = min(left) if left else 0
    opp = "opponent <= 6" if near <= 6 else "opponent <= 12" if near <= 12 else "opponent > 12"
    mine = sizes[view.seat]
    own = "own <= 8" if mine <= 8 else "own <= 16" if mine <= 16 else "own > 16"
    return f"{opp}, {own}"


def _kind(cards: object) -> str:
    """A decision's play as its kind's name, or ``pass``."""
    return cards.kind.name.lower() if isinstance(cards, Play) else "pass"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=100)
    ap.add_argument("--seed", type=int, default=700)
    ap.add_argument("--iterations", type=int, default=300, help="L3's sampled deals a decision")
    ap.add_argument("--opponent", default="L2", help="the other side's bot (default L2)")
    ap.add_argument("--top", type=int, default=30, help="rows of the table (default 30)")
    args = ap.parse_args(argv)
    rows: collections.Counter[tuple[str, str, str]] = collections.Counter()
    gains: dict[tuple[str, str, str], float] = collections.defaultdict(float)
    bombs: collections.Counter[str] = collections.Counter()
    bomb_passes: collections.Counter[str] = collections.Counter()
    searched = decisions = 0
    start = time.perf_counter()
    for h in range(args.hands):
        game = Game(seed=args.seed + h)
        side = h % 2
        bots = {s: SearchBot(seed=(args.seed + h) * 4 + s, iterations=args.iterations)
                if s % 2 == side else make_bot(args.opponent, seed=(args.seed + h) * 4 + s)
                for s in range(4)}
        while not game.is_over:
            seat = game.turn
            assert seat is not None
            view = game.view(seat)
            bot = bots[seat]
            if not isinstance(bot, SearchBot):
                kind, cards = bot.decide(view)
                game.act(kind, cards, seat)
                continue
            decisions += 1
            base = plan_decision(view)
            decision = bot.explain(view)
            game.act(decision.kind, decision.cards, seat)
            why = decision.why
            weighed: tuple[Weighed, ...] = () if why is None else why.fields.get("weighed", ())
            if len(weighed) < 2:
                continue                          # not searched: one action, or going out
            searched += 1
            reason = "?" if base.why is None else base.why.code
            base_kind, choice = _kind(base.cards), _kind(decision.cards)
            held = why is not None and why.code == "SEARCH_HELD"
            key = (_context(view), f"{reason} ({base_kind})", "kept" if held else choice)
            rows[key] += 1
            gains[key] += weighed[0].gain
            if reason == "BOMB":
                bucket = _bomb_bucket(view)
                bombs[bucket] += 1
                bomb_passes[bucket] += decision.cards is None
    wall = time.perf_counter() - start
    print(f"{args.hands} first hands, seed {args.seed}, L3 on {args.iterations} deals against "
          f"{args.opponent}: {decisions} decisions of L3, {searched} searched ({wall:.0f} s)")
    totals: collections.Counter[tuple[str, str]] = collections.Counter()
    for (ctx, plan, _), n in rows.items():
        totals[(ctx, plan)] += n
    print("\n| answering | the plan's choice | the search | decisions | share | mean gain |")
    print("|---|---|---|---:|---:|---:|")
    for key, n in rows.most_common(args.top):
        ctx, plan, choice = key
        print(f"| {ctx} | {plan} | {choice} | {n} | {100 * n / totals[(ctx, plan)]:.1f}% "
              f"| {gains[key] / n:+.3f} |")
    print("\n| the plan's bomb | decisions | the search passes |")
    print("|---|---:|---:|")
    for bucket in sorted(bombs):
        print(f"| {bucket} | {bombs[bucket]} | {100 * bomb_passes[bucket] / bombs[bucket]:.0f}% |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
