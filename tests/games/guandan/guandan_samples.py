"""Seeded random Guandan hands and card sets that are rich in combinations, for the tests.

Uniformly dealt cards rarely hold a plate, a straight flush or a wild-filled bomb, so a
differential test fed only uniform deals would leave most of G2 untested. These generators
build hands from motifs (runs, one-suit runs, runs of pairs, groups of one rank, jokers) and
control the number of wild cards exactly. They use only ``guandan_reference`` for card
arithmetic and take a ``random.Random`` so that every sample is fixed by its seed.
"""

from __future__ import annotations

import random
from collections import Counter

import guandan_reference as ref

SUITS = range(4)


def _rank(r: int) -> int:
    return ref.ACE if r == 1 else r  # rank 1 is the low ace of A2345


def wild_of(level: int, cfg: dict) -> int | None:
    return ref.wild_card(level, cfg)


def rich_hand(rng: random.Random, size: int, level: int, n_wild: int, cfg: dict) -> list[int]:
    """A hand of `size` cards (original ids) holding exactly `n_wild` wild cards.

    With ``wild_count == 0`` there are no wilds and `n_wild` copies of the level heart are put
    in anyway (as the ordinary cards they then are), so the same seeds test both readings.
    """
    heart = ref.card_of(level, ref.HEARTS)
    counts = Counter({heart: n_wild})

    def add(card: int) -> None:
        if card != heart and counts[card] < 2 and sum(counts.values()) < size:
            counts[card] += 1

    while sum(counts.values()) < size:
        motif = rng.random()
        if motif < 0.35:  # a run of 3..7 ranks, often one suit, sometimes doubled
            top = rng.randint(3, 14)
            length = rng.randint(3, min(7, top))
            suit = rng.choice(SUITS)
            one_suit = rng.random() < 0.5
            copies = 2 if rng.random() < 0.3 else 1
            for r in range(top - length + 1, top + 1):
                for _ in range(copies):
                    add(ref.card_of(_rank(r), suit if one_suit else rng.choice(SUITS)))
        elif motif < 0.65:  # two to five cards of one rank, now and then up to all eight
            pool = [ref.card_of(rng.randint(2, 14), s) for s in SUITS for _ in range(2)]
            for card in rng.sample(pool, rng.randint(6, 8) if rng.random() < 0.2
                                   else rng.randint(2, 5)):
                add(card)
        elif motif < 0.75:  # a joker, often both copies (a joker pair)
            joker = rng.choice([ref.SMALL_JOKER, ref.BIG_JOKER])
            for _ in range(rng.choice([1, 2, 2])):
                add(joker)
        else:
            add(rng.randrange(52))
    return sorted(counts.elements())


def _natural_pool(rank: int, wild: int | None) -> list[int]:
    """The eight cards of a rank (two decks), without the wild cards."""
    return [c for c in [ref.card_of(rank, s) for s in SUITS for _ in range(2)] if c != wild]


def rich_play(rng: random.Random, level: int, cfg: dict) -> list[int]:
    """A card set of 1..10 cards built to be (or nearly be) a play of a random kind.

    Some natural cards are then swapped for wilds, and some sets are spoiled by one changed
    or extra card, so classify sees both plays and near misses.
    """
    heart = ref.card_of(level, ref.HEARTS)
    wild = wild_of(level, cfg)
    kind = rng.choice(ref.KINDS + ("wilds_only", "random"))
    cards: list[int] = []
    if kind == "single":
        cards = [rng.randrange(54)]
    elif kind == "pair":
        r = rng.randint(2, 16)
        if r <= 14:
            cards = rng.sample(_natural_pool(r, wild), 2)
        elif rng.random() < 0.8:
            cards = [ref.SMALL_JOKER if r == 15 else ref.BIG_JOKER] * 2
        else:
            cards = [ref.SMALL_JOKER, ref.BIG_JOKER]
    elif kind == "triple":
        cards = rng.sample(_natural_pool(rng.randint(2, 14), wild), 3)
    elif kind == "full_house":
        x, y = rng.sample(range(2, 15), 2)
        pair = (rng.sample(_natural_pool(y, wild), 2) if rng.random() < 0.8
                else [rng.choice([52, 53])] * 2)
        cards = rng.sample(_natural_pool(x, wild), 3) + pair
    elif kind in ("straight", "straight_flush"):
        top = rng.randint(5, 14)
        suit = rng.choice(SUITS)
        for r in range(top - 4, top + 1):
            s = suit if kind == "straight_flush" else rng.choice(SUITS)
            cards.append(ref.card_of(_rank(r), s))
    elif kind == "three_pairs":
        top = rng.randint(3, 14)
        for r in range(top - 2, top + 1):
            cards += rng.sample(_natural_pool(_rank(r), wild), 2)
    elif kind == "plate":
        top = rng.randint(2, 14)
        for r in range(top - 1, top + 1):
            cards += rng.sample(_natural_pool(_rank(r), wild), 3)
    elif kind == "bomb":
        pool = _natural_pool(rng.randint(2, 14), wild)
        cards = rng.sample(pool, rng.randint(4, len(pool)))
    elif kind == "joker_bomb":
        cards = [52, 52, 53, 53]
    elif kind == "wilds_only":
        cards = [heart] * rng.randint(1, 2)
    else:
        cards = [rng.randrange(54) for _ in range(rng.randint(1, 8))]
    if kind != "wilds_only" and wild is not None:
        # Swap up to two natural cards for wilds (a bomb may also gain them).
        for _ in range(rng.choice([0, 0, 1, 1, 2])):
            naturals = [i for i, c in enumerate(cards) if c < 52 and c != wild]
            if cards.count(wild) >= 2 or not naturals:
                break
            if kind == "bomb" and rng.random() < 0.5 and len(cards) < 10:
                cards.append(wild)
            else:
                cards[rng.choice(naturals)] = wild
    spoil = rng.random()
    if spoil < 0.15 and cards:
        cards[rng.randrange(len(cards))] = rng.randrange(54)
    elif spoil < 0.25:
        cards.append(rng.randrange(54))
    counts = Counter(cards)
    return sorted(c for c in counts for _ in range(min(2, counts[c])))
