"""A second, independent hand split for the tests: the memoised rank-count search that
``tienlen/bots/split.py`` used to run in Python, kept here (importing nothing from
``tienlen``) now that the package wraps the core's split (``src/plan.pxi``).

The PLAN playout twin (``tests/reference_playout.py``) plans on it, and the core's
``split_score`` / ``plan`` are compared with it, so the core is checked against code it
does not share. Specification (``docs/strength.md``): a best split has the fewest groups,
then the fewest singles below a 2; score = 16 per group + 1 per single below a 2. The search
covers the lowest rank first, trying sets by size, then sequences, then double sequences,
each by length, and keeps the first strictly better score (the core's tie-break). Suits
are dealt per rank afterwards: sequences take the lowest suits, then sets the rest.

``flags`` bit 0 set means no 2 in sequences (R2.8 / R11.4).

>>> split_score(0b111), split_score(1 | 1 << 4 | 1 << 8), split_score(1 | 1 << 4 | 1 << 12)
(16, 16, 51)
>>> [hex(m) for m in split_masks(1 | 1 << 4 | 1 << 8 | 1 << 9)]    # 3♠ 4♠ 5♠ 5♣
['0x111', '0x200']
"""

from __future__ import annotations

from functools import lru_cache

GROUP = 16
_TWO = 12  # rank index of the 2s
_SET, _SEQ, _DSEQ = 0, 1, 2


def _rank_key(mask: int) -> int:
    """The hand's rank counts packed 3 bits per rank (count 0..4)."""
    return sum(((mask >> (4 * r)) & 15).bit_count() << (3 * r) for r in range(13))


@lru_cache(maxsize=1 << 18)
def _best(key: int, top_limit: int) -> tuple[int, tuple[int, int, int]]:
    """Best score of the rank counts ``key`` and the group holding its lowest rank, as
    ``(kind, low rank, size)`` (size: cards for a set, ranks for a sequence)."""
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
    return _TWO - 1 if flags & 1 else _TWO


def split_score(mask: int, flags: int = 0) -> int:
    """Score of the best split of the hand ``mask`` (0 for no cards)."""
    return _best(_rank_key(mask), _top_limit(flags))[0]


def split_masks(mask: int, flags: int = 0) -> list[int]:
    """The groups of the best split of ``mask`` as card masks, in the search's order."""
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
        if kind == _SET:
            take = [(low, size)]
        else:
            need = 1 if kind == _SEQ else 2
            take = [(rank, need) for rank in range(low, low + size)]
        for rank, n in take:
            nibble = free[rank]
            for _ in range(n):
                bit = nibble & -nibble
                masks[i] |= bit << (4 * rank)
                nibble ^= bit
            free[rank] = nibble
    return masks
