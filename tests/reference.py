"""An independent, deliberately simple model of the combination rules (RULES.md R1-R5).

This module is the project's second opinion on the native core. It is written from
RULES.md alone and imports nothing from ``tienlen``, so that a misreading of the rules
has to be made twice, independently, before the differential tests stop catching it.
It favours obviousness over speed: ``classify`` counts ranks, and ``legal_moves`` tries
every subset of the hand of a size that could possibly be played.

Cards are ints 0..51 (``rank * 4 + suit``, rank 0..12 = 3 4 5 6 7 8 9 10 J Q K A 2,
suit 0..3 = spades clubs diamonds hearts) and a set of cards is a bit mask.

>>> classify(parse("J♠ Q♠ K♦ A♥ 2♣"))  # R2.7: a 2 may top a sequence
(5, 5, 49)
>>> classify(parse("A♠ 2♠ 3♠")) is None  # ... but never wrap round
True
>>> beats(parse("3♠ 3♣ 3♦ 3♥"), parse("2♠"))  # R4.1: a quad bombs a single 2
True
"""

from __future__ import annotations

from itertools import combinations
from typing import Iterable, Iterator

SINGLE = 1
PAIR = 2
TRIPLE = 3
QUAD = 4
SEQUENCE = 5
DOUBLE_SEQUENCE = 6

KIND_NAMES = {
    SINGLE: "single",
    PAIR: "pair",
    TRIPLE: "triple",
    QUAD: "quad",
    SEQUENCE: "sequence",
    DOUBLE_SEQUENCE: "double sequence",
}

RANKS = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]
SUITS = ["♠", "♣", "♦", "♥"]
_ASCII_SUITS = {"s": 0, "c": 1, "d": 2, "h": 3}
NUM_RANKS = 13
NUM_CARDS = 52
TWO_RANK = 12
FULL_DECK = (1 << NUM_CARDS) - 1

# R4.1, one entry per table row: the size of the 2-combo on the pile -> the
# (kind, ncards) of the bombs that beat exactly that 2-combo.
BOMBS_ON_TWOS: dict[int, set[tuple[int, int]]] = {
    1: {(QUAD, 4), (DOUBLE_SEQUENCE, 6)},
    2: {(DOUBLE_SEQUENCE, 8)},
    3: {(DOUBLE_SEQUENCE, 10)},
}


# ----------------------------------------------------------------------------- cards


def rank(card: int) -> int:
    return card // 4


def suit(card: int) -> int:
    return card % 4


def card_str(card: int) -> str:
    """``card_str(0) == '3♠'``, ``card_str(51) == '2♥'``."""
    return RANKS[rank(card)] + SUITS[suit(card)]


def cards_of(mask: int) -> list[int]:
    """The card indices in ``mask``, weakest first."""
    return [c for c in range(mask.bit_length()) if (mask >> c) & 1]


def cards_str(mask: int) -> str:
    """Readable form of a mask, weakest first: ``cards_str(0b11) == '3♠ 3♣'``."""
    if mask == 0:
        return "(none)"
    if mask >> NUM_CARDS:
        return f"<invalid mask {mask:#x}>"
    return " ".join(card_str(c) for c in cards_of(mask))


def parse(text: str) -> int:
    """Mask from card strings like ``"10♥ 2s J♣"`` (``s c d h`` stand for the suits).

    >>> cards_str(parse("2h 3s"))
    '3♠ 2♥'
    """
    mask = 0
    for token in text.split():
        face, s = token[:-1].upper(), token[-1]
        suit_index = SUITS.index(s) if s in SUITS else _ASCII_SUITS[s.lower()]
        card = RANKS.index(face) * 4 + suit_index
        if (mask >> card) & 1:
            raise ValueError(f"card {token} given twice")
        mask |= 1 << card
    return mask


def check_mask(mask: int) -> None:
    if mask < 0 or mask >> NUM_CARDS:
        raise ValueError(f"mask {mask:#x} has bits outside the 52-card deck")


def rank_counts(mask: int) -> list[int]:
    """How many cards of each rank the mask holds (a nibble of the mask per rank)."""
    return [((mask >> (4 * r)) & 0xF).bit_count() for r in range(NUM_RANKS)]


def lowest_card(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def highest_card(mask: int) -> int:
    return mask.bit_length() - 1


# ------------------------------------------------------------------------ combos (R2)


def classify(mask: int, twos_in_sequences: bool = True) -> tuple[int, int, int] | None:
    """``(kind, ncards, top_card)`` of the combination ``mask`` is, or None (R2).

    >>> classify(parse("K♠ K♣ A♦ A♥ 2♠ 2♥"))
    (6, 6, 51)
    >>> classify(parse("K♠ K♣ A♦ A♥ 2♠ 2♥"), twos_in_sequences=False) is None
    True
    """
    check_mask(mask)
    if mask == 0:
        return None
    n = mask.bit_count()
    top = highest_card(mask)  # R3.2: index order is strength order
    counts = rank_counts(mask)
    ranks = [r for r in range(NUM_RANKS) if counts[r]]
    if len(ranks) == 1:
        # n is 1..4 here: a rank has only four cards.
        return ({1: SINGLE, 2: PAIR, 3: TRIPLE, 4: QUAD}[n], n, top)
    if len(ranks) < 3 or ranks[-1] - ranks[0] + 1 != len(ranks):
        return None
    # Ranks are consecutive in the linear order 3..A,2 with no wrap (R2.7), so a 2
    # in a run is necessarily its top rank; only the variant forbids it outright.
    if not twos_in_sequences and ranks[-1] == TWO_RANK:
        return None
    per_rank = {counts[r] for r in ranks}
    if per_rank == {1}:
        return (SEQUENCE, n, top)
    if per_rank == {2}:
        return (DOUBLE_SEQUENCE, n, top)
    return None


def code(mask: int, twos_in_sequences: bool = True) -> int:
    """The core's packed code ``kind << 12 | ncards << 6 | top``, 0 if not a combination."""
    combo = classify(mask, twos_in_sequences)
    if combo is None:
        return 0
    kind, n, top = combo
    return kind << 12 | n << 6 | top


def describe(mask: int, twos_in_sequences: bool = True) -> str:
    """``'pair 5♦ 5♥'`` style text, for assertion messages."""
    combo = classify(mask, twos_in_sequences)
    name = "not a combination" if combo is None else KIND_NAMES[combo[0]]
    return f"{name} [{cards_str(mask)}]"


def is_two_combo(mask: int) -> bool:
    """A single, pair or triple made only of 2s (rank 12, cards 48..51)."""
    return (
        0 <= mask < 1 << NUM_CARDS
        and 1 <= mask.bit_count() <= 3
        and all(rank(c) == TWO_RANK for c in cards_of(mask))
    )


# ----------------------------------------------------------------------- beating (R3, R4)


def _bomb_rows(pile_mask: int) -> set[tuple[int, int]]:
    """The (kind, ncards) of the bombs R4.1 allows on this pile (empty set if none)."""
    if not is_two_combo(pile_mask):
        return set()
    return BOMBS_ON_TWOS[pile_mask.bit_count()]


def beats(play_mask: int, pile_mask: int, twos_in_sequences: bool = True) -> bool:
    """May ``play_mask`` go on ``pile_mask``? ``pile_mask == 0`` is a lead: any combination.

    >>> beats(parse("5♥ 5♠"), parse("5♦ 5♣"))  # R3.2
    True
    >>> beats(parse("3♠ 3♣ 4♠ 4♣ 5♠ 5♣ 6♠ 6♣"), parse("2♥"))  # R4.2: wrong row
    False
    """
    play = classify(play_mask, twos_in_sequences)
    if play is None:
        return False
    if pile_mask == 0:
        return True
    pile = classify(pile_mask, twos_in_sequences)
    if pile is None:
        raise ValueError(f"the pile {cards_str(pile_mask)} is not a combination")
    if play[0] == pile[0] and play[1] == pile[1]:
        return play[2] > pile[2]  # R3.1; also R4.3 for bombs on the pile
    return (play[0], play[1]) in _bomb_rows(pile_mask)  # R4.1 / R4.2


# ------------------------------------------------------------------------- legal moves


def _playable(
    mask: int,
    pile_mask: int,
    locked_out: bool,
    must_include: int | None,
    twos_in_sequences: bool,
) -> bool:
    if must_include is not None and not (mask >> must_include) & 1:
        return False
    if locked_out:
        # R5.2: a locked-out player may only bomb a pile of 2s.
        combo = classify(mask, twos_in_sequences)
        return combo is not None and (combo[0], combo[1]) in _bomb_rows(pile_mask)
    return beats(mask, pile_mask, twos_in_sequences)


def _subsets_of_sizes(hand: int, sizes: Iterable[int]) -> Iterator[int]:
    bits = [1 << c for c in cards_of(hand)]
    for k in sorted(set(sizes)):
        for chosen in combinations(bits, k):
            yield sum(chosen)


def _useful_sizes(hand: int, pile_mask: int) -> range | set[int]:
    if pile_mask == 0:
        return range(1, hand.bit_count() + 1)
    # Only the pile's own size (R3.1) or a bomb size (R4.1) can ever be played on it.
    return {pile_mask.bit_count()} | {n for _, n in _bomb_rows(pile_mask)}


def legal_moves(
    hand: int,
    pile_mask: int = 0,
    locked_out: bool = False,
    must_include: int | None = None,
    twos_in_sequences: bool = True,
) -> set[int]:
    """Every subset of ``hand`` that may be played now, by brute force over subsets.

    >>> sorted(cards_str(m) for m in legal_moves(parse("2♠ 2♥ 3♦"), parse("2♣")))
    ['2♥']
    """
    check_mask(hand)
    check_mask(pile_mask)
    return {
        m
        for m in _subsets_of_sizes(hand, _useful_sizes(hand, pile_mask))
        if _playable(m, pile_mask, locked_out, must_include, twos_in_sequences)
    }


def combos_in(hand: int, twos_in_sequences: bool = True) -> Iterator[int]:
    """Every combination contained in ``hand``, built rank by rank instead of by brute force.

    The shapes follow R2 directly: some cards of one rank, or a window of three or more
    consecutive ranks taking one (sequence) or two (double sequence) cards from each.
    ``legal_moves_fast`` uses it; tests check it against the brute force of
    ``legal_moves``, so the game model can be quick without being trusted blindly.
    """
    by_rank = [[1 << c for c in cards_of(hand) if rank(c) == r] for r in range(NUM_RANKS)]
    for cards in by_rank:
        for k in range(1, len(cards) + 1):
            for chosen in combinations(cards, k):
                yield sum(chosen)
    top_rank = TWO_RANK if twos_in_sequences else TWO_RANK - 1
    for per_rank in (1, 2):
        options = [[sum(chosen) for chosen in combinations(cards, per_rank)] for cards in by_rank]
        for lo in range(NUM_RANKS):
            runs = [0]  # every way to pick the ranks lo..hi so far
            for hi in range(lo, top_rank + 1):
                if not options[hi]:
                    break  # a missing rank ends every run from lo
                runs = [m | o for m in runs for o in options[hi]]
                if hi - lo >= 2:
                    yield from runs


def legal_moves_fast(
    hand: int,
    pile_mask: int = 0,
    locked_out: bool = False,
    must_include: int | None = None,
    twos_in_sequences: bool = True,
) -> set[int]:
    """Same answer as ``legal_moves``, from ``combos_in`` (for hands of any size)."""
    check_mask(hand)
    check_mask(pile_mask)
    return {
        m
        for m in combos_in(hand, twos_in_sequences)
        if _playable(m, pile_mask, locked_out, must_include, twos_in_sequences)
    }


def count_leads_closed_form(
    hand: int, must_include: int | None = None, twos_in_sequences: bool = True
) -> int:
    """Number of legal leads of ``hand`` from its rank counts alone (no enumeration).

    With ``c[r]`` cards of rank ``r``: sum_r C(c[r], k) n-of-a-kinds for k = 1..4, plus,
    for every window of >= 3 consecutive allowed ranks, prod c[r] sequences and
    prod C(c[r], 2) double sequences. A required card of rank r0 fixes one card of r0:
    C(c[r0]-1, k-1) n-of-a-kinds, and in windows through r0 its factor becomes 1
    (sequence) or c[r0]-1 (double sequence: the partner of the required card).
    """
    from math import comb, prod

    c = rank_counts(hand)
    top_rank = TWO_RANK if twos_in_sequences else TWO_RANK - 1
    if must_include is None:
        same_rank = sum(comb(c[r], k) for r in range(NUM_RANKS) for k in range(1, 5))
        runs = sum(
            prod(c[lo : hi + 1]) + prod(comb(x, 2) for x in c[lo : hi + 1])
            for lo in range(NUM_RANKS)
            for hi in range(lo + 2, top_rank + 1)
        )
        return same_rank + runs
    if not (hand >> must_include) & 1:
        return 0
    r0 = rank(must_include)
    same_rank = sum(comb(c[r0] - 1, k - 1) for k in range(1, 5))
    runs = 0
    for lo in range(0, r0 + 1):
        for hi in range(max(lo + 2, r0), top_rank + 1):
            others = c[lo:r0] + c[r0 + 1 : hi + 1]
            runs += prod(others) + (c[r0] - 1) * prod(comb(x, 2) for x in others)
    return same_rank + runs
