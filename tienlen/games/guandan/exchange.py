"""The tribute and return choices of the plan-playing bots (L2, L3): which card to give and
which to give back (G6.3, G6.4).

The rules leave a choice in both: a payer gives any face of its highest allowed value, a
receiver returns any allowed low card. :class:`~tienlen.games.guandan.bots.Bot`'s defaults
look only at the card's rank count (break the fewest pairs); here each allowed card is taken
out of the hand and the rest is split by the core's plan (the split L2 and L3's playouts play
by), and the card whose loss leaves the best split goes: the fewest groups to play out, then
the most bombs, then the default's order. A 4-card bomb of 7s keeps its 7 and a straight its
middle card when a lone card of the same value lies elsewhere.

>>> from tienlen.games.guandan.cards import Cards
>>> hand = Cards.parse("3s 4d 5c 6h 7s 7d 9c Kd Kc Kh Ah")
>>> [str(Cards([c])) for c in best_return(hand, (4, 14, 30), 2)]   # of 3♠ 5♣ 9♣
['9♣']

(giving back 3♠ or 5♣ breaks the straight 3-7; 9♣ is a lone card)
"""

from __future__ import annotations

from collections.abc import Sequence

from tienlen import _guandan
from tienlen.games.guandan.cards import Cards
from tienlen.games.guandan.game import single_value
from tienlen.games.guandan.rules import RuleConfig

__all__ = ["split_cost", "best_return", "best_tribute"]


def split_cost(hand: Cards, level: int, config: RuleConfig = RuleConfig()) -> tuple[int, int]:
    """How hard ``hand`` is to play out by the plan: (groups that are not bombs, -bombs).
    Fewer turns to go out, and more bombs to take control, are better (smaller)."""
    groups = _guandan.plan_groups(hand.once, hand.twice, level, config.flags)
    bombs = sum(1 for _, _, code in groups if _guandan.code_kind(code) >= _guandan.BOMB)
    return len(groups) - bombs, -bombs


def _without(hand: Cards, card: int) -> Cards:
    return hand - Cards([card])


def _best(hand: Cards, candidates: Sequence[int], level: int, config: RuleConfig,
          tie: dict[int, int]) -> list[int]:
    """The candidates whose removal leaves the cheapest split, in ``tie`` order."""
    costs = {c: split_cost(_without(hand, c), level, config) for c in candidates}
    low = min(costs.values())
    return sorted((c for c in candidates if costs[c] == low), key=lambda c: (tie[c], c))


def best_return(hand: Cards, candidates: Sequence[int], level: int,
                config: RuleConfig = RuleConfig()) -> list[int]:
    """The return cards (of ``candidates``) that cost the hand least, best first: the lowest
    value first among equals (a low card helps the opponent who receives it least)."""
    return _best(hand, candidates, level, config,
                 {c: single_value(c, level) for c in candidates})


def best_tribute(hand: Cards, candidates: Sequence[int], level: int,
                 config: RuleConfig = RuleConfig()) -> list[int]:
    """The tribute faces (all of one value) that cost the hand least, best first."""
    return _best(hand, candidates, level, config, {c: 0 for c in candidates})
