"""Hand splitting: cover a hand with the fewest combinations (the L2 bot's model of a hand).

A hand that splits into few combinations goes out in few turns, so a move that keeps the
best split intact (it *is* one of the groups) costs nothing, while a move that breaks a
group leaves more, weaker pieces behind.

The split search is the core's (``src/plan.pxi``: ``core.plan``, ``core.split_score``), the
one the PLAN playouts run: this module only wraps it in Python objects, so the L2 bot, the
hints and the native playouts see the same split. ``tests/reference.py`` holds an
independent brute-force split it is tested against.

Scores are ints, lower is better: ``GROUP`` per group, plus one per single below a 2
(a lone low card is the hardest thing to get rid of, so it breaks ties between splits
with the same number of groups).

>>> from tienlen.games.tienlen.cards import Cards
>>> split = split_hand(Cards.parse("3s 4c 5d 5h 9s 9c Kd 2h"))
>>> [str(group) for group in split.groups]
['sequence 3♠ 4♣ 5♦', 'single 5♥', 'pair 9♠ 9♣', 'single K♦', 'single 2♥']
>>> split.count, split.score == split_score(Cards.parse("3s 4c 5d 5h 9s 9c Kd 2h").mask)
(5, True)
>>> move_damage(Cards.parse("3s 4c 5d 5h 9s 9c Kd 2h").mask, Cards.parse("9s").mask)
18
"""

from __future__ import annotations

from dataclasses import dataclass

from tienlen import _core
from tienlen.games.tienlen.cards import Cards
from tienlen.games.tienlen.plays import Combo
from tienlen.games.tienlen.rules import Rules

__all__ = ["GROUP", "Split", "split_hand", "split_score", "split_count", "move_damage",
           "group_score", "is_control", "split_masks"]

#: Score of one group; the per-single tie-break is always smaller than this.
GROUP = 16

_DEFAULT = Rules()


def split_score(mask: int, flags: int = 0) -> int:
    """Score of the best split of the hand ``mask`` (lower is better; 0 for no cards).

    >>> from tienlen.games.tienlen.cards import Cards
    >>> split_score(Cards.parse("3s 4s 5s").mask), split_score(Cards.parse("3s 4s 6s").mask)
    (16, 51)
    """
    return _core.split_score(mask, flags)


def split_count(mask: int, flags: int = 0) -> int:
    """Fewest combinations that cover the hand ``mask``.

    >>> from tienlen.games.tienlen.cards import Cards
    >>> split_count(Cards.parse("3s 3c 4d 4h 5s 5h 9d").mask)
    2
    """
    return _core.split_score(mask, flags) // GROUP


def group_score(mask: int, flags: int = 0) -> int:
    """Score the combination ``mask`` adds as one group: ``GROUP``, plus one for a single
    below a 2 (a combination's best split is itself).

    >>> from tienlen.games.tienlen.cards import Cards
    >>> group_score(Cards.parse("9s").mask), group_score(Cards.parse("2s").mask)
    (17, 16)
    """
    return _core.split_score(mask, flags)


def move_damage(hand: int, move: int, flags: int = 0) -> int:
    """How much playing ``move`` (a combination in ``hand``) worsens the hand's best split.

    0 means the move is a group of some best split; each broken group adds about ``GROUP``.

    >>> from tienlen.games.tienlen.cards import Cards
    >>> hand = Cards.parse("3s 4c 5d 9s 9c").mask
    >>> move_damage(hand, Cards.parse("3s 4c 5d").mask), move_damage(hand, Cards.parse("4c").mask)
    (0, 35)
    """
    score = _core.split_score
    return score(hand & ~move, flags) + score(move, flags) - score(hand, flags)


def is_control(mask: int, flags: int = 0) -> bool:
    """Whether a group is one to hold back: it contains a 2, or it is a bomb (quad or a
    double sequence), the cards that win a pile late. The core's test, the one the PLAN
    playouts use.

    >>> from tienlen.games.tienlen.cards import Cards
    >>> is_control(Cards.parse("2s").mask), is_control(Cards.parse("9s 9c 9d 9h").mask)
    (True, True)
    >>> is_control(Cards.parse("Js Qs Ks").mask)
    False
    """
    return _core.is_control_group(mask, flags)


@dataclass(frozen=True, slots=True)
class Split:
    """A best split of a hand: its groups, weakest first (2s and bombs last), and score.

    >>> split = split_hand(Cards.parse("6s 6h 7d 8c 2s"))
    >>> [str(group) for group in split.groups], split.count
    (['single 6♥', 'sequence 6♠ 7♦ 8♣', 'single 2♠'], 3)
    """

    groups: tuple[Combo, ...]
    score: int

    @property
    def count(self) -> int:
        """Number of groups."""
        return len(self.groups)

    def group_of(self, cards: Cards) -> Combo | None:
        """The group equal to ``cards``, if the move is exactly one of the groups."""
        return next((group for group in self.groups if group.cards == cards), None)


def split_masks(mask: int, flags: int = 0) -> list[int]:
    """The groups of a best split of ``mask`` as card masks, weakest first with 2s and bombs
    last (the fast form of :func:`split_hand`, for bots; the core's ``plan``).

    Suits are assigned after the rank search: at each rank the sequences take the lowest
    suits and the sets the rest, so pairs and singles keep the strongest cards.

    >>> from tienlen.games.tienlen.cards import Cards
    >>> [str(Cards(m)) for m in split_masks(Cards.parse("3s 4c 5d 5h").mask)]
    ['3♠ 4♣ 5♦', '5♥']
    """
    return list(_core.plan(mask, flags))


def split_hand(hand: Cards, rules: Rules = _DEFAULT) -> Split:
    """A best split of ``hand`` into combinations, weakest group first (see the module
    docstring for the score, and :func:`split_masks` for how suits are assigned)."""
    groups = tuple(Combo.from_cards(Cards(mask), rules) for mask in _core.plan(hand.mask, rules.flags))
    return Split(groups, _core.split_score(hand.mask, rules.flags))
