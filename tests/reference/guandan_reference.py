"""An independent, deliberately simple model of the Guandan combination rules (GUANDAN.md G1-G4).

This module is the second opinion on ``tienlen.guandan``. It was written from the rulings and
GUANDAN.md alone and imports nothing from ``tienlen``: a misreading of the rules has to be made
twice, independently, before the differential tests stop catching it. It prefers obviousness
to speed.

- ``classify`` tries every natural card (2..A, every suit) for each wild card in the set and
  reads the natural multiset that results. Nothing cleverer.
- ``legal_plays`` builds, for every reading (kind, rank, window, suit), every sub-multiset of
  the hand that realises it: the natural cards of the right ranks the hand can supply, with
  wild cards filling the rest. ``legal_plays_brute`` tries every sub-multiset of a small hand
  and classifies it; the tests hold the two to the same answer.

Cards are ``original_id`` ints 0..53 (suit ``id % 4``: 0 spades, 1 hearts, 2 clubs,
3 diamonds; natural rank ``2 + id // 4``; 52 small joker, 53 big joker). A set of cards is a
sequence of ids, each at most twice. A reading is ``(kind, size, rank)`` as GUANDAN_API.md fixes
it, and a rule configuration is a plain dict (``STANDARD``, ``HUAIAN``).

>>> sorted(classify(parse("3s 4s 5s 6s 10h"), 10, STANDARD))   # 10h is wild at level 10
[('straight', 5, 6), ('straight', 5, 7), ('straight_flush', 5, 6), ('straight_flush', 5, 7)]
>>> sorted(classify(parse("10h 10h"), 10, STANDARD))   # wilds alone are plain level cards
[('pair', 2, 10)]
>>> beats(("single", 1, 2), ("single", 1, 14), 2, STANDARD)   # the level rank tops the A
True
>>> len(legal_plays(parse("5s 5d 6s 6d 10h 10h"), 10, None, STANDARD))
33
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, combinations_with_replacement, product
from typing import Iterable, Sequence

Reading = tuple[str, int, int]
LegalPlay = tuple[tuple[int, ...], Reading]

SPADES, HEARTS, CLUBS, DIAMONDS = 0, 1, 2, 3
SMALL_JOKER, BIG_JOKER = 52, 53
NATURAL_IDS = range(52)
NATURAL_RANKS = range(2, 15)  # 2 .. 14 = A
ACE = 14
SMALL_JOKER_RANK, BIG_JOKER_RANK = 15, 16

KINDS = ("single", "pair", "triple", "full_house", "straight", "three_pairs", "plate", "bomb",
         "straight_flush", "joker_bomb")
BOMB_KINDS = frozenset({"bomb", "straight_flush", "joker_bomb"})
WINDOW_KINDS = frozenset({"straight", "three_pairs", "plate", "straight_flush"})

STANDARD: dict = {
    "same_suit_straight_beats_bomb": True,
    "double_down_levels": 3,
    "can_tribute_wild": False,
    "tribute_return_max_rank": 10,
    "straight_extends_to_ace": True,
    "bomb_compare_priority": "BY_COUNT",
    "wild_count": 2,
    "team_formation": "FIXED_1_3",
    "failed_attempts_limit": 3,
}
HUAIAN: dict = {**STANDARD, "same_suit_straight_beats_bomb": False,
                "straight_extends_to_ace": False}


# ----------------------------------------------------------------------------- cards

RANK_NAMES = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10",
              11: "J", 12: "Q", 13: "K", 14: "A"}
_RANK_TOKENS = {name: rank for rank, name in RANK_NAMES.items()} | {"T": 10}
_SUIT_TOKENS = {"S": SPADES, "H": HEARTS, "C": CLUBS, "D": DIAMONDS,
                "♠": SPADES, "♥": HEARTS, "♣": CLUBS, "♦": DIAMONDS}


def rank_of(card: int) -> int:
    """Natural rank 2..14, or 15 / 16 for the small / big joker."""
    if card == SMALL_JOKER:
        return SMALL_JOKER_RANK
    if card == BIG_JOKER:
        return BIG_JOKER_RANK
    return 2 + card // 4


RANK = tuple(rank_of(c) for c in range(54))


def suit_of(card: int) -> int | None:
    return None if card >= 52 else card % 4


def card_of(rank: int, suit: int) -> int:
    return (rank - 2) * 4 + suit


def parse(text: str) -> list[int]:
    """'5h 5h 10s SJ BJ' -> original ids; also ☆ ★ and suit symbols. For writing tests."""
    ids = []
    for token in text.replace(",", " ").split():
        up = token.upper()
        if up in ("SJ", "☆"):
            ids.append(SMALL_JOKER)
        elif up in ("BJ", "★"):
            ids.append(BIG_JOKER)
        elif up[:-1] in _RANK_TOKENS and up[-1] in _SUIT_TOKENS:
            ids.append(card_of(_RANK_TOKENS[up[:-1]], _SUIT_TOKENS[up[-1]]))
        else:
            raise ValueError(f"unknown card {token!r}")
    return sorted(ids)


def card_name(card: int) -> str:
    if card == SMALL_JOKER:
        return "SJ"
    if card == BIG_JOKER:
        return "BJ"
    return RANK_NAMES[rank_of(card)] + "shcd"[card % 4]


def cards_str(ids: Iterable[int]) -> str:
    return " ".join(card_name(c) for c in sorted(ids))


def check_cards(ids: Sequence[int]) -> list[int]:
    ids = list(ids)
    for c in ids:
        if type(c) is not int or not 0 <= c <= 53:
            raise ValueError(f"not a card id: {c!r}")
    for c, n in Counter(ids).items():
        if n > 2:
            raise ValueError(f"{card_name(c)} appears {n} times (two decks: at most 2)")
    return ids


def check_level(level: int) -> None:
    if type(level) is not int or not 2 <= level <= ACE:
        raise ValueError(f"level must be 2..14, not {level!r}")


def wild_card(level: int, cfg: dict) -> int | None:
    """The id of the wild card (the level rank's heart), or None when the config has none."""
    if cfg["wild_count"] == 0:
        return None
    if cfg["wild_count"] != 2:
        raise ValueError("wild_count must be 0 or 2")
    return card_of(level, HEARTS)


def value(rank: int, level: int) -> int:
    """Single-card order: 2 .. A, then the level rank, then small joker, then big joker."""
    if rank == level:
        return 15
    if rank == SMALL_JOKER_RANK:
        return 16
    if rank == BIG_JOKER_RANK:
        return 17
    return rank


# ----------------------------------------------------------------------------- windows

def window(top: int, length: int) -> tuple[int, ...]:
    """The consecutive natural ranks ending at `top`; rank 1 stands for a low ace."""
    return tuple(ACE if r == 1 else r for r in range(top - length + 1, top + 1))


def straight_tops(cfg: dict) -> range:
    # A2345 (top 5) .. 10JQKA (top 14); without extends_to_ace the A may not top one.
    return range(5, 15) if cfg["straight_extends_to_ace"] else range(5, 14)


THREE_PAIRS_TOPS = range(3, 15)  # AA2233 .. QQKKAA
PLATE_TOPS = range(2, 15)  # AAA222 .. KKKAAA


# ----------------------------------------------------------------------------- classify

def classify_natural(ids: Sequence[int], cfg: dict) -> set[Reading]:
    """Every reading of a multiset of natural cards and jokers (no wild in play)."""
    n = len(ids)
    ranks = [RANK[c] for c in ids]
    distinct = set(ranks)
    jokers = SMALL_JOKER_RANK in distinct or BIG_JOKER_RANK in distinct
    out: set[Reading] = set()
    if n == 1:
        out.add(("single", 1, ranks[0]))
    elif n == 2:
        if len(distinct) == 1:  # ☆☆ and ★★ are pairs, ☆★ is not
            out.add(("pair", 2, ranks[0]))
    elif n == 3:
        if len(distinct) == 1 and not jokers:
            out.add(("triple", 3, ranks[0]))
    elif n <= 10 and len(distinct) == 1 and not jokers:
        out.add(("bomb", n, ranks[0]))
    elif n == 4 and sorted(ranks) == [SMALL_JOKER_RANK] * 2 + [BIG_JOKER_RANK] * 2:
        out.add(("joker_bomb", 4, BIG_JOKER_RANK))
    elif n == 5:
        counts = Counter(ranks)
        if sorted(counts.values()) == [2, 3]:
            triple_rank = next(r for r, k in counts.items() if k == 3)
            if triple_rank <= ACE:  # the pair may be jokers, the triple may not
                out.add(("full_house", 5, triple_rank))
        if len(distinct) == 5 and not jokers:
            for top in straight_tops(cfg):
                if set(window(top, 5)) == distinct:
                    out.add(("straight", 5, top))
                    one_suit = len({suit_of(c) for c in ids}) == 1
                    if cfg["same_suit_straight_beats_bomb"] and one_suit:
                        out.add(("straight_flush", 5, top))
    elif n == 6 and not jokers:
        counts = Counter(ranks)
        if set(counts.values()) == {2}:
            for top in THREE_PAIRS_TOPS:
                if set(window(top, 3)) == distinct:
                    out.add(("three_pairs", 6, top))
        if set(counts.values()) == {3}:
            for top in PLATE_TOPS:
                if set(window(top, 2)) == distinct:
                    out.add(("plate", 6, top))
    return out


def classify(ids: Sequence[int], level: int, cfg: dict) -> set[Reading]:
    """Every reading of exactly these cards at this level (empty set: not a play)."""
    ids = check_cards(ids)
    check_level(level)
    wild = wild_card(level, cfg)
    naturals = [c for c in ids if c != wild]
    wilds = len(ids) - len(naturals)
    if not ids:
        return set()
    if not naturals:  # wild cards alone are read as the plain level cards they are
        return classify_natural(ids, cfg)
    out: set[Reading] = set()
    # Each wild stands for any natural card; the order of the wilds does not matter.
    for stand_ins in combinations_with_replacement(NATURAL_IDS, wilds):
        out |= classify_natural(naturals + list(stand_ins), cfg)
    return out


# ----------------------------------------------------------------------------- beating

def bomb_class(reading: Reading) -> int:
    """Bomb size class, doubled so the straight flush's 5½ is an int: 4 -> 8, SF -> 11."""
    kind, size, _ = reading
    return {"bomb": 2 * size, "straight_flush": 11, "joker_bomb": 22}[kind]


def bomb_value(reading: Reading, level: int) -> int:
    kind, _, rank = reading
    return rank if kind == "straight_flush" else value(rank, level)


def beats(a: Reading, b: Reading, level: int, cfg: dict) -> bool:
    """Does play `a` beat the pile `b`? (Equal never beats.)"""
    a_bomb, b_bomb = a[0] in BOMB_KINDS, b[0] in BOMB_KINDS
    if a_bomb != b_bomb:
        return a_bomb  # every bomb beats every non-bomb, never the other way
    if not a_bomb:
        if a[0] != b[0] or a[1] != b[1]:
            return False
        if a[0] in WINDOW_KINDS:
            return a[2] > b[2]  # windows by top natural rank, the level not promoted
        return value(a[2], level) > value(b[2], level)
    if a[0] == "joker_bomb" or b[0] == "joker_bomb":
        return a[0] == "joker_bomb" and b[0] != "joker_bomb"
    ka = (bomb_class(a), bomb_value(a, level))
    kb = (bomb_class(b), bomb_value(b, level))
    if cfg["bomb_compare_priority"] == "BY_RANK":
        ka, kb = ka[::-1], kb[::-1]
    elif cfg["bomb_compare_priority"] != "BY_COUNT":
        raise ValueError("bomb_compare_priority must be BY_COUNT or BY_RANK")
    return ka > kb


# ----------------------------------------------------------------------------- legal plays

def legal_plays(hand_ids: Sequence[int], level: int, pile: Reading | None,
                cfg: dict) -> set[LegalPlay]:
    """Every distinct (sorted ids, reading) the hand can play, beating `pile` if given.

    Built reading by reading: for each rank a reading needs n cards of, choose m <= n of the
    hand's natural cards of that rank (m = 0 .. n) and let wild cards fill the n - m slots
    left, as long as the hand has that many wilds. A play of wild cards alone is added
    separately, read as plain level cards (a wild alone never reads as another rank).
    """
    hand = check_cards(hand_ids)
    check_level(level)
    wild = wild_card(level, cfg)
    n_wild = hand.count(wild) if wild is not None else 0
    natural = Counter(c for c in hand if c != wild)
    plays: set[LegalPlay] = set()

    picked: dict[tuple[int, int, int | None], set[tuple[int, ...]]] = {}

    def picks(rank: int, m: int, suit: int | None = None) -> set[tuple[int, ...]]:
        """Distinct sub-multisets of m natural cards of this rank (and suit) in the hand."""
        if (rank, m, suit) not in picked:  # remembered: fill asks for the same ones often
            pool = [c for c in natural.elements()
                    if c < 52 and rank_of(c) == rank and (suit is None or suit_of(c) == suit)]
            picked[rank, m, suit] = set(combinations(sorted(pool), m))
        return picked[rank, m, suit]

    def fill(reading: Reading, needs: list[tuple[int, int, int | None]]) -> None:
        """needs: (rank, n, suit) slots; add every way the hand fills all of them."""
        options = []
        for rank, n, suit in needs:
            options.append([(p, n - m) for m in range(n + 1) for p in picks(rank, m, suit)])
        for choice in product(*options):
            wilds_used = sum(k for _, k in choice)
            naturals = [c for p, _ in choice for c in p]
            if wilds_used <= n_wild and naturals:
                plays.add((tuple(sorted(naturals + [wild] * wilds_used)), reading))

    for r in NATURAL_RANKS:
        fill(("single", 1, r), [(r, 1, None)])
        fill(("pair", 2, r), [(r, 2, None)])
        fill(("triple", 3, r), [(r, 3, None)])
        for size in range(4, 11):
            fill(("bomb", size, r), [(r, size, None)])
        for other in NATURAL_RANKS:
            if other != r:
                fill(("full_house", 5, r), [(r, 3, None), (other, 2, None)])
    for joker in (SMALL_JOKER, BIG_JOKER):
        if natural[joker] >= 1:
            plays.add(((joker,), ("single", 1, rank_of(joker))))
        if natural[joker] == 2:
            plays.add(((joker, joker), ("pair", 2, rank_of(joker))))
            for triple in NATURAL_RANKS:  # a joker pair tops a full house, naturals only
                for m in range(4):
                    for p in picks(triple, m):
                        if 3 - m <= n_wild and p:
                            ids = tuple(sorted(list(p) + [wild] * (3 - m) + [joker, joker]))
                            plays.add((ids, ("full_house", 5, triple)))
    if natural[SMALL_JOKER] == 2 and natural[BIG_JOKER] == 2:
        plays.add(((SMALL_JOKER,) * 2 + (BIG_JOKER,) * 2, ("joker_bomb", 4, BIG_JOKER_RANK)))
    if n_wild >= 1:  # wild cards alone: the level card(s) they are
        plays.add(((wild,), ("single", 1, level)))
    if n_wild == 2:
        plays.add(((wild, wild), ("pair", 2, level)))
    for top in straight_tops(cfg):
        fill(("straight", 5, top), [(r, 1, None) for r in window(top, 5)])
        if cfg["same_suit_straight_beats_bomb"]:
            for suit in range(4):
                fill(("straight_flush", 5, top), [(r, 1, suit) for r in window(top, 5)])
    for top in THREE_PAIRS_TOPS:
        fill(("three_pairs", 6, top), [(r, 2, None) for r in window(top, 3)])
    for top in PLATE_TOPS:
        fill(("plate", 6, top), [(r, 3, None) for r in window(top, 2)])

    if pile is not None:
        plays = {p for p in plays if beats(p[1], pile, level, cfg)}
    return plays


def sub_multisets(ids: Sequence[int]) -> Iterable[tuple[int, ...]]:
    """Every non-empty sub-multiset of `ids`, once each, as a sorted tuple."""
    counts = sorted(Counter(ids).items())
    for takes in product(*(range(k + 1) for _, k in counts)):
        sub = tuple(c for (c, _), t in zip(counts, takes) for _ in range(t))
        if sub:
            yield sub


def legal_plays_brute(hand_ids: Sequence[int], level: int, pile: Reading | None,
                      cfg: dict) -> set[LegalPlay]:
    """The same as `legal_plays`, by classifying every sub-multiset: small hands only."""
    hand = check_cards(hand_ids)
    if len(hand) > 12:
        raise ValueError("legal_plays_brute is for hands of at most 12 cards")
    return {(sub, reading)
            for sub in sub_multisets(hand)
            for reading in classify(sub, level, cfg)
            if pile is None or beats(reading, pile, level, cfg)}


def count_legal_plays(hand_ids: Sequence[int], level: int, pile: Reading | None,
                      cfg: dict) -> int:
    return len(legal_plays(hand_ids, level, pile, cfg))


# ----------------------------------------------------------------------------- deals

def deck_card_ids() -> list[int]:
    """All 108 card ids: card_id = original_id + 54 * deck_index."""
    return list(range(108))


def original_id(card_id: int) -> int:
    if type(card_id) is not int or not 0 <= card_id < 108:
        raise ValueError(f"not a card_id: {card_id!r}")
    return card_id % 54
