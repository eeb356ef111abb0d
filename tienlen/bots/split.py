"""Hand splitting: cover a hand with the fewest combinations (the L2 bot's model of a hand).

A hand that splits into few combinations goes out in few turns, so a move that keeps the
best split intact (it *is* one of the groups) costs nothing, while a move that breaks a
group leaves more, weaker pieces behind. The search only needs rank counts: which suit
goes where never changes how many groups a hand needs, so the search runs over the
13-rank count vector (at most 5**13 values, a few thousand per 13-card hand) and is
memoised across calls.

Scores are ints, lower is better: ``GROUP`` per group, plus one per single below a 2
(a lone low card is the hardest thing to get rid of, so it breaks ties between splits
with the same number of groups).

>>> from tienlen.cards import Cards
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
from functools import lru_cache

from .. import _core
from ..cards import Cards
from ..combos import Combo
from ..rules import Rules

__all__ = ["GROUP", "Split", "split_hand", "split_score", "split_count", "move_damage",
           "group_score", "is_control", "split_masks"]

#: Score of one group; the per-single tie-break is always smaller than this.
GROUP = 16

_TWO = 12  # rank index of the 2s
_SET, _SEQ, _DSEQ = 0, 1, 2
_DEFAULT = Rules()
_NO_TWOS = _core.NO_TWOS_IN_SEQUENCES


# Rank counts of every 12-bit slice of a mask (three ranks), packed 3 bits per rank.
_SLICE_KEYS = tuple(
    sum(((m >> (4 * r)) & 15).bit_count() << (3 * r) for r in range(3)) for m in range(1 << 12)
)


def _rank_key(mask: int) -> int:
    """The hand's rank counts packed 3 bits per rank (count 0..4)."""
    keys = _SLICE_KEYS
    return (keys[mask & 0xFFF] | keys[(mask >> 12) & 0xFFF] << 9 | keys[(mask >> 24) & 0xFFF] << 18
            | keys[(mask >> 36) & 0xFFF] << 27 | keys[mask >> 48] << 36)


@lru_cache(maxsize=1 << 18)
def _best(key: int, top_limit: int) -> tuple[int, tuple[int, int, int]]:
    """Best score of the rank counts ``key`` and the group holding its lowest rank.

    ``top_limit`` is the highest rank a sequence may reach (12 allows a 2 as top, R2.7;
    11 is the no-twos variant). The group is ``(kind, low rank, size)`` where size counts
    cards for a set and ranks for a (double) sequence.
    """
    if key == 0:
        return 0, (_SET, 0, 0)
    low = ((key & -key).bit_length() - 1) // 3
    count = (key >> (3 * low)) & 7
    best = (1 << 30, (_SET, 0, 0))
    for size in range(1, count + 1):
        extra = 1 if size == 1 and low != _TWO else 0
        score = GROUP + extra + _best(key - (size << (3 * low)), top_limit)[0]
        if score < best[0]:
            best = (score, (_SET, low, size))
    # Every group covering the lowest rank starts there, so sequences start at `low` too.
    for kind, need in ((_SEQ, 1), (_DSEQ, 2)):
        if count < need:
            continue
        rest = key - (need << (3 * low))
        length = 1
        for rank in range(low + 1, top_limit + 1):
            if (key >> (3 * rank)) & 7 < need:
                break
            rest -= need << (3 * rank)
            length += 1
            if length >= 3:
                score = GROUP + _best(rest, top_limit)[0]
                if score < best[0]:
                    best = (score, (kind, low, length))
    return best


def _top_limit(flags: int) -> int:
    return _TWO - 1 if flags & _NO_TWOS else _TWO


def split_score(mask: int, flags: int = 0) -> int:
    """Score of the best split of the hand ``mask`` (lower is better; 0 for no cards).

    >>> from tienlen.cards import Cards
    >>> split_score(Cards.parse("3s 4s 5s").mask), split_score(Cards.parse("3s 4s 6s").mask)
    (16, 51)
    """
    return _best(_rank_key(mask), _top_limit(flags))[0]


def split_count(mask: int, flags: int = 0) -> int:
    """Fewest combinations that cover the hand ``mask``.

    >>> from tienlen.cards import Cards
    >>> split_count(Cards.parse("3s 3c 4d 4h 5s 5h 9d").mask)
    2
    """
    return split_score(mask, flags) // GROUP


def group_score(mask: int) -> int:
    """Score the move ``mask`` adds as one group: ``GROUP``, plus one for a single below 2."""
    return GROUP + (1 if mask.bit_count() == 1 and mask < (1 << (4 * _TWO)) else 0)


def move_damage(hand: int, move: int, flags: int = 0) -> int:
    """How much playing ``move`` (a combination in ``hand``) worsens the hand's best split.

    0 means the move is a group of some best split; each broken group adds about ``GROUP``.

    >>> from tienlen.cards import Cards
    >>> hand = Cards.parse("3s 4c 5d 9s 9c").mask
    >>> move_damage(hand, Cards.parse("3s 4c 5d").mask), move_damage(hand, Cards.parse("4c").mask)
    (0, 35)
    """
    limit = _top_limit(flags)
    key = _rank_key(hand)
    # Rank counts subtract: the key of hand - move is key(hand) - key(move).
    return _best(key - _rank_key(move), limit)[0] + group_score(move) - _best(key, limit)[0]


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


def is_control(combo: Combo) -> bool:
    """Whether a group is one to hold back: it contains a 2, or it is a bomb (quad or a
    double sequence), the cards that win a pile late.

    >>> is_control(Combo.from_cards("2s")), is_control(Combo.from_cards("9s 9c 9d 9h"))
    (True, True)
    >>> is_control(Combo.from_cards("Js Qs Ks"))
    False
    """
    return combo.top >> 2 == _TWO or combo.kind.value in (4, 6)


def split_masks(mask: int, flags: int = 0) -> list[int]:
    """The groups of a best split of ``mask`` as card masks, in the search's order (the
    fast form of :func:`split_hand`, for bots).

    Suits are assigned after the rank search: at each rank the sequences take the lowest
    suits and the sets the rest, so pairs and singles keep the strongest cards.

    >>> from tienlen.cards import Cards
    >>> [str(Cards(m)) for m in split_masks(Cards.parse("3s 4c 5d 5h").mask)]
    ['3♠ 4♣ 5♦', '5♥']
    """
    limit = _top_limit(flags)
    key = _rank_key(mask)
    shapes: list[tuple[int, int, int]] = []
    while key:
        kind, low, size = _best(key, limit)[1]
        shapes.append((kind, low, size))
        if kind == _SET:
            key -= size << (3 * low)
        else:
            need = 1 if kind == _SEQ else 2
            for rank in range(low, low + size):
                key -= need << (3 * rank)
    # Per rank, the cards still free as a 4-bit nibble; groups take the lowest bits.
    free = [(mask >> (4 * rank)) & 15 for rank in range(13)]
    masks = [0] * len(shapes)
    for i in sorted(range(len(shapes)), key=lambda i: shapes[i][0] == _SET):
        kind, low, size = shapes[i]
        take: tuple[tuple[int, int], ...]
        if kind == _SET:
            take = ((low, size),)
        else:
            need = 1 if kind == _SEQ else 2
            take = tuple((rank, need) for rank in range(low, low + size))
        for rank, n in take:
            nibble = free[rank]
            for _ in range(n):
                bit = nibble & -nibble
                masks[i] |= bit << (4 * rank)
                nibble ^= bit
            free[rank] = nibble
    return masks


def split_hand(hand: Cards, rules: Rules = _DEFAULT) -> Split:
    """A best split of ``hand`` into combinations, weakest group first (see the module
    docstring for the score, and :func:`split_masks` for how suits are assigned)."""
    masks = split_masks(hand.mask, rules.flags)
    groups = [Combo.from_cards(Cards(mask), rules) for mask in masks]
    groups.sort(key=lambda g: (is_control(g), g.top, -len(g)))
    return Split(tuple(groups), split_score(hand.mask, rules.flags))
